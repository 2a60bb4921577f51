"""The project documents itself: docs/rules.md holds every decision a profile cites, each
regulation's official citation, and no document links outside the repository.

A user's clone has nothing but the repository, so every citation in a profile's [sources]
(an article, or ``docs/rules.md#<anchor>`` for a decision) must be checkable inside it.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from croupier.errors import ProfileError
from croupier.rules import citations, load_profile, shipped_profile_names
from croupier.rules.citations import anchors_of, cited_anchors, decision_anchors

ROOT = Path(__file__).parents[2]
RULES = ROOT / "docs" / "rules.md"
RULES_TEXT = RULES.read_text(encoding="utf-8")
PERU = (ROOT / "src/croupier/rules/profiles/peru-2016.toml").read_text(encoding="utf-8")
SHIPPED = shipped_profile_names()
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

# A decision added beside an existing number takes a suffix letter (D-GEN-16a), so that two
# branches adding one at once do not take the same id.
DECISION_ID = re.compile(r"D-(BJ|BAC|CH|GEN)-[1-9][0-9]*[a-z]?")

# What each regulation's text prints about its own publication (the header of the page as the
# project keeps it): the doc's citation of it must carry these facts.
OFFICIAL_CITATIONS = {
    "regulations/blackjack-peru-2016.txt": ("El Peruano", "8 July 2016", "592317"),
    "regulations/blackjack-spain-1979.txt": (
        "Catálogo de Juegos",
        "9 October 1979",
        "20 November 1979",
        "eli/es/o/1979/10/09/(6)",
    ),
    "regulations/blackjack-veintiuno-real-casino-sheet.txt": ("not an official publication",),
    "regulations/dragon-six-baccarat-plus-peru-2016.txt": (
        "El Peruano",
        "20 January 2016",
        "575907",
    ),
    "regulations/casino-holdem-peru-2007.txt": ("El Peruano", "7 March 2007", "341107"),
}


# --- the anchors ----------------------------------------------------------------------------


def test_each_anchor_of_the_rules_document_is_defined_once() -> None:
    defined = Counter(re.findall(r'<a id="([^"]+)"></a>', RULES_TEXT))
    assert [anchor for anchor, count in defined.items() if count > 1] == []
    assert set(defined) == decision_anchors()


def test_every_decision_is_an_anchor_and_every_decision_anchor_is_written_out() -> None:
    """Each ``<a id="D-..">`` is followed by its bold title with the same identifier, and each
    bold decision title has its anchor: a reader following a citation lands on the decision."""
    decisions = {anchor for anchor in decision_anchors() if anchor.startswith("D-")}
    assert all(DECISION_ID.fullmatch(anchor) for anchor in decisions), sorted(decisions)
    titled = set(re.findall(r'<a id="(D-[^"]+)"></a>\n\*\*(D-[A-Z]+-[0-9]+[a-z]?) ·', RULES_TEXT))
    assert {anchor for anchor, title in titled if anchor == title} == decisions
    assert set(re.findall(r"^\*\*(D-[A-Z]+-[0-9]+[a-z]?) ·", RULES_TEXT, re.MULTILINE)) == decisions
    assert len(decisions) >= 50  # blackjack, baccarat, Casino Hold'em and every game


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_profile_cites_only_anchors_that_exist(name: str) -> None:
    profile = load_profile(name)
    cited = {anchor for text in profile.sources.values() for anchor in cited_anchors(text)}
    assert cited, f"{name} cites no decision of docs/rules.md"
    assert sorted(cited - decision_anchors()) == []


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_citation_is_an_article_or_a_decision_of_the_document(name: str) -> None:
    """No citation points outside the repository (the team's RULES.md is not shipped), and a
    citation that is not an article of the text cites a decision of docs/rules.md."""
    for rule, text in load_profile(name).sources.items():
        assert "RULES.md" not in text and "../" not in text, (rule, text)
        names_article = re.search(r"\b(Art\.|Arts\.|Item) ", text) is not None
        says_absent = text.startswith(("Not in", "docs/rules.md"))
        assert names_article or says_absent or cited_anchors(text), (rule, text)
        if "decision" in text.lower():
            assert cited_anchors(text), (rule, text)


def _scopes() -> dict[str, set[str]]:
    """Decision -> the profiles it is written for: those its title names in backticks, every
    blackjack profile where it says so, else its section's profiles (by its prefix)."""
    games = {name: load_profile(name).game for name in SHIPPED}
    by_prefix = {
        "BJ": {name for name, game in games.items() if game == "blackjack"},
        "BAC": {name for name, game in games.items() if game == "baccarat"},
        "CH": {name for name, game in games.items() if game == "casino-holdem"},
        "GEN": set(SHIPPED),
    }
    scopes = {}
    for anchor, scope in re.findall(
        r"^\*\*(D-[A-Z]+-[0-9]+[a-z]?) · [^*]+\*\*(?: \(([^)]*)\))?", RULES_TEXT, re.MULTILINE
    ):
        named = set(re.findall(r"`([a-z0-9-]+)`", scope))
        if scope.startswith("every blackjack profile") or not named:
            scopes[anchor] = by_prefix[anchor.split("-")[1]]
        else:
            scopes[anchor] = named
    return scopes


@pytest.mark.parametrize("name", SHIPPED)
def test_every_cited_decision_is_written_for_the_profile_that_cites_it(name: str) -> None:
    """A profile cites only decisions made for it: D-BJ-17 (Spain's dealer blackjack) cited
    by peru-2016 would be a wrong citation even though the anchor exists."""
    scopes = _scopes()
    assert set(scopes) == {a for a in decision_anchors() if a.startswith("D-")}
    for rule, text in load_profile(name).sources.items():
        for anchor in cited_anchors(text):
            assert name in scopes[anchor], (rule, anchor, sorted(scopes[anchor]))


def test_the_scope_of_a_decision_is_read_from_its_title() -> None:
    scopes = _scopes()
    assert scopes["D-BJ-17"] == {"spain-1979"}
    assert scopes["D-BJ-10"] == {"peru-2016", "veintiuno-real"}
    assert scopes["D-BJ-6"] == {"peru-2016", "spain-1979", "veintiuno-real"}
    assert scopes["D-CH-5"] == {"casino-holdem-standard"}
    assert scopes["D-BAC-1"] == {"dragon-six-peru-2016"}
    assert scopes["D-GEN-2"] == set(SHIPPED)


# --- the loader refuses a citation of a decision that is not there ---------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_citation_of_a_decision_the_document_lacks_is_refused(tmp_path: Path) -> None:
    assert "D-BJ-99" not in decision_anchors()
    text = PERU.replace("docs/rules.md#D-BJ-1:", "docs/rules.md#D-BJ-99:")
    assert text != PERU
    with pytest.raises(
        ProfileError, match=r"mine\.toml: .*sources\.decks: cites docs/rules\.md#D-BJ-99"
    ):
        load_profile(write(tmp_path, text))


def test_a_citation_with_an_empty_or_misspelt_anchor_is_refused(tmp_path: Path) -> None:
    for wrong in ("docs/rules.md#:", "docs/rules.md#d-bj-1:", "docs/rules.md#D-BJ-1x:"):
        text = PERU.replace("docs/rules.md#D-BJ-1:", wrong)
        with pytest.raises(ProfileError, match=r"sources\.decks: cites docs/rules\.md#"):
            load_profile(write(tmp_path, text))


def test_a_user_profile_citing_an_existing_decision_loads(tmp_path: Path) -> None:
    text = PERU.replace('name = "peru-2016"', 'name = "mine"').replace(
        "docs/rules.md#D-BJ-1: the excerpt names no number of decks; 6",
        "my reading of docs/rules.md#D-BJ-1, with docs/rules.md#D-GEN-4 for the shuffle",
    )
    profile = load_profile(write(tmp_path, text))
    assert cited_anchors(profile.source_of("decks")) == ("D-BJ-1", "D-GEN-4")


def test_anchors_are_read_from_empty_html_anchors_only() -> None:
    text = '<a id="D-X-1"></a>\n**D-X-1 · a**\n<a id="D-X-2">x</a> `D-X-3` <a id="D-X-4"></a>'
    assert anchors_of(text) == frozenset({"D-X-1", "D-X-4"})


def test_without_the_document_no_citation_can_be_checked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Outside a checkout the loader reads the copy the wheel packages (pyproject's
    force-include); with neither, it says so instead of passing every citation unread."""
    monkeypatch.setattr(citations, "__file__", str(tmp_path / "a" / "b" / "c" / "citations.py"))
    with pytest.raises(ProfileError, match=r"docs/rules\.md is missing"):
        citations._document_text()


# --- each regulation's official citation -------------------------------------------------


def _regulation_rows() -> dict[str, str]:
    """``regulation`` key -> the citation cell, from the table of the regulations."""
    rows = {}
    for line in RULES_TEXT.splitlines():
        found = re.match(r"\| `(regulations/[^`]+)` \| ([^|]+) \|", line)
        if found:
            rows[found.group(1)] = found.group(2)
    return rows


def test_every_regulation_named_by_a_profile_has_its_official_citation() -> None:
    rows = _regulation_rows()
    named = {load_profile(name).regulation for name in SHIPPED}
    assert named <= set(OFFICIAL_CITATIONS), "a new regulation needs its citation checked here"
    for regulation in sorted(named):
        assert regulation in rows, f"docs/rules.md has no citation of {regulation}"
        for fact in OFFICIAL_CITATIONS[regulation]:
            assert fact in rows[regulation], (regulation, fact)
        anchor = "reg-" + Path(regulation).stem
        assert anchor in decision_anchors(), anchor


# --- links stay inside the repository --------------------------------------------------------

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
AUTOLINK = re.compile(r"<([a-z][a-z0-9+.-]*:[^>\s]+)>")
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s)>\]]+")
LOCAL_SERVER = re.compile(r"(https?|wss?)://(127\.0\.0\.1|localhost)(:[0-9]+)?(/|$)")


def _prose(text: str) -> str:
    """The text without fenced code blocks (a list item's too, indented) or inline code
    (where nothing is a link)."""
    text = re.sub(r"^[ \t]*```.*?^[ \t]*```", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"`[^`\n]*`", "", text)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = re.sub(r"`", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def _anchors_of_document(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    headings = re.findall(r"^#{1,6} (.+)$", _prose_keeping_code_spans(text), re.MULTILINE)
    return {_slug(heading) for heading in headings} | set(anchors_of(text))


def _prose_keeping_code_spans(text: str) -> str:
    return re.sub(r"^[ \t]*```.*?^[ \t]*```", "", text, flags=re.MULTILINE | re.DOTALL)


def _links(path: Path) -> list[str]:
    prose = _prose(path.read_text(encoding="utf-8"))
    return LINK.findall(prose) + AUTOLINK.findall(prose)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_link_points_outside_the_repository(document: Path) -> None:
    """Relative links resolve to files inside the repository and their anchors exist; the only
    absolute addresses are those of the local server ``croupier serve`` starts."""
    prose = _prose(document.read_text(encoding="utf-8"))
    outside = [url for url in URL.findall(prose) if not LOCAL_SERVER.match(url)]
    assert outside == []
    for target in _links(document):
        if LOCAL_SERVER.match(target):
            continue
        assert "://" not in target and not target.startswith("mailto:"), target
        file_part, _, anchor = target.partition("#")
        resolved = (document.parent / file_part).resolve() if file_part else document
        assert resolved.is_relative_to(ROOT.resolve()), f"{document.name}: {target}"
        assert resolved.exists(), f"{document.name}: {target} does not exist"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors_of_document(resolved), f"{document.name}: {target}"


def test_the_link_check_catches_what_it_must(tmp_path: Path) -> None:
    """The checks above on a document made to fail: a link out of the repository, a missing
    file, a missing anchor, an external address."""
    bad = "[a](../shared/RULES.md) [b](docs/nowhere.md) [c](#no-such-heading) <https://example.org>"
    assert LINK.findall(_prose(bad)) == [
        "../shared/RULES.md",
        "docs/nowhere.md",
        "#no-such-heading",
    ]
    assert URL.findall(_prose(bad)) == ["https://example.org"]
    assert (ROOT / "../shared/RULES.md").resolve().is_relative_to(ROOT.resolve()) is False
    assert "no-such-heading" not in _anchors_of_document(RULES)
    assert LOCAL_SERVER.match("http://127.0.0.1:8000/") is not None
    assert URL.findall(_prose("see `http://x.org` here")) == []
    assert (
        _slug("5. Casino Hold'em, profiles `a-b` and `c`") == "5-casino-holdem-profiles-a-b-and-c"
    )
