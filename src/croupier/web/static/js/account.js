import {
  ApiError, byId, h, labelCells, moneyMinor, onSignOut, reportError, requireSession, session, setUpChrome, t, tOr,
} from "./common.js";
import { shiftDays } from "./dates.js";
import { houseToday } from "./office-day.js";
import { seatTotals } from "./rounds.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

const PAGE = 20;

function when(seconds) {
  if (!seconds) return "–";
  return new Intl.DateTimeFormat(document.documentElement.lang, {
    dateStyle: "short",
    timeStyle: "medium",
  }).format(new Date(seconds * 1000));
}

/** Minor units with their sign: "+5.00", "-5.00", "0.00". */
function signed(minor) {
  return minor > 0 ? `+${moneyMinor(minor)}` : moneyMinor(minor);
}

function amountCell(minor, kind = null) {
  const sign = minor > 0 ? "gain" : minor < 0 ? "loss" : "even";
  return h("td", { class: kind ? `amount ${kind}` : "amount", dataset: { sign } }, signed(minor));
}

/** What moved the wallet for the round after its settlement (a payout correction, an upheld
 * dispute: issue 26): the net is the ledger's, staked and returned the settlement's, so the
 * difference is what was corrected, and staked, returned and corrected add up to the net. */
function correctedCell(totals, net) {
  if (!totals || net === null) return h("td", { class: "amount corrected" }, "–");
  const corrected = net - (totals.returned - totals.staked);
  return corrected ? amountCell(corrected, "corrected") : h("td", { class: "amount corrected" }, "–");
}

function roundLink(round) {
  return h("a", { href: `/recall/${round}` }, t("me.round_link", { round }));
}

function historyRow(round, me) {
  // A backer is listed at the box they backed: the box's own wagers are its owner's.
  const mine = new Set((round.seats ?? []).filter((seat) => seat.user === me.user && seat.role !== "backer").map((seat) => Number(seat.seat)));
  const finished = Array.isArray(round.events);
  const totals = finished ? seatTotals(round.events, mine) : null;
  for (const back of round.back_bets ?? []) {
    // spain-1979 (docs/rules.md#D-BJ-28): this player's back bets are stakes of theirs too.
    if (!totals || back.user !== me.user || back.payout_minor === null || back.payout_minor === undefined) continue;
    totals.staked += back.amount_minor;
    totals.returned += back.payout_minor;
  }
  // Back bets on this player's box: theirs to see, though the backer's money (D-BJ-28).
  const backed = (round.back_bets ?? []).filter((back) => back.user !== me.user && mine.has(Number(back.seat)));
  const backNote = backed.map((back) => h("span", { class: "hint back-bet-note" }, ` · ${t("me.backed_by", { backer: back.backer, amount: moneyMinor(back.amount_minor) })}`));
  return h(
    "tr",
    { dataset: { round: round.round } },
    h("th", { scope: "row" }, when(round.ended_at ?? round.started_at)),
    h("td", {}, `#${round.round}`),
    h("td", {}, h("span", {}, round.table ?? "–", round.game ? h("span", { class: "hint" }, ` · ${tOr(`game.${round.game}`, round.game)}`) : null, backNote)),
    h("td", {}, tOr(`status.${round.status}`, round.status ?? "")),
    h("td", { class: "amount staked" }, totals ? moneyMinor(totals.staked) : "–"),
    h("td", { class: "amount returned" }, totals ? moneyMinor(totals.returned) : "–"),
    correctedCell(totals, finished ? (round.net_minor ?? 0) : null),
    finished ? amountCell(round.net_minor ?? 0, "net") : h("td", { class: "amount net" }, "–"),
    h("td", { class: "row-action" }, finished
      ? h("span", {}, h("a", { href: `/recall/${round.round}`, "aria-label": t("me.round_link", { round: round.round }) }, t("me.recall")), " · ",
        h("a", { href: `/recall/${round.round}#dispute-round`, class: "dispute-link" }, t("dispute.this_round")))
      : ""),
  );
}

function statementRow(entry) {
  return h(
    "tr",
    { dataset: { entry: entry.entry } },
    h("th", { scope: "row" }, when(entry.at)),
    h("td", {}, h("div", {},
      h("span", {}, tOr(`ledger.${entry.kind}`, entry.kind), entry.round ? [" · ", roundLink(entry.round)] : null),
      // A correction says why it moved the wallet (issue 14, item 3).
      entry.correction ? h("div", { class: "hint correction-reason" }, t("correction.in_statement", { reason: entry.correction.reason })) : null)),
    amountCell(entry.amount),
    h("td", { class: "amount" }, moneyMinor(entry.balance_after)),
  );
}

/** A list shown a page at a time, newest first: asks one more than a page to know if there
 * are older ones. `load(limit, offset)` answers the items; `draw(items)` fills the table. */
function paged(prefix, load, draw) {
  let offset = 0;
  const newer = byId(`${prefix}-newer`);
  const older = byId(`${prefix}-older`);
  async function show() {
    const items = await load(PAGE + 1, offset);
    draw(items.slice(0, PAGE));
    newer.disabled = offset === 0;
    older.disabled = items.length <= PAGE;
    byId(`${prefix}-page`).textContent = t("me.page", { page: offset / PAGE + 1 });
  }
  newer.addEventListener("click", () => {
    offset = Math.max(0, offset - PAGE);
    show().catch(reportError);
  });
  older.addEventListener("click", () => {
    offset += PAGE;
    show().catch(reportError);
  });
  return show;
}

async function start() {
  const me = await server.me();
  byId("balance").textContent = moneyMinor(me.balance);
  const history = paged(
    "history",
    async (limit, offset) => (await server.myRounds(limit, offset)).rounds ?? [],
    (rounds) => {
      byId("history").querySelector("tbody").replaceChildren(...rounds.map((round) => historyRow(round, me)));
      labelCells(byId("history"));
      byId("history-empty").hidden = rounds.length > 0;
    },
  );
  const statement = paged(
    "statement",
    async (limit, offset) => (await server.myLedger(limit, offset)).entries ?? [],
    (entries) => {
      byId("statement").querySelector("tbody").replaceChildren(...entries.map(statementRow));
      labelCells(byId("statement"));
      byId("statement-empty").hidden = entries.length > 0;
    },
  );
  await Promise.all([history(), statement()]);
}

/** The activity statement (issue 27, item 6): the player's own wallet movements over the
 * gaming days chosen, as CSV, fetched with the session's token and handed to the browser. */
async function downloadStatement(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const [from, to] = [form.elements.from.value, form.elements.to.value];
  const response = await fetch(`/me/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&format=csv`, {
    headers: { Authorization: `Bearer ${session.token}` },
  });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  const link = h("a", { href: URL.createObjectURL(await response.blob()), download: `statement-${from}-${to}.csv` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

// The last 30 gaming days up to the browser's today on the house's gaming day.
byId("statement-to").value = houseToday();
byId("statement-from").value = shiftDays(houseToday(), -29);
byId("statement-download").addEventListener("submit", (event) => downloadStatement(event).catch(reportError));

if (requireSession()) start().catch(reportError);
