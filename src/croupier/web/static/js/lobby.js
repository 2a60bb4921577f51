import { byId, h, labelCells, moneyMinor, onSignOut, reportError, requireSession, session, setUpChrome, t, tOr } from "./common.js";
import { profileOfTable, profilesByName, server } from "./server.js";
import { describeAllLimits, describeLimits, rulesTitle } from "./tables.js";

onSignOut(server.signOut);
setUpChrome();

async function showBalance() {
  if (session.role !== "player") return;
  const me = await server.me();
  byId("balance").textContent = moneyMinor(me.balance);
}

/** A demo table is named after its profile: then its readable name is the rules' title. */
function nameOf(table) {
  return table.name === table.profile ? rulesTitle(table) : table.name;
}

/** Whether a round can be dealt, is under way, or waits: what a player deciding to sit asks. */
function roundText(table) {
  if (!table.is_open) return t("lobby.closed");
  const seated = new Set(Object.values(table.seats ?? {})).size;
  if (table.round?.status === "playing") return t("lobby.round_playing");
  const needed = table.min_players ?? 1;
  // A game dealt to one player only waits for someone to sit ("Needs 1 players" read wrong);
  // one that needs several says how many (Casino Hold'em, issue 13 item 4).
  if (seated === 0 && needed <= 1) return t("lobby.waits_for_a_player");
  if (seated < needed) return t("lobby.needs_players", { needed, seated });
  if (table.round?.bets > 0) return t("lobby.round_betting");
  return t("lobby.round_waiting");
}

function playersCell(table) {
  const names = Object.entries(table.seats ?? {})
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([, name]) => name);
  const seats = table.seat_count ?? 0;
  const free = seats - Object.keys(table.seats ?? {}).length;
  return h(
    "td",
    { class: "players" },
    h(
      "div",
      {},
      h("span", {}, names.length ? names.join(", ") : t("lobby.nobody")),
      " ",
      h("span", { class: "hint" }, t("lobby.seats_free", { free, seats })),
    ),
  );
}

function row(table, profile) {
  const name = nameOf(table);
  return h(
    "tr",
    { dataset: { tableId: table.id, game: table.game } },
    h(
      "th",
      { scope: "row" },
      h(
        "div",
        {},
        h("span", { class: "table-name" }, name),
        name === rulesTitle(table) ? null : h("span", { class: "hint table-rules" }, rulesTitle(table)),
      ),
    ),
    h("td", {}, tOr(`game.${table.game}`, table.game)),
    h("td", { class: "limits", title: describeAllLimits(profile) }, describeLimits(profile)),
    playersCell(table),
    h("td", { class: "round-state", dataset: { status: table.round?.status ?? "" } }, roundText(table)),
    h(
      "td",
      { class: "row-action" },
      table.is_open
        ? h("a", { class: "button", href: `/table/${table.id}`, "aria-label": t("lobby.open_table", { name }) }, t("lobby.play"))
        : "",
    ),
  );
}

async function showTables() {
  const [answer, profiles] = await Promise.all([server.tables(), profilesByName(true)]);
  const body = byId("lobby-tables").querySelector("tbody");
  body.replaceChildren(...answer.tables.map((table) => row(table, profileOfTable(table, profiles))));
  labelCells(byId("lobby-tables"));
  byId("lobby-empty").hidden = answer.tables.length > 0;
}

const LOBBY_REFRESH_MS = 10_000;

if (requireSession()) {
  Promise.all([showTables(), showBalance()]).catch(reportError);
  // Seats fill and free up, and rounds start, while the lobby is open.
  setInterval(() => showTables().catch(reportError), LOBBY_REFRESH_MS);
}
