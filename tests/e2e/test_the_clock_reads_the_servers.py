"""The pages' timers run on the server's clock (a deadline is the server's time), which each
table page estimates from the Date headers of its answers: a header is in whole seconds and
the server renews it once a second, so a header up to two seconds behind the answer is no
skew. Taken as one (the first estimate did, beyond 1.5 s), a decision clock showed 18 s
where 15.1 were left (CI, the restart test). ``serverLeadOf``, in Chromium as the page runs
it, on answers as a server with each clock would give them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .conftest import Person

pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]

LEAD = """async (answers) => {
  const common = await import("/web/static/js/common.js");
  return common.serverLeadOf(answers);
}"""

NOW = 1_765_000_000_000  # ms since the epoch on the browser's clock; any moment serves


def answer(lead_ms: int, header_late_ms: int, sent: int = NOW, trip_ms: int = 40) -> dict[str, int]:
    """An answer sent at ``sent`` and back ``trip_ms`` later from a server whose clock leads
    by ``lead_ms``, made halfway, under a Date header ``header_late_ms`` older than the
    answer and cut to the second as the header is."""
    made_at_server = sent + trip_ms // 2 + lead_ms
    told = (made_at_server - header_late_ms) // 1000 * 1000
    return {"told": told, "sent": sent, "received": sent + trip_ms}


@pytest.mark.parametrize(
    ("answers", "lead"),
    [
        # No skew: a header cut to the second and renewed a second before: no lead.
        ([answer(0, 0)], (0, 0)),
        ([answer(0, 999)], (0, 0)),
        ([answer(0, 1_050)], (0, 0)),
        # The CI failure's kind: a late header (the server's loop held up) among good ones.
        ([answer(0, 200), answer(0, 3_000), answer(0, 600)], (0, 0)),
        # A server ten seconds ahead or behind: the pages count on its clock, never beyond
        # what its headers allow (ahead: at least 9 s; behind: at most the lag it shows).
        ([answer(10_000, 0), answer(10_000, 900)], (9_000, 10_000)),
        ([answer(-10_000, 0), answer(-10_000, 900)], (-10_000, -7_000)),
    ],
    ids=["fresh", "a-second-old", "renewed-late", "one-late-header", "ahead", "behind"],
)
def test_the_servers_lead_is_read_from_its_date_headers_without_inventing_one(
    person: Callable[..., Person], answers: list[dict[str, int]], lead: tuple[int, int]
) -> None:
    someone = person("clock-reader")
    someone.go("/sign-in")
    estimated = someone.page.evaluate(LEAD, answers)
    assert lead[0] <= estimated <= lead[1], f"lead {estimated} ms, not in {lead}"
