"""Finding and loading profiles: the shipped ones by name, or a user's TOML file by path."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from croupier.errors import ProfileError
from croupier.rules.baccarat import BaccaratRules
from croupier.rules.base import Profile
from croupier.rules.blackjack import BlackjackRules
from croupier.rules.casino_holdem import CasinoHoldemRules

PROFILE_MODELS: dict[str, type[Profile]] = {
    model.game: model for model in (BlackjackRules, BaccaratRules, CasinoHoldemRules)
}


def _shipped_dir() -> Path:
    return Path(str(resources.files("croupier.rules") / "profiles"))


def shipped_profile_names() -> list[str]:
    """The profiles that ship with croupier, by name."""
    return sorted(path.stem for path in _shipped_dir().glob("*.toml"))


def parse_profile(text: str, origin: str) -> Profile:
    """A profile from TOML text; ``origin`` names the file in every error."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{origin}: not valid TOML: {error}") from None
    game = data.get("game")
    model = PROFILE_MODELS.get(game) if isinstance(game, str) else None
    if model is None:
        known = ", ".join(sorted(PROFILE_MODELS))
        raise ProfileError(f"{origin}: key 'game': unknown game {game!r} (known: {known})")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = "; ".join(
            f"key '{'.'.join(str(part) for part in item['loc']) or '(top)'}': {item['msg']}"
            f"{_given(item.get('input'))}"
            for item in error.errors()
        )
        raise ProfileError(f"{origin}: {problems}") from None


def _given(value: object) -> str:
    """The bad value itself, for a refusal that names it (`surrender = "early"`): a scalar
    only, cut short, since a table's whole contents would bury the message."""
    if isinstance(value, dict | list) or value is None:
        return ""
    shown = repr(value)
    return f" (given {shown[:60] + '...' if len(shown) > 60 else shown})"


@cache
def _load_shipped(name: str) -> Profile:
    path = _shipped_dir() / f"{name}.toml"
    profile = parse_profile(path.read_text(encoding="utf-8"), f"profiles/{name}.toml")
    if profile.name != name:
        raise ProfileError(f"profiles/{name}.toml: key 'name' is {profile.name!r}, not {name!r}")
    return profile


def load_profile(name_or_path: str | Path) -> Profile:
    """A shipped profile by name (``peru-2016``) or a profile file by path."""
    text = str(name_or_path)
    if text in shipped_profile_names():
        return _load_shipped(text)
    path = Path(text)
    if path.suffix == ".toml" and path.is_file():
        return parse_profile(path.read_text(encoding="utf-8"), str(path))
    known = ", ".join(shipped_profile_names())
    raise ProfileError(
        f"unknown profile {text!r}: not a shipped profile ({known}) nor a .toml file"
    )


def load_profile_of(game: str, name_or_path: str | Path) -> Profile:
    """Like ``load_profile``, refusing a profile of another game."""
    profile = load_profile(name_or_path)
    if profile.game != game:
        raise ProfileError(f"profile {name_or_path!s} is for {profile.game}, not {game}")
    return profile
