"""Double-entry money in integer minor units: postings derived from events and results.

One table unit is ``MINOR_PER_UNIT`` minor units (cents): bets are whole units (docs/rules.md §6),
wallet credits and debits are whole minor units, and a payout such as 7.5 units is exactly
750 minor units.
"""

from croupier.ledger.book import MINOR_PER_UNIT, Leg, parse_minor_amount, to_minor

__all__ = ["MINOR_PER_UNIT", "Leg", "parse_minor_amount", "to_minor"]
