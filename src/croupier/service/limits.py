"""A table's own limits: the operator's values laid over its profile's (docs/rules.md §6: "Table
limits are the operator's (profile values)").

The overrides are kept as data, ``{wager: {"minimum": m, "maximum": M}}`` in whole units, with
wager names as ``settle`` and the bet route spell them: blackjack ``main`` and ``21+3``,
baccarat's wagers (``player``, ``banker``, ...), Casino Hold'em ``ante`` and ``progressive``.
A table's profile is the shipped (or operator's file) profile with them applied, re-validated
as a whole, so every rule the profile model checks still holds.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from croupier.errors import ProfileError
from croupier.rules.base import Limits, Profile

Overrides = dict[str, dict[str, int]]


def _whole_units(label: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProfileError(
            f"{label} {value!r}: limits are whole units", code="limits_not_whole", value=repr(value)
        )
    return value


def _set(profile: Profile, wager: str, limits: Limits) -> Profile:
    """``profile`` with one wager's limits replaced (``model_copy`` does not validate): the
    profile field that holds them (``Profile.table`` reads the same fields back)."""
    current: Any = profile
    if wager == "progressive":
        if limits.minimum != limits.maximum or limits.minimum != int(current.progressive.bet):
            raise ProfileError(
                f"progressive {limits.minimum}..{limits.maximum}: the progressive is a fixed "
                f"bet of {current.progressive.bet} (docs/rules.md §6)",
                code="progressive_is_fixed",
                amount=limits.minimum,
                stake=current.progressive.bet,
            )
        return profile
    if wager == "ante":
        return profile.model_copy(update={"ante_limits": limits})
    if wager == "21+3":
        side = current.twenty_one_plus_three.model_copy(update={"limits": limits})
        return profile.model_copy(update={"twenty_one_plus_three": side})
    if wager == "main":
        return profile.model_copy(update={"limits": limits})
    table = dict(current.limits)
    key = next(name for name in table if str(name) == wager)
    table[key] = limits
    return profile.model_copy(update={"limits": table})


def with_limits(profile: Profile, overrides: Overrides) -> Profile:
    """``profile`` with the operator's limits; a ``ProfileError`` names any impossible value."""
    known = profile.table.wagers
    changed = profile
    for wager, values in sorted(overrides.items()):
        if wager not in known:
            raise ProfileError(
                f"wager {wager!r}: {profile.name} has {', '.join(sorted(known))} (no other)",
                code="unknown_wager",
                wager=wager,
            )
        minimum = _whole_units("minimum", values.get("minimum"))
        maximum = _whole_units("maximum", values.get("maximum"))
        try:
            limits = Limits(minimum=minimum, maximum=maximum)
        except ValidationError as error:
            raise ProfileError(
                f"{wager} minimum {minimum}, maximum {maximum}: limits need 1 <= minimum <= maximum",
                code="limits_out_of_order",
                wager=wager,
                minimum=minimum,
                maximum=maximum,
            ) from error
        changed = _set(changed, wager, limits)
    try:
        return type(profile).model_validate(changed.model_dump())
    except ValidationError as error:
        raise ProfileError(f"limits {overrides!r}: {error.errors()[0]['msg']}") from error


def stored(
    previous: dict[str, Any] | None, wager: str, minimum: int, maximum: int, round_id: int
) -> dict[str, Any]:
    """What the table's ``limits`` column keeps after the operator sets one wager's limits
    during round ``round_id``: every override (``wagers``), and those the round under way
    opened with (``previous``), so a restart mid-round rebuilds it under its own limits."""
    kept = previous or {}
    wagers = dict(kept.get("wagers", {}))
    if kept.get("set_during_round") == round_id:
        opened_with = kept.get("previous", {})
    else:
        opened_with = dict(wagers)
    wagers[wager] = {"minimum": minimum, "maximum": maximum}
    return {"wagers": wagers, "previous": opened_with, "set_during_round": round_id}


def profiles_at_start(
    base: Profile, kept: dict[str, Any] | None, round_in_progress: int | None
) -> tuple[Profile, Profile | None]:
    """The profile of the round under way and the one waiting for the next round (or None)."""
    kept = kept or {}
    latest = with_limits(base, kept.get("wagers", {}))
    if round_in_progress is not None and kept.get("set_during_round") == round_in_progress:
        return with_limits(base, kept.get("previous", {})), latest
    return latest, None


def wagers_json(profile: Profile) -> dict[str, dict[str, int]]:
    """The limits a client shows: ``{wager: {"minimum": m, "maximum": M}}``."""
    return {
        name: {"minimum": value.minimum, "maximum": value.maximum}
        for name, value in profile.table.wagers.items()
    }
