// Baccarat's roads (the bead plate and the big road) and, at a shoe game, how much of the shoe
// is dealt. The server lays the roads out from the recorded coups of the shoe in play
// (GET /tables/{id}/roads); this module only draws its cells.

import { api, byId, h, money, t, tOr } from "./common.js";

let roadsKey = null;

const WINNER_WORDS = { P: "wager.player", B: "wager.banker", T: "wager.tie" };

function cellGrid(kind, cells, rows, label) {
  const columns = Math.max(6, ...cells.map((cell) => cell.column + 1));
  return h("div", {
    class: `road ${kind}`, role: "img", "aria-label": label,
    dataset: { columns, rows },
  }, cells.map((cell) => {
    const marks = [cell.player_pair ? "pp" : "", cell.banker_pair ? "bp" : "", cell.natural ? "natural" : "", cell.banker_six ? "six" : ""].filter(Boolean).join(" ");
    const ties = (cell.ties ?? 0) + (cell.ties_before ?? 0);
    const words = [
      kind === "bead-plate"
        ? t("roads.coup", { number: cell.row + cell.column * rows + 1, winner: tOr(WINNER_WORDS[cell.winner], cell.winner), total: cell.total })
        : tOr(WINNER_WORDS[cell.winner], cell.winner),
      ties ? t("roads.ties", { ties }) : "",
      cell.player_pair ? t("roads.player_pair") : "",
      cell.banker_pair ? t("roads.banker_pair") : "",
    ];
    const element = h("span", { class: `bead winner-${cell.winner} ${marks}`, title: words.filter(Boolean).join(" · ") },
      kind === "bead-plate" ? tOr(`roads.letter.${cell.winner}`, cell.winner) : (ties ? String(ties) : ""));
    // Placed on the grid through the CSSOM (the page's CSP allows no style attribute).
    element.dataset.column = cell.column;
    element.dataset.row = cell.row;
    element.style.gridColumn = String(cell.column + 1);
    element.style.gridRow = String(cell.row + 1);
    return element;
  }));
}

function drawRoads(document) {
  const box = byId("roads");
  const roads = document?.roads;
  box.hidden = !roads;
  if (!roads) return;
  const counts = roads.counts;
  byId("roads-body").replaceChildren(
    h("p", { class: "road-counts" }, roads.coups
      ? t(roads.coups === 1 ? "roads.counts_one" : "roads.counts", { coups: money(roads.coups), player: money(counts.P), banker: money(counts.B), tie: money(counts.T) })
      : t("roads.empty")),
    h("h3", {}, t("roads.bead_plate")),
    h("div", { class: "road-scroll" }, cellGrid("bead-plate", roads.bead_plate, roads.rows, t("roads.bead_plate"))),
    h("h3", {}, t("roads.big_road")),
    h("div", { class: "road-scroll" }, cellGrid("big-road", roads.big_road, roads.rows, t("roads.big_road"))),
  );
  for (const scroller of byId("roads-body").querySelectorAll(".road-scroll")) scroller.scrollLeft = scroller.scrollWidth;
}

/** The roads of table ``tableId``'s shoe, fetched again when a coup has been added
 * (``shoe``/``round`` changed) and only once the felt has dealt the last coup out. */
export function drawShoeRoads(tableId, game, shoe, roundId, dealtOut) {
  const box = byId("roads");
  if (!box) return;
  if (game !== "baccarat") {
    box.hidden = true;
    return;
  }
  const key = `${shoe}|${roundId}`;
  if (!dealtOut || key === roadsKey) return;
  roadsKey = key;
  api("GET", `/tables/${tableId}/roads`).then(drawRoads).catch(() => { roadsKey = null; });
}

/** How much of the shoe is dealt (a count a real table shows: never the order). */
export function drawShoeMeter(progress, dealtOut) {
  const meter = byId("shoe-meter");
  if (!meter) return;
  meter.hidden = !progress;
  if (!progress || !dealtOut) return;
  const bar = byId("shoe-meter-bar");
  bar.max = progress.cards;
  bar.value = progress.dealt;
  byId("shoe-meter-text").textContent = `${t("shoe.dealt", { dealt: money(progress.dealt), cards: money(progress.cards) })}; ${t("shoe.cut_card", { cut: money(progress.cut_card_at) })}`;
}
