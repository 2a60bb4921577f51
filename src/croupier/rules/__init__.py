"""Rule profiles: each regulation's settings as validated, frozen data."""

from croupier.rules.baccarat import BaccaratRules
from croupier.rules.base import Limits, Profile
from croupier.rules.blackjack import BlackjackRules
from croupier.rules.casino_holdem import CasinoHoldemRules
from croupier.rules.registry import (
    load_profile,
    load_profile_of,
    parse_profile,
    shipped_profile_names,
)

__all__ = [
    "BaccaratRules",
    "BlackjackRules",
    "CasinoHoldemRules",
    "Limits",
    "Profile",
    "load_profile",
    "load_profile_of",
    "parse_profile",
    "shipped_profile_names",
]
