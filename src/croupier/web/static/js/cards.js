// Cards drawn as cards: a face with rank and suit in the corners and a large suit in the
// middle, red for hearts and diamonds; a patterned back for a card the view keeps hidden
// ("??").

import { h, t } from "./common.js";

const SUIT_SYMBOLS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RED_SUITS = new Set(["h", "d"]);
const RANKS = new Set(["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]);

/** Parse the notation ("Td", "10h", "As"); null for anything else. */
export function parseCard(code) {
  if (typeof code !== "string") return null;
  const match = /^(10|[2-9TJQKA])([shdc])$/i.exec(code.trim());
  if (!match) return null;
  const rank = match[1] === "10" ? "T" : match[1].toUpperCase();
  if (!RANKS.has(rank)) return null;
  return { rank, suit: match[2].toLowerCase() };
}

export function cardName(code) {
  const card = parseCard(code);
  if (!card) return t("card.unknown");
  return t("card.name", { rank: t(`card.rank.${card.rank}`), suit: t(`card.suit.${card.suit}`) });
}

/** A card in a line of text as on its corner ("10♥", "2♣"); anything else as it came. */
export function cardText(code) {
  const card = parseCard(code);
  if (!card) return String(code);
  return `${card.rank === "T" ? "10" : card.rank}${SUIT_SYMBOLS[card.suit]}`;
}

/** A card face up, or its back for a hidden one ("??"). */
export function cardFace(code) {
  const card = parseCard(code);
  if (!card) return cardBack();
  const shown = card.rank === "T" ? "10" : card.rank;
  const symbol = SUIT_SYMBOLS[card.suit];
  const colour = RED_SUITS.has(card.suit) ? "red" : "black";
  return h(
    "span",
    {
      class: `card face ${colour}`,
      role: "img",
      "aria-label": cardName(code),
      dataset: { card: `${card.rank}${card.suit}` },
    },
    h("span", { class: "corner top", "aria-hidden": "true" }, h("span", { class: "rank" }, shown), h("span", { class: "suit" }, symbol)),
    h("span", { class: "pip", "aria-hidden": "true" }, symbol),
    h("span", { class: "corner bottom", "aria-hidden": "true" }, h("span", { class: "rank" }, shown), h("span", { class: "suit" }, symbol)),
  );
}

/** A card face down. */
export function cardBack() {
  return h("span", { class: "card back", role: "img", "aria-label": t("card.hidden"), dataset: { card: "back" } });
}

/** A row of cards as the view lists them. */
export function cardRow(codes = [], label = "") {
  const row = h("span", { class: "cards", role: "group", "aria-label": label || null });
  for (const code of codes) row.append(cardFace(code));
  // How many cards the row holds, for the stylesheet: a long hand in a narrow seat overlaps
  // its cards more rather than spill out of the seat (croupier.css, ".seat .cards").
  row.style.setProperty("--cards", String(Math.max(codes.length, 1)));
  return row;
}
