// The lobby: a tile per table as a casino's lobby shows it (the game, its limits, the seats
// taken, the last results, the players there now), filtered by game and by the lowest bet,
// read again every few seconds so the counts follow the tables without a reload.
// Everything comes from GET /tables (its ``recent``: each table's last rounds' outcomes).

import { byId, h, money, moneyMinor, onSignOut, reportError, requireSession, session, setUpChrome, t, tOr } from "./common.js";
import { profileOfTable, profilesByName, server } from "./server.js";
import { describeAllLimits, describeLimits, mainLimits, rulesTitle } from "./tables.js";

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

function playersAt(table) {
  return new Set(Object.values(table.seats ?? {})).size;
}

/** One of the table's last results, as the felt showed its end: baccarat's winner as a bead
 * of its road, the dealer's blackjack total (or bust, or blackjack), Casino Hold'em's dealer
 * hand (or that it did not qualify). */
function resultChip(table, result) {
  if (result.winner) {
    const letter = { player: "P", banker: "B", tie: "T" }[result.winner] ?? result.winner;
    const words = `${tOr(`baccarat.won.${result.winner}`, result.winner)} (${result.player}–${result.banker})`;
    return h("li", { class: `result-chip bead winner-${letter}`, title: words, "aria-label": words }, tOr(`roads.letter.${letter}`, letter));
  }
  if (table.game === "casino-holdem") {
    const hand = tOr(`poker.${result.dealer}`, String(result.dealer ?? "–"));
    const text = result.qualifies === false ? t("lobby.result_no_qualify") : hand;
    return h("li", { class: "result-chip", dataset: { qualifies: String(result.qualifies !== false) }, title: text }, text);
  }
  const total = Number(result.dealer);
  let text = String(result.dealer ?? "–");
  let kind = "total";
  if (total === 21 && result.cards === 2) [text, kind] = [t("lobby.result_blackjack"), "blackjack"];
  else if (total > 21) [text, kind] = [t("lobby.result_bust"), "bust"];
  const words = kind === "blackjack" ? t("lobby.result_dealer_blackjack") : t("lobby.result_dealer", { total: result.dealer });
  return h("li", { class: `result-chip ${kind}`, title: words, "aria-label": words }, text);
}

function lastResults(table) {
  const recent = table.recent ?? [];
  if (!recent.length) return h("p", { class: "hint last-results-none" }, t("lobby.no_results_yet"));
  // Oldest first, as a road reads, the newest at the right.
  return h("ol", { class: `last-results ${table.game}`, "aria-label": t("lobby.last_results") },
    [...recent].reverse().map((result) => resultChip(table, result)));
}

function seatDots(table) {
  const seats = table.seat_count ?? 0;
  const taken = new Set(Object.keys(table.seats ?? {}).map(Number));
  const dots = [];
  for (let seat = 1; seat <= seats; seat += 1) dots.push(h("span", { class: taken.has(seat) ? "dot taken" : "dot" }));
  return h("span", { class: "seat-dots", "aria-hidden": "true" }, dots);
}

function tile(table, profile) {
  const name = nameOf(table);
  const seats = table.seat_count ?? 0;
  const free = seats - Object.keys(table.seats ?? {}).length;
  const players = playersAt(table);
  return h(
    "li",
    { class: `tile game-${table.game}`, dataset: { tableId: table.id, game: table.game, minimum: mainLimits(profile).minimum ?? "" } },
    h("div", { class: "tile-head" },
      h("span", { class: "tile-game" }, tOr(`game.${table.game}`, table.game)),
      h("span", { class: "tile-live", dataset: { players } }, t(players === 1 ? "lobby.playing_one" : "lobby.playing", { count: players }))),
    h("h2", { class: "table-name" }, name),
    name === rulesTitle(table) ? null : h("p", { class: "hint table-rules" }, rulesTitle(table)),
    h("p", { class: "limits", title: describeAllLimits(profile) }, h("span", { class: "hint" }, t("lobby.limits")), " ", describeLimits(profile)),
    h("p", { class: "players" }, seatDots(table), " ", h("span", {}, t("lobby.seats_free", { free, seats }))),
    lastResults(table),
    h("div", { class: "tile-foot" },
      h("span", { class: "round-state", dataset: { status: table.round?.status ?? "" } }, roundText(table)),
      table.is_open
        ? h("a", { class: "button", href: `/table/${table.id}`, "aria-label": t("lobby.open_table", { name }) }, t("lobby.play"))
        : ""),
  );
}

/** The filters as chosen: a game, and the highest minimum bet wanted. */
function fits(table, profile) {
  const game = byId("filter-game").value;
  const most = byId("filter-minimum").value;
  if (game && table.game !== game) return false;
  const minimum = mainLimits(profile).minimum;
  return !most || minimum === null || Number(minimum) <= Number(most);
}

let lastAnswer = null;
let lastProfiles = null;

function drawTiles() {
  if (!lastAnswer) return;
  const tables = lastAnswer.tables;
  const shown = tables.filter((table) => fits(table, profileOfTable(table, lastProfiles)));
  byId("lobby-tiles").replaceChildren(...shown.map((table) => tile(table, profileOfTable(table, lastProfiles))));
  byId("lobby-empty").hidden = tables.length > 0;
  byId("lobby-none-fit").hidden = tables.length === 0 || shown.length > 0;
  const players = new Set(tables.flatMap((table) => Object.values(table.seats ?? {}))).size;
  byId("live-count").textContent = t(players === 1 ? "lobby.live_count_one" : "lobby.live_count", { players: money(players), tables: money(tables.length) });
}

async function showTables() {
  const [answer, profiles] = await Promise.all([server.tables(), profilesByName(true)]);
  [lastAnswer, lastProfiles] = [answer, profiles];
  drawTiles();
}

const LOBBY_REFRESH_MS = 3_000;

for (const select of document.querySelectorAll("#lobby-filters select")) select.addEventListener("change", drawTiles);
byId("lobby-filters").addEventListener("submit", (event) => event.preventDefault());

if (requireSession()) {
  Promise.all([showTables(), showBalance()]).catch(reportError);
  // Seats fill and free up, rounds start and end, while the lobby is open.
  setInterval(() => showTables().catch(reportError), LOBBY_REFRESH_MS);
}
