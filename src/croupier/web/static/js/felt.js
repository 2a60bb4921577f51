// The felt: the house's cards above (the dealer and the board, or baccarat's Punto and Banca),
// the seats below, each with its player, its bets as chips, its hands as cards, its totals
// and its results. Shared by the live table and the recall page, it draws the engine's view
// of a round (the same shape for every game) and decides nothing: a hidden card comes as
// "??", a total as the engine counted it (a number, or a poker hand's name), a result as the
// engine settled it.

import { h, money, redrawChildren, t, tOr } from "./common.js";
import { cardName, cardRow } from "./cards.js";

// Where a face-down card lay, in the engine's words ("hole", "seat 2 hand 0", "dealer 1",
// "seat 3 card 2"), said in the page's language.
export function placeName(place) {
  if (place === "hole") return t("place.hole");
  const words = place.split(" ");
  if (words.length === 4 && words[2] === "hand") return t("place.seat_hand", { seat: words[1], hand: Number(words[3]) + 1 });
  if (words.length === 4 && words[2] === "card") return t("place.seat_card", { seat: words[1], card: words[3] });
  if (words.length === 2 && words[0] === "dealer") return t("place.dealer_card", { card: words[1] });
  return place;
}

/** The words of a dealer's correction's fields (docs/rules.md D-GEN-11 to D-GEN-14). */
export function correctionWords(event) {
  const values = {};
  if (event.card) values.card = cardName(event.card);
  if (event.cards) values.cards = event.cards.map(cardName).join(", ");
  if (event.disposal) values.disposal = tOr(`disposal.${event.disposal}`, event.disposal);
  if (event.outcome) values.outcome = tOr(`outcome.${event.outcome}`, event.outcome);
  if (event.place) values.place = placeName(event.place);
  return values;
}

// The dealer's corrections of this round, each as its own line under the house's cards: the
// whole table saw them (a card face up, a card exposed, a confused deal, a void).
function corrections(view) {
  const made = view.corrections ?? [];
  if (!made.length) return [];
  return [
    h(
      "ul",
      { class: "felt-corrections", "aria-label": t("felt.corrections") },
      made.map((event) => h("li", {}, tOr(`event.${event.kind}`, event.kind, { ...event, ...correctionWords(event) }))),
    ),
  ];
}

function chip(amount, label) {
  return h(
    "span",
    { class: "chip-stack", title: label },
    h("span", { class: "chip", "aria-hidden": "true" }, money(amount)),
    h("span", { class: "chip-label" }, `${label} ${money(amount)}`),
  );
}

/** A dealer's hand of two cards, both seen, worth 21: a blackjack (spain-1979 Art. 03 V.1.b,
 * Peru 2016 Art. 13: "21" with the first two cards), not a total of 21. */
export function isDealerBlackjack(dealer) {
  const cards = dealer?.cards ?? [];
  return cards.length === 2 && !cards.includes("??") && dealer.total === 21;
}

/** A total as the engine gives it: points ("Total 17"; a soft total, the engine saying an Ace
 * counts 11 in it, while the hand is played: "Total 7/17", the Ace's 1 or 11; a dealer's
 * blackjack by its name) or a poker hand named for whose it is ("Your hand: Two pair"). */
function total(value, { soft = false, named = null, blackjack = false } = {}) {
  if (value === null || value === undefined || value === "") return null;
  if (blackjack) return h("span", { class: "total", dataset: { blackjack: "true" } }, t("table.dealer_blackjack"));
  if (typeof value === "string") {
    const hand = tOr(`poker.${value}`, value);
    return h("span", { class: "hand-name", dataset: { hand: value } }, named ? t(named, { hand }) : hand);
  }
  if (soft && value < 21) return h("span", { class: "total", dataset: { soft: "true" } }, t("table.total_soft", { hard: value - 10, total: value }));
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

/** Each card of a row named by its place ("dealer:2:Ts", a face-down one "...:back"), so that
 * the live table can tell the cards new since it last drew from those already on the felt. */
function withPlaces(row, place) {
  for (const [index, card] of [...row.children].entries()) card.dataset.place = `${place}:${index}:${card.dataset.card}`;
  return row;
}

function side(name, heading, cards, facts, { won = false } = {}) {
  return h(
    "div",
    { class: `side ${name} ${won ? "winner" : ""}`, dataset: { side: name } },
    h("h2", { class: "side-name" }, heading),
    withPlaces(cardRow(cards, heading), name),
    ...facts,
  );
}

/** Baccarat, Art. 10: Punto and Banca, each a hand of two or three cards, and the winner. */
function baccaratSides(view) {
  const parts = ["player", "banker"].map((name) => {
    const hand = view[name];
    const heading = t(`baccarat.${name}`);
    return side(name, heading, hand.cards, [hand.cards.length ? total(hand.total) : null], { won: view.winner === name });
  });
  if (view.winner) parts.push(h("p", { class: "winner-line" }, tOr(`baccarat.won.${view.winner}`, view.winner)));
  return parts;
}

/** The dealer's hand and, where the game has one, the board. */
function dealerSides(view) {
  const parts = [];
  const dealer = view.dealer;
  if (dealer) {
    const heading = t("table.dealer");
    parts.push(
      side("dealer", heading, dealer.cards, [
        dealer.cards.length ? total(dealer.total, { named: "table.dealer_hand", blackjack: isDealerBlackjack(dealer) }) : null,
        dealer.qualifies === true ? h("span", { class: "note" }, t("holdem.qualifies")) : null,
        dealer.qualifies === false ? h("span", { class: "note" }, t("holdem.does_not_qualify")) : null,
      ]),
    );
  }
  if (Array.isArray(view.board)) parts.push(side("board", t("table.board"), view.board, []));
  return parts;
}

function handElement(seat, entry, hand, current, mine) {
  const hands = entry.hands;
  // A hand's bet is shown where it is not one of the chips: after a split, a double, a call.
  const placed = Object.values(entry.bets ?? {}).map(Number);
  const betShown = hand.bet !== null && hand.bet !== undefined && (hands.length > 1 || !placed.includes(Number(hand.bet)));
  // A Casino Hold'em hand's stake is the ante and the call together: "Bet 15" beside an ante
  // of 5 read as a call of 15 (the call, the wager named "Bet", is 10).
  const stakeKey = Object.hasOwn(entry.bets ?? {}, "ante") ? "table.ante_and_bet_amount" : "table.bet_amount";
  return h(
    "div",
    { class: `hand ${current ? "current" : ""}`, dataset: { hand: hand.hand } },
    withPlaces(cardRow(hand.cards, t("table.hand_of_seat", { seat, hand: hand.hand + 1 })), `seat-${seat}-${hand.hand}`),
    h(
      "div",
      { class: "hand-facts" },
      hand.cards.length ? total(hand.total, { soft: hand.soft === true && !hand.result, named: mine ? "table.your_hand" : null }) : null,
      betShown ? h("span", { class: "hand-bet" }, t(stakeKey, { amount: money(hand.bet) })) : null,
      resultBadge(hand.result, hand.payout),
    ),
  );
}

function seatElement(seat, occupant, entry, { mine, pending, sitButton, sittingOut, backBets }) {
  const acting = pending && Number(pending.seat) === seat;
  const element = h("li", {
    class: `seat ${occupant ? "taken" : "free"} ${mine ? "mine" : ""} ${acting ? "acting" : ""} ${sittingOut ? "sitting-out" : ""}`,
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
  // docs/rules.md#D-GEN-15: missed rounds in a row; not dealt in, not waited for.
  if (sittingOut) element.append(h("p", { class: "seat-away" }, t("table.sitting_out")));
  if (!occupant && sitButton) element.append(sitButton);
  if (!entry) return element;
  const chips = Object.entries(entry.bets ?? {}).filter(([, amount]) => Number(amount));
  if (chips.length) {
    element.append(h("div", { class: "bets" }, chips.map(([wager, amount]) => chip(amount, tOr(`wager.${wager}`, wager)))));
  }
  // spain-1979 (docs/rules.md#D-BJ-28): back bets ride behind the box's own bet.
  if (backBets?.length) {
    element.append(h("div", { class: "bets back-bets-on-box" }, backBets.map((back) => chip(back.amount_minor / 100, t("table.back_bet_by", { backer: back.backer })))));
  }
  for (const hand of entry.hands ?? []) {
    const current = acting && (pending.hand === null || pending.hand === undefined || Number(pending.hand) === Number(hand.hand));
    element.append(handElement(seat, entry, hand, current, mine));
  }
  // Wagers settled on no hand of the seat (a side bet, insurance, each of a zone's bets).
  const results = (entry.results ?? []).filter((wager) => wager.hand === null || wager.hand === undefined);
  if (results.length) {
    element.append(
      h(
        "ul",
        { class: "seat-results" },
        results.map((r) => h("li", {}, `${tOr(`wager.${r.wager}`, r.wager)}: `, resultBadge(r.result, r.payout))),
      ),
    );
  }
  return element;
}

/**
 * Draw the round on the felt.
 * @param {HTMLElement} dealerBox where the house's side goes
 * @param {HTMLElement} seatList the <ol> of seats
 * @param {object|null} view the engine's view of a round (null between rounds)
 * @param {Map<number, string|null>} occupants seat -> player name
 * @param {object} options {mySeats: Set<number>, sitButtonFor(seat) -> element|null, caption,
 *   sittingOut: Set<number>, backBets: Map<number, {backer, amount_minor}[]>}
 */
export function drawFelt(dealerBox, seatList, view, occupants, options = {}) {
  const mySeats = options.mySeats ?? new Set();
  const house = !view ? [] : [...(view.player && view.banker ? baccaratSides(view) : dealerSides(view)), ...corrections(view)];
  dealerBox.replaceChildren(...(options.caption ? [h("p", { class: "felt-caption" }, options.caption)] : []), ...house);
  const entries = new Map((view?.seats ?? []).map((entry) => [Number(entry.seat), entry]));
  const seats = new Set([...occupants.keys(), ...entries.keys()]);
  redrawChildren(
    seatList,
    ...[...seats]
      .sort((a, b) => a - b)
      .map((seat) =>
        seatElement(seat, occupants.get(seat) ?? null, entries.get(seat) ?? null, {
          mine: mySeats.has(seat),
          pending: view?.pending ?? null,
          sitButton: options.sitButtonFor ? options.sitButtonFor(seat) : null,
          sittingOut: options.sittingOut?.has(seat) ?? false,
          backBets: options.backBets?.get(seat) ?? [],
        }),
      ),
  );
}
