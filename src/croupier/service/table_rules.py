"""A table's rules as the database keeps them: never read from a file after the table opens.

When a table opens, the validated profile is stored on its row as canonical JSON (the text
``engines.rules_version`` hashes) beside that version. Start-up, recovery and recall rebuild
the profile from this text alone, so an operator's own profile file may be moved, edited or
deleted without changing, or losing, any table opened from it (issue 10, item 1).

>>> from croupier.rules.registry import load_profile
>>> profile = load_profile("peru-2016")
>>> text = document(profile)
>>> from_document(profile.game, text, version_of(profile.name, text)) == profile
True
"""

from __future__ import annotations

import hashlib
import json

from pydantic import ValidationError
from sqlalchemy.orm import Session

from croupier.errors import ProfileError
from croupier.rules.base import Profile
from croupier.rules.registry import PROFILE_MODELS
from croupier.service.models import RuleSet


def document(profile: Profile) -> str:
    """The profile as canonical JSON: every rule, keys sorted, the same text whatever the
    order of the TOML it came from."""
    return json.dumps(profile.model_dump(mode="json"), sort_keys=True)


def version_of(name: str, text: str) -> str:
    """``name@`` and the first 16 hex digits of the SHA-256 of ``text``: the rules version."""
    return f"{name}@{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def from_document(game: str, text: str, rules_version: str) -> Profile:
    """The ``game`` profile stored as ``text``; a ``ProfileError`` if the text does not hash
    to the version stored beside it (an edited row) or no longer validates."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProfileError(f"stored rules {rules_version}: not JSON: {error}") from None
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str) or version_of(name, text) != rules_version:
        raise ProfileError(f"stored rules {rules_version}: the text does not match its hash")
    model = PROFILE_MODELS.get(game)
    if model is None:
        raise ProfileError(f"stored rules {rules_version}: unknown game {game!r}")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ProfileError(f"stored rules {rules_version}: {error.errors()[0]['msg']}") from None


def rules_of(session: Session, rules_version: str) -> Profile:
    """The rules a shoe or round recorded as ``rules_version``, from the database alone."""
    found = session.get(RuleSet, rules_version)
    if found is None:
        raise ProfileError(f"no rules are stored as {rules_version}")
    return from_document(found.game, found.document, found.rules_version)
