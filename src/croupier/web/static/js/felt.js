// The felt: the dealer (or Punto and Banca, or the board) above, the seats below, each with
// its player, its bets as chips, its cards drawn as cards, its totals and its results.
// Shared by the live table and the recall page; it reads the engine's view of a round.

import { h, money, t, tOr } from "./common.js";
import { cardRow } from "./cards.js";

const TOP_LEVEL_WAGERS = ["ante", "bet", "progressive", "insurance"];

function hiddenCount(part) {
  if (!part) return 0;
  if (typeof part.hidden === "number") return part.hidden;
  if (typeof part.hidden_cards === "number") return part.hidden_cards;
  return part.hole_card_hidden ? 1 : 0;
}

function chip(amount, label) {
  return h(
    "span",
    { class: "chip-stack", title: label },
    h("span", { class: "chip", "aria-hidden": "true" }, money(amount)),
    h("span", { class: "chip-label" }, `${label} ${money(amount)}`),
  );
}

function total(value) {
  if (value === null || value === undefined || value === "") return null;
  return h("span", { class: "total" }, t("table.total", { total: value }));
}

function resultBadge(result, payout) {
  if (!result) return null;
  return h(
    "span",
    { class: `result result-${result}` },
    tOr(`result.${result}`, result),
    payout !== null && payout !== undefined ? ` · ${t("table.pays", { amount: money(payout) })}` : "",
  );
}

function dealerArea(view) {
  const parts = [];
  if (view.player && view.banker) {
    // Baccarat, Art. 10: Punto and Banca, each a hand of two or three cards.
    for (const side of ["player", "banker"]) {
      const hand = view[side];
      const won = view.winner === side;
      parts.push(
        h(
          "div",
          { class: `side ${won ? "winner" : ""}`, dataset: { side } },
          h("h2", { class: "side-name" }, t(`baccarat.${side}`)),
          cardRow(hand.cards ?? [], hiddenCount(hand), t(`baccarat.${side}`)),
          hand.cards && hand.cards.length ? total(hand.total) : null,
        ),
      );
    }
    if (view.winner) {
      parts.push(h("p", { class: "winner-line" }, tOr(`baccarat.won.${view.winner}`, view.winner)));
    }
    return parts;
  }
  if (view.dealer) {
    const dealer = view.dealer;
    const cards = Array.isArray(dealer) ? dealer : (dealer.cards ?? []);
    parts.push(
      h(
        "div",
        { class: "side dealer", dataset: { side: "dealer" } },
        h("h2", { class: "side-name" }, t("table.dealer")),
        cardRow(cards, hiddenCount(dealer), t("table.dealer")),
        cards.length ? total(dealer.total) : null,
        dealer.hand ? h("span", { class: "hand-name" }, tOr(`poker.${dealer.hand}`, dealer.hand)) : null,
        dealer.qualifies === true ? h("span", { class: "note" }, t("holdem.qualifies")) : null,
        dealer.qualifies === false ? h("span", { class: "note" }, t("holdem.does_not_qualify")) : null,
      ),
    );
  }
  const board = view.board ?? view.community ?? view.community_cards;
  if (Array.isArray(board)) {
    parts.push(
      h(
        "div",
        { class: "side board", dataset: { side: "board" } },
        h("h2", { class: "side-name" }, t("table.board")),
        cardRow(board, 0, t("table.board")),
      ),
    );
  }
  return parts;
}

function seatsOf(view) {
  const list = view.boxes ?? view.zones ?? view.seats ?? view.players ?? [];
  const bySeat = new Map();
  if (Array.isArray(list)) {
    for (const entry of list) bySeat.set(Number(entry.seat), entry);
  } else if (list && typeof list === "object") {
    for (const [seat, entry] of Object.entries(list)) bySeat.set(Number(seat), { seat: Number(seat), ...entry });
  }
  if (view.seat !== undefined && (view.bets || view.results) && !bySeat.has(Number(view.seat))) {
    // Baccarat: the viewer's own zone, its bets and results.
    bySeat.set(Number(view.seat), { seat: Number(view.seat), bets: view.bets, results: view.results });
  }
  return bySeat;
}

function handsOf(entry) {
  if (Array.isArray(entry.hands)) return entry.hands;
  if (Array.isArray(entry.cards) || typeof entry.hidden === "number") {
    return [{ hand: 0, cards: entry.cards ?? [], hidden: entry.hidden, total: entry.total, result: entry.result, hand_name: entry.hand }];
  }
  return [];
}

function seatElement(seat, occupant, entry, { mine, toAct, sitButton }) {
  const acting = toAct && Number(toAct.seat) === seat;
  const element = h("li", {
    class: `seat ${occupant ? "taken" : "free"} ${mine ? "mine" : ""} ${acting ? "acting" : ""}`,
    dataset: { seat },
    "aria-current": acting ? "true" : null,
  });
  element.append(
    h(
      "div",
      { class: "seat-head" },
      h("span", { class: "seat-number" }, t("table.seat_number", { seat })),
      h("span", { class: "seat-player" }, occupant ?? t("table.free_seat")),
    ),
  );
  if (!occupant && sitButton) element.append(sitButton);
  if (entry) {
    const bets = { ...(entry.bets ?? {}) };
    // Casino Hold'em lists each zone's wagers as fields; blackjack its insurance.
    for (const wager of TOP_LEVEL_WAGERS) {
      if (entry[wager] !== undefined && entry[wager] !== null && typeof entry[wager] !== "object") bets[wager] = entry[wager];
    }
    const chips = Object.entries(bets).filter(([, amount]) => amount && String(amount) !== "0");
    if (chips.length) {
      element.append(h("div", { class: "bets" }, chips.map(([wager, amount]) => chip(amount, tOr(`wager.${wager}`, wager)))));
    } else if (entry.stake) {
      element.append(h("div", { class: "bets" }, chip(entry.stake, t("table.at_stake"))));
    }
    if (entry.decision) {
      const [name] = String(entry.decision).split(" ");
      element.append(h("span", { class: "note" }, tOr(`action.${name}`, entry.decision)));
    }
    for (const hand of handsOf(entry)) {
      const current = acting && (toAct.hand === null || toAct.hand === undefined || Number(toAct.hand) === Number(hand.hand));
      element.append(
        h(
          "div",
          { class: `hand ${current ? "current" : ""}`, dataset: { hand: hand.hand ?? 0 } },
          cardRow(hand.cards ?? [], hiddenCount(hand), t("table.hand_of_seat", { seat, hand: (hand.hand ?? 0) + 1 })),
          h(
            "div",
            { class: "hand-facts" },
            hand.cards && hand.cards.length ? total(hand.total) : null,
            hand.hand_name ? h("span", { class: "hand-name" }, tOr(`poker.${hand.hand_name}`, hand.hand_name)) : null,
            hand.bet !== undefined && hand.bet !== null && (handsOf(entry).length > 1 || String(hand.bet) !== String(entry.bets?.main))
              ? h("span", { class: "hand-bet" }, t("table.bet_amount", { amount: money(hand.bet) }))
              : null,
            resultBadge(hand.result, hand.payout),
          ),
        ),
      );
    }
    if (entry.results && typeof entry.results === "object") {
      const results = Array.isArray(entry.results) ? entry.results : Object.entries(entry.results).map(([wager, r]) => ({ wager, ...r }));
      element.append(
        h(
          "ul",
          { class: "seat-results" },
          results.map((r) =>
            h("li", {}, `${tOr(`wager.${r.wager}`, r.wager)}: `, resultBadge(r.result, r.payout)),
          ),
        ),
      );
    }
  }
  return element;
}

/**
 * Draw the round on the felt.
 * @param {HTMLElement} dealerBox where the dealer's side goes
 * @param {HTMLElement} seatList the <ol> of seats
 * @param {object} view the engine's view of the round (may be null between rounds)
 * @param {Map<number, string|null>} occupants seat -> player name
 * @param {object} options {mySeats: Set<number>, sitButtonFor(seat) -> element|null}
 */
export function drawFelt(dealerBox, seatList, view, occupants, options = {}) {
  const mySeats = options.mySeats ?? new Set();
  dealerBox.replaceChildren(
    ...(options.caption ? [h("p", { class: "felt-caption" }, options.caption)] : []),
    ...(view ? dealerArea(view) : []),
  );
  const entries = view ? seatsOf(view) : new Map();
  const seats = new Set([...occupants.keys(), ...entries.keys()]);
  const toAct = view?.to_act ?? null;
  seatList.replaceChildren(
    ...[...seats]
      .sort((a, b) => a - b)
      .map((seat) =>
        seatElement(seat, occupants.get(seat) ?? null, entries.get(seat) ?? null, {
          mine: mySeats.has(seat),
          toAct,
          sitButton: options.sitButtonFor ? options.sitButtonFor(seat) : null,
        }),
      ),
  );
}
