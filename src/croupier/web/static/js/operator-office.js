// The back office's frame (issue 27, item 6): the sections' navigation (a link per section,
// the one in view marked), today at a glance (tables open, players seated, handle, win, hold
// against theoretical, and what waits for the operator: a flagged table, an approval...), and
// the cashier's form, each movement confirmed first (money-confirm.js).

import { api, byId, follow, h, moneyMinor, reportError, session, showNotice, t } from "./common.js";
import { approvals, corrections, disputes } from "./dispute-api.js";
import { houseToday } from "./office-day.js";
import { moveMoney } from "./operator.js";

const REFRESH_MS = 30_000;
const percent = new Intl.NumberFormat(document.documentElement.lang, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const hold = (value) => (value === null || value === undefined ? "–" : percent.format(value));

// --- the sections' navigation -------------------------------------------------------------
const links = [...document.querySelectorAll("#office-nav a")];

function markCurrent(id) {
  for (const link of links) {
    if (link.hash === `#${id}`) link.setAttribute("aria-current", "location");
    else link.removeAttribute("aria-current");
  }
}

for (const link of links) {
  // The section reached from its link takes the focus: the keyboard goes on from there.
  link.addEventListener("click", () => {
    markCurrent(link.hash.slice(1));
    requestAnimationFrame(() => document.querySelector(link.hash)?.focus({ preventScroll: true }));
  });
}

const inView = new Map();
const watcher = new IntersectionObserver((entries) => {
  for (const entry of entries) inView.set(entry.target.id, entry.isIntersecting);
  const first = links.map((link) => link.hash.slice(1)).find((id) => inView.get(id));
  if (first) markCurrent(first);
}, { rootMargin: "-15% 0px -70% 0px" });
for (const section of document.querySelectorAll(".office-section")) watcher.observe(section);

// --- today at a glance --------------------------------------------------------------------
let tables = [];
let players = [];

function alertItem(kind, text, href) {
  return h("li", { dataset: { alert: kind } }, h("a", { href }, text));
}

async function drawGlance() {
  const today = houseToday();
  const [report, waiting, filed, proposed, audit] = await Promise.all([
    api("GET", `/operator/reports/daily?date=${today}`),
    approvals.ofOperator(),
    disputes.ofOperator(),
    corrections.ofOperator(),
    api("GET", "/operator/audit"),
  ]);
  byId("today-date").textContent = today;
  const open = tables.filter((table) => table.is_open);
  const seated = new Set(open.flatMap((table) => Object.values(table.seats ?? {}).filter(Boolean)));
  const totals = report.totals;
  byId("glance-tables").textContent = t("office.of_tables", { open: open.length, all: tables.length });
  byId("glance-seated").textContent = String(seated.size);
  byId("glance-handle").textContent = moneyMinor(totals.handle_minor);
  byId("glance-win").textContent = moneyMinor(totals.win_minor);
  byId("glance-hold").textContent = t("office.hold_pair", { hold: hold(totals.hold), theoretical: hold(totals.theoretical_hold) });
  const alerts = [];
  for (const table of report.tables.filter((line) => line.flagged)) {
    alerts.push(alertItem("flagged", t("office.alert_flagged", { name: table.name, hold: hold(table.hold), theoretical: hold(table.theoretical_hold) }), "#reports"));
  }
  const awaiting = waiting.approvals.filter((item) => item.status === "awaiting").length;
  if (awaiting) alerts.push(alertItem("approvals", t("office.alert_approvals", { count: awaiting }), "#approvals-heading"));
  const openDisputes = filed.disputes.filter((item) => item.status === "open").length;
  if (openDisputes) alerts.push(alertItem("disputes", t("office.alert_disputes", { count: openDisputes }), "#op-disputes"));
  const waitingCorrections = proposed.corrections.filter((item) => item.status === "proposed").length;
  if (waitingCorrections) alerts.push(alertItem("corrections", t("office.alert_corrections", { count: waitingCorrections }), "#op-corrections"));
  if (String(audit.sum) !== "0" || (audit.problems ?? []).length) alerts.push(alertItem("ledger", t("operator.zero_sum_broken"), "#op-ledger"));
  if (report.pending_analysis.length) alerts.push(alertItem("analysis", t("report.pending", { profiles: report.pending_analysis.join(", ") }), "#reports"));
  byId("alerts").replaceChildren(...(alerts.length ? alerts : [h("li", { dataset: { alert: "none" } }, t("office.no_alerts"))]));
}

const redraw = () => drawGlance().catch(reportError);
follow("tables", (known) => {
  tables = known;
  redraw();
});

// --- the cashier --------------------------------------------------------------------------
follow("players", (detail) => {
  players = detail.players;
  byId("cashier-players").replaceChildren(...players.map((player) => h("option", { value: player.username })));
  const cashier = detail.day.reduce((sum, player) => sum + player.cashier_minor, 0);
  byId("cashier-day").textContent = t("office.cashier_day", { amount: moneyMinor(cashier) });
});

byId("cashier-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const username = form.username.value.trim();
  const player = players.find((someone) => someone.username === username);
  if (!player) {
    showNotice(t("office.unknown_player", { name: username }), "error");
    form.username.focus();
    return;
  }
  moveMoney(form, username, form.direction.value, form.amount.value.trim(), player.balance, form.amount);
});

// Today's figures come back every half minute while the page is in view (another tab may
// have opened a table, a player may have sat down).
if (session.token && session.role === "operator") {
  setInterval(() => {
    if (document.visibilityState === "visible") document.dispatchEvent(new CustomEvent("croupier:refresh"));
  }, REFRESH_MS);
}
