// The operator's page: tables (open, close; their limits), players (their balance and day;
// credit, debit, each confirmed first), the ledger's balances and its zero-sum check, each
// shoe's commitment and, once it ends, its reveal. Today at a glance, the cashier's form and
// the sections' navigation are operator-office.js's.

import {
  announce, api, byId, clearNotice, h, labelCells, minorOf, moneyMinor, once, onSignOut, reportError, requireSession, setUpChrome,
  showNotice, t, tOr,
} from "./common.js";
import { confirmMovement } from "./money-confirm.js";
import { houseToday } from "./office-day.js";
import { profileOfTable, profilesByName, server } from "./server.js";
import { describeAllLimits, freeSeats, rulesTitle } from "./tables.js";

onSignOut(server.signOut);
setUpChrome();

/** One press of ``control``: ``request()`` once (common.js ``once``), then the page again. */
async function act(control, request, done) {
  clearNotice();
  try {
    if ((await once(control, request)) === undefined) return; // pressed again meanwhile
    showNotice(done, "ok");
  } catch (error) {
    reportError(error);
  }
  await loadAll();
}

async function loadTables() {
  const [answer, profiles] = await Promise.all([server.tables(), profilesByName(true)]);
  // The staff's "assign a dealer" list and today's figures follow the tables (issue 26, item 7).
  announce("tables", answer.tables);
  byId("operator-tables").querySelector("tbody").replaceChildren(
    ...answer.tables.map((table) => {
      const profile = profileOfTable(table, profiles);
      return h("tr", { dataset: { tableId: table.id } },
        h("th", { scope: "row" }, h("a", { href: `/table/${table.id}` }, table.name)),
        h("td", {}, tOr(`game.${table.game}`, table.game)),
        h("td", {}, table.profile),
        h("td", {}, describeAllLimits(profile), nextLimits(table), limitsForm(table, profile)),
        h("td", {}, table.is_open ? t("operator.is_open_seats", { free: freeSeats(table, profile), seats: profile?.seats ?? "?" }) : t("lobby.closed")),
        h("td", {},
          table.is_open
            ? h("button", { type: "button", class: "close-table", "aria-label": t("operator.close_table", { name: table.name }), onclick: (event) => act(event.currentTarget, () => server.setTableOpen(table.id, false), t("operator.table_closed", { name: table.name })) }, t("operator.close"))
            : h("button", { type: "button", class: "open-table", "aria-label": t("operator.open_table_named", { name: table.name }), onclick: (event) => act(event.currentTarget, () => server.setTableOpen(table.id, true), t("operator.table_opened", { name: table.name })) }, t("operator.open")),
        ),
      );
    }),
  );
  const select = byId("profile-select");
  if (!select.childElementCount) {
    select.replaceChildren(
      ...[...profiles.values()].filter((profile) => profile.playable).map((profile) =>
        h("option", { value: profile.name }, `${rulesTitle(profile)} (${profile.name})`),
      ),
    );
  }
}

function nextLimits(table) {
  if (!table.next_limits) return "";
  const text = Object.entries(table.next_limits)
    .map(([wager, limits]) => `${tOr(`wager.${wager}`, wager)} ${t("lobby.limits_range", { minimum: limits.minimum, maximum: limits.maximum })}`)
    .join(" · ");
  return h("div", { class: "next-limits" }, t("operator.next_limits", { limits: text }));
}

/** One wager's minimum and maximum (whole units) from the table's next round (docs/rules.md §6).
 * The progressive is a fixed bet: it is not offered. */
function limitsForm(table, profile) {
  const wagers = (profile?.wagers ?? []).filter((wager) => wager.name !== "progressive");
  if (!wagers.length) return "";
  const id = (part) => `limits-${table.id}-${part}`;
  const wholeUnits = (text) => (/^[0-9]+$/.test(text) ? Number(text) : null);
  const submit = (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const wager = form.wager.value;
    const [minimum, maximum] = [form.minimum, form.maximum].map((input) => wholeUnits(input.value.trim()));
    for (const [input, value] of [[form.minimum, minimum], [form.maximum, maximum]]) {
      if (value === null) {
        showNotice(t("operator.bad_limit", { value: input.value.trim() }), "error");
        input.focus();
        return;
      }
    }
    act(form, () => server.setLimits(table.id, wager, minimum, maximum),
      t("operator.limits_set", { name: table.name, wager: tOr(`wager.${wager}`, wager), minimum, maximum }));
  };
  const fill = (form) => {
    const chosen = wagers.find((wager) => wager.name === form.wager.value) ?? wagers[0];
    form.minimum.value = String(chosen.minimum);
    form.maximum.value = String(chosen.maximum);
  };
  const form = h(
    "form",
    { class: "row inline limits-form", onsubmit: submit, "aria-label": t("operator.limits_of", { name: table.name }) },
    h("label", { for: id("wager") }, t("operator.wager"), " ",
      h("select", { id: id("wager"), name: "wager", onchange: (event) => fill(event.currentTarget.form) },
        wagers.map((wager) => h("option", { value: wager.name }, tOr(`wager.${wager.name}`, wager.name))))),
    h("label", { for: id("minimum") }, t("operator.minimum"), " ",
      h("input", { id: id("minimum"), name: "minimum", inputmode: "numeric", autocomplete: "off", class: "narrow-input" })),
    h("label", { for: id("maximum") }, t("operator.maximum"), " ",
      h("input", { id: id("maximum"), name: "maximum", inputmode: "numeric", autocomplete: "off", class: "narrow-input" })),
    h("button", { type: "submit", class: "set-limits" }, t("operator.set_limits")),
  );
  fill(form);
  return form;
}

/** A credit or a debit of ``player`` (``direction``), confirmed first (money-confirm.js);
 * ``control`` is the form pressed, disabled until the movement is answered or cancelled. */
export function moveMoney(control, username, direction, text, balance, input) {
  const minor = minorOf(text);
  if (minor === null || minor === 0) {
    showNotice(t("operator.bad_amount", { value: text }), "error");
    input?.focus();
    return;
  }
  const send = () => server[direction](username, minor);
  const done = t(direction === "credit" ? "operator.credited" : "operator.debited", { name: username, amount: moneyMinor(minor) });
  act(control, () => confirmMovement({ username, direction, minor, balance }, send), done);
}

function adjustForm(player) {
  const id = `adjust-${player.id}`;
  const submit = (direction) => (event) => {
    event.preventDefault();
    const form = event.currentTarget.form ?? event.currentTarget;
    moveMoney(form, player.username, direction, form.amount.value.trim(), player.balance, form.amount);
  };
  // Enter in the amount credits (after the confirmation); Debit is its own button.
  return h(
    "form",
    { class: "row inline", onsubmit: submit("credit"), "aria-label": t("operator.adjust_of", { name: player.username }) },
    h("label", { for: id }, h("span", { class: "sr-only" }, t("operator.amount_of", { name: player.username })),
      h("input", { id, name: "amount", inputmode: "decimal", autocomplete: "off", class: "narrow-input", placeholder: "0.00" })),
    h("button", { type: "submit", class: "credit" }, t("operator.credit")),
    h("button", { type: "button", class: "debit", onclick: submit("debit") }, t("operator.debit")),
  );
}

const when = (seconds) => (seconds ? new Intl.DateTimeFormat(document.documentElement.lang, { timeStyle: "short" }).format(new Date(seconds * 1000)) : "–");
const signed = (minor) => (minor > 0 ? `+${moneyMinor(minor)}` : moneyMinor(minor));

async function loadPlayers() {
  const today = houseToday();
  const [answer, day, listed] = await Promise.all([
    server.players(), api("GET", `/operator/players/activity?date=${today}`), server.tables(),
  ]);
  const ofPlayer = new Map(day.players.map((player) => [player.username, player]));
  const seatedAt = new Map();
  for (const table of listed.tables) {
    for (const who of Object.values(table.seats ?? {})) if (who) seatedAt.set(who, [...(seatedAt.get(who) ?? []), table.name]);
  }
  byId("players-day").textContent = t("office.players_day", { date: today });
  byId("operator-players").querySelector("tbody").replaceChildren(
    ...answer.players.map((player) => {
      const figures = ofPlayer.get(player.username);
      return h("tr", { dataset: { player: player.username } },
        h("th", { scope: "row" }, player.username),
        h("td", { class: "amount balance" }, moneyMinor(player.balance)),
        h("td", { class: "seated-at" }, (seatedAt.get(player.username) ?? []).join(", ") || "–"),
        h("td", { class: "amount" }, figures ? figures.rounds : "–"),
        h("td", { class: "amount" }, figures ? moneyMinor(figures.wagered_minor) : "–"),
        h("td", { class: "amount", dataset: { sign: figures?.net_minor > 0 ? "gain" : figures?.net_minor < 0 ? "loss" : "even" } }, figures ? signed(figures.net_minor) : "–"),
        h("td", {}, when(figures?.last_movement_at)),
        h("td", {}, adjustForm(player)),
      );
    }),
  );
  byId("players-empty").hidden = answer.players.length > 0;
  announce("players", { players: answer.players, day: day.players });
}

function accountRow(name, balance, players, tables) {
  const colon = name.indexOf(":");
  const kind = name.slice(0, colon);
  const owner = name.slice(colon + 1);
  let who = owner;
  if (kind === "wallet") who = players.get(owner) ?? owner;
  if (owner.startsWith("table:")) who = tables.get(owner.slice(6)) ?? owner; // escrow, jackpot
  return h("tr", { dataset: { account: name } },
    h("td", {}, tOr(`account.${kind}`, kind)),
    h("td", {}, who),
    h("td", { class: "amount" }, moneyMinor(balance)),
  );
}

async function loadLedger() {
  const [audit, answer, listed] = await Promise.all([server.audit(), server.players(), server.tables()]);
  const players = new Map(answer.players.map((player) => [String(player.id), player.username]));
  const tables = new Map(listed.tables.map((table) => [String(table.id), table.name]));
  byId("operator-accounts").querySelector("tbody").replaceChildren(
    ...Object.entries(audit.accounts).map(([name, balance]) => accountRow(name, balance, players, tables)),
  );
  const problems = audit.problems ?? [];
  const sound = String(audit.sum) === "0" && problems.length === 0;
  const check = byId("zero-sum");
  check.dataset.ok = sound ? "true" : "false";
  check.replaceChildren(
    h("strong", {}, sound ? t("operator.zero_sum_ok") : t("operator.zero_sum_broken")),
    " ",
    h("span", { id: "ledger-sum" }, t("operator.sum_of_balances", { total: moneyMinor(audit.sum) })),
    problems.length ? h("ul", { class: "problems" }, problems.map((problem) => h("li", {}, problem))) : "",
  );
}

async function showReveal(shoe, cell) {
  try {
    const document = await server.shoe(shoe.id);
    const revealed = document.revealed;
    cell.replaceChildren(
      h("div", {}, t("operator.seed"), " ", h("code", { class: "hash" }, revealed.seed)),
      h("div", {}, t("operator.order_cards", { cards: revealed.order.length, decks: revealed.decks })),
    );
  } catch (error) {
    reportError(error);
  }
}

async function loadShoes() {
  const answer = await server.shoes();
  byId("operator-shoes").querySelector("tbody").replaceChildren(
    ...answer.shoes.map((shoe) => {
      const cell = h("td", {});
      if (shoe.is_revealed) {
        cell.append(h("button", { type: "button", class: "link", onclick: () => showReveal(shoe, cell) }, t("operator.show_reveal")));
      } else {
        cell.append(t("operator.not_revealed"));
      }
      return h("tr", { dataset: { shoe: shoe.id } },
        h("th", { scope: "row" }, `#${shoe.id}`),
        h("td", {}, shoe.table),
        h("td", {}, h("code", { class: "hash" }, shoe.commitment)),
        cell,
      );
    }),
  );
}

async function loadAll() {
  const results = await Promise.allSettled([loadTables(), loadPlayers(), loadLedger(), loadShoes()]);
  for (const table of document.querySelectorAll("table.stack-on-phone")) labelCells(table);
  const failed = results.find((result) => result.status === "rejected");
  if (failed) reportError(failed.reason);
}

byId("new-table-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const name = form.name.value.trim();
  // An operator's own profile file (its limits, say) wins over the shipped profile chosen.
  const profile = form.profile_file.value.trim() || form.profile.value;
  act(form, () => server.openTable(name, profile, form.shoe.value), t("operator.table_opened", { name }));
});
byId("refresh-ledger").addEventListener("click", () => loadLedger().catch(reportError));
// Today's figures come back now and then (operator-office.js): the tables and players with them.
document.addEventListener("croupier:refresh", () => {
  Promise.all([loadTables(), loadPlayers()]).then(() => labelCells(byId("operator-players")), reportError);
});

if (requireSession("operator")) loadAll();
