"""Citations of croupier's rules document, ``docs/rules.md``.

A profile's ``[sources]`` cites an article of its regulation (``Art. 13``) or a decision of
the rules document by its anchor, written ``docs/rules.md#D-BJ-4``. Every anchor a citation
names must exist in the document, so that a reader can follow each setting to its reason;
a citation of a decision that is not there is refused on load.

>>> cited_anchors("Art. 13; docs/rules.md#D-BJ-4: turned after the players")
('D-BJ-4',)
>>> "D-BJ-4" in decision_anchors()
True
>>> verify_citation("Art. 13 and docs/rules.md#D-XX-99")
Traceback (most recent call last):
...
ValueError: cites docs/rules.md#D-XX-99, which docs/rules.md does not have
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path

from croupier.errors import ProfileError

DOCUMENT = "docs/rules.md"
"""The rules document, as citations name it (a path from the repository's root)."""

CITATION = re.compile(r"docs/rules\.md#([A-Za-z0-9_-]*)")
"""A citation of the document: its path and an anchor (an empty anchor is a wrong one)."""

ANCHOR = re.compile(r'<a id="([A-Za-z0-9_-]+)"></a>')
"""How the document marks a citable place: an empty HTML anchor before it."""


def _document_text() -> str:
    """The rules document: in a source checkout, ``docs/rules.md`` beside ``src/``; in an
    installed wheel, the copy packaged as ``croupier/rules/rules.md``."""
    checkout = Path(__file__).resolve().parents[3] / DOCUMENT
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8")
    packaged = resources.files("croupier.rules") / "rules.md"
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    raise ProfileError(f"{DOCUMENT} is missing: profile citations cannot be checked")


def anchors_of(text: str) -> frozenset[str]:
    """Every anchor a markdown text defines with ``<a id="..."></a>``."""
    return frozenset(ANCHOR.findall(text))


@cache
def decision_anchors() -> frozenset[str]:
    """The anchors of ``docs/rules.md``: each decision and each regulation's citation."""
    return anchors_of(_document_text())


def cited_anchors(citation: str) -> tuple[str, ...]:
    """The anchors of ``docs/rules.md`` that ``citation`` names, in order."""
    return tuple(CITATION.findall(citation))


def verify_citation(citation: str, anchors: frozenset[str] | None = None) -> None:
    """Raise ``ValueError`` naming the first anchor ``citation`` cites that does not exist."""
    known = decision_anchors() if anchors is None else anchors
    for anchor in cited_anchors(citation):
        if anchor not in known:
            raise ValueError(f"cites {DOCUMENT}#{anchor}, which {DOCUMENT} does not have")
