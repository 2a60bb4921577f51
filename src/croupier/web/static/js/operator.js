// The operator's page: tables (open, close, limits), players (credit, debit), the ledger's
// balances and its zero-sum check, each shoe's commitment and, once it ends, its reveal.

import {
  byId, clearNotice, h, money, onSignOut, reportError, requireSession, setUpChrome, showNotice, t, tOr,
} from "./common.js";
import { server } from "./server.js";
import { describeLimits, limitsOf } from "./tables.js";

onSignOut(server.signOut);
setUpChrome();

function listOf(answer, key) {
  return Array.isArray(answer) ? answer : (answer?.[key] ?? []);
}

async function act(request, done) {
  clearNotice();
  try {
    await request();
    showNotice(done, "ok");
    await loadAll();
  } catch (error) {
    reportError(error);
  }
}

function limitsForm(table) {
  const { minimum, maximum } = limitsOf(table);
  const id = `limits-${table.id}`;
  return h(
    "form",
    {
      class: "row inline", "aria-label": t("operator.limits_of", { name: table.name }),
      onsubmit: (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        act(() => server.setLimits(table.id, Number(form.minimum.value), Number(form.maximum.value)), t("operator.limits_saved", { name: table.name }));
      },
    },
    h("label", { for: `${id}-min` }, h("span", { class: "sr-only" }, t("operator.minimum")),
      h("input", { id: `${id}-min`, name: "minimum", type: "number", min: 1, step: 1, value: minimum ?? "", class: "narrow-input" })),
    h("label", { for: `${id}-max` }, h("span", { class: "sr-only" }, t("operator.maximum")),
      h("input", { id: `${id}-max`, name: "maximum", type: "number", min: 1, step: 1, value: maximum ?? "", class: "narrow-input" })),
    h("button", { type: "submit" }, t("operator.set_limits")),
  );
}

async function loadTables() {
  const tables = listOf(await server.tables(), "tables");
  byId("operator-tables").querySelector("tbody").replaceChildren(
    ...tables.map((table) =>
      h("tr", { dataset: { tableId: table.id } },
        h("th", { scope: "row" }, h("a", { href: `/table/${table.id}` }, table.name)),
        h("td", {}, tOr(`game.${table.game}`, table.game)),
        h("td", {}, table.profile),
        h("td", {}, describeLimits(table)),
        h("td", {}, table.is_open === false ? t("lobby.closed") : t("operator.is_open")),
        h("td", {},
          h("div", { class: "row wrap" },
            table.is_open === false
              ? h("button", { type: "button", onclick: () => act(() => server.setTableOpen(table.id, true), t("operator.table_opened", { name: table.name })) }, t("operator.open"))
              : h("button", { type: "button", onclick: () => act(() => server.setTableOpen(table.id, false), t("operator.table_closed", { name: table.name })) }, t("operator.close")),
            limitsForm(table),
          ),
        ),
      ),
    ),
  );
}

async function loadProfiles() {
  const select = byId("profile-select");
  if (select.childElementCount) return;
  const profiles = listOf(await server.profiles(), "profiles");
  select.replaceChildren(
    ...profiles.map((profile) => {
      const name = typeof profile === "string" ? profile : profile.name;
      const game = typeof profile === "string" ? "" : ` (${tOr(`game.${profile.game}`, profile.game)})`;
      return h("option", { value: name }, `${name}${game}`);
    }),
  );
}

function adjustForm(player) {
  const id = `adjust-${player.id}`;
  const submit = (sign) => (event) => {
    const form = event.currentTarget.form;
    const text = form.amount.value.trim();
    if (!/^\d+$/.test(text) || Number(text) === 0) {
      showNotice(t("table.whole_amount", { value: text }), "error");
      return;
    }
    const amount = sign * Number(text);
    act(() => server.adjust(player.id, amount), t(sign > 0 ? "operator.credited" : "operator.debited", { name: player.username, amount: money(text) }));
  };
  return h(
    "form",
    { class: "row inline", onsubmit: (event) => event.preventDefault(), "aria-label": t("operator.adjust_of", { name: player.username }) },
    h("label", { for: id }, h("span", { class: "sr-only" }, t("operator.amount")),
      h("input", { id, name: "amount", type: "number", min: 1, step: 1, inputmode: "numeric", class: "narrow-input" })),
    h("button", { type: "button", class: "credit", onclick: submit(1) }, t("operator.credit")),
    h("button", { type: "button", class: "debit", onclick: submit(-1) }, t("operator.debit")),
  );
}

async function loadPlayers() {
  const players = listOf(await server.players(), "players");
  byId("operator-players").querySelector("tbody").replaceChildren(
    ...players.map((player) =>
      h("tr", { dataset: { player: player.username } },
        h("th", { scope: "row" }, player.username),
        h("td", { class: "amount" }, money(player.balance)),
        h("td", {}, adjustForm(player)),
      ),
    ),
  );
}

async function loadLedger() {
  const ledger = await server.ledger();
  const accounts = listOf(ledger, "accounts");
  byId("operator-accounts").querySelector("tbody").replaceChildren(
    ...accounts.map((account) =>
      h("tr", {},
        h("td", {}, tOr(`account.${account.kind}`, account.kind)),
        h("td", {}, account.owner_name ?? account.owner ?? ""),
        h("td", { class: "amount" }, money(account.balance)),
      ),
    ),
  );
  const problems = ledger.problems ?? [];
  const total = ledger.total ?? accounts.reduce((sum, account) => sum + BigInt(account.balance), 0n);
  const check = byId("zero-sum");
  const sound = String(total) === "0" && problems.length === 0;
  check.dataset.ok = sound ? "true" : "false";
  check.replaceChildren(
    h("strong", {}, sound ? t("operator.zero_sum_ok") : t("operator.zero_sum_broken")),
    " ",
    t("operator.sum_of_balances", { total: money(String(total)) }),
    ...problems.map((problem) => h("span", { class: "problem" }, ` ${problem}`)),
  );
}

async function loadShoes() {
  const shoes = listOf(await server.shoes(), "shoes");
  byId("operator-shoes").querySelector("tbody").replaceChildren(
    ...shoes.map((shoe) =>
      h("tr", {},
        h("th", { scope: "row" }, `#${shoe.id}`),
        h("td", {}, shoe.table_name ?? shoe.table ?? ""),
        h("td", {}, h("code", { class: "hash" }, shoe.commitment)),
        h("td", {},
          shoe.revealed || shoe.is_revealed
            ? h("a", { href: `/shoes/${shoe.id}/export` }, t("operator.revealed_export"))
            : t("operator.not_revealed")),
      ),
    ),
  );
}

async function loadAll() {
  const results = await Promise.allSettled([loadTables(), loadPlayers(), loadLedger(), loadShoes(), loadProfiles()]);
  const failed = results.find((result) => result.status === "rejected");
  if (failed) reportError(failed.reason);
}

byId("new-table-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  act(() => server.openTable(form.name.value.trim(), form.profile.value), t("operator.table_opened", { name: form.name.value.trim() }));
});
byId("refresh-ledger").addEventListener("click", () => loadLedger().catch(reportError));

if (requireSession("operator")) loadAll();
