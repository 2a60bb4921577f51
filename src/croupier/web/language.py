"""The pages' language: English or Spanish, chosen by the browser's ``Accept-Language``.

Every string a page shows comes from a catalogue in ``i18n/`` (one flat JSON object per
language, the same keys in each). The regulations are Spanish; the code and the API speak
English, so both catalogues are complete and a test keeps them so.

>>> negotiate("es-PE,es;q=0.9,en;q=0.8")
'es'
>>> negotiate("fr-FR, en;q=0.5")
'en'
>>> negotiate("en;q=0.2, es;q=0.7")
'es'
>>> negotiate(None)
'en'
>>> Catalogue.load("es").text("auth.sign_in")
'Entrar'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "es")
DEFAULT_LANGUAGE = "en"

_RANGE = re.compile(
    r"^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$"
)
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def negotiate(accept_language: str | None) -> str:
    """The supported language the browser prefers most (RFC 9110 §12.5.4 weights);
    English when it names none we have."""
    if not accept_language:
        return DEFAULT_LANGUAGE
    choices: list[tuple[float, int, str]] = []
    for order, part in enumerate(accept_language.split(",")):
        match = _RANGE.match(part)
        if match is None:
            continue
        tag, weight = match.group(1).lower(), match.group(2)
        try:
            quality = 1.0 if weight is None else float(weight)
        except ValueError:
            continue
        primary = tag.split("-")[0]
        if quality <= 0:
            continue
        if primary in LANGUAGES:
            choices.append((quality, -order, primary))
        elif primary == "*":
            choices.append((quality, -order, DEFAULT_LANGUAGE))
    if not choices:
        return DEFAULT_LANGUAGE
    return max(choices)[2]


@dataclass(frozen=True)
class Catalogue:
    """One language's messages: ``key -> text`` with ``{name}`` placeholders."""

    language: str
    messages: dict[str, str]

    @staticmethod
    def load(language: str) -> Catalogue:
        return _load(language if language in LANGUAGES else DEFAULT_LANGUAGE)

    def text(self, key: str, **values: Any) -> str:
        """The message ``key``; a missing key raises ``KeyError`` (a test finds it first)."""
        message = self.messages[key]
        if not values:
            return message
        return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), message)

    def as_json(self) -> str:
        """The catalogue for the page's scripts, safe inside ``<script type=application/json>``."""
        return (
            json.dumps(self.messages, ensure_ascii=False, sort_keys=True)
            .replace("<", "\\u003c")
            .replace(">", "\\u003e")
            .replace("&", "\\u0026")
        )


@cache
def _load(language: str) -> Catalogue:
    text = resources.files("croupier.web").joinpath("i18n", f"{language}.json").read_text("utf-8")
    messages = json.loads(text)
    if not isinstance(messages, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in messages.items()
    ):
        raise ValueError(f"catalogue {language}.json must map text keys to text")
    return Catalogue(language, messages)
