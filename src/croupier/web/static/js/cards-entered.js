// Who entered each card at a physical shoe (issue 26, item 5): the staff's pages (the dealer's
// console, the inspector's dispute, the recall) list each card the dealer typed as it left
// the real shoe, where it went, who entered it and when, from the round's `cards_entered`
// (service.physical.cards_entered). Staff only: the list holds the face-down cards (R6).

import { h, language, t } from "./common.js";
import { cardText } from "./cards.js";

/** Where a card goes, in words: a box's hand, a box, the dealer (face down), a burn. */
export function placeText(place) {
  if (!place) return t("dealer.no_card");
  if (place.purpose === "burn") return t("dealer.goes.burn");
  if (place.purpose === "hole") return t("dealer.goes.hole");
  if (place.seat !== null && place.hand !== null) return t("dealer.goes.hand", { seat: place.seat, hand: place.hand + 1 });
  if (place.seat !== null) return t("dealer.goes.seat", { seat: place.seat });
  return t(`purpose.${place.purpose}`);
}

const clock = new Intl.DateTimeFormat(language, { timeStyle: "medium" });

/** One line per card entered: "10♦ to box 1, hand 1: entered by dario at 10:32:05". */
export function enteredCardLines(entries) {
  return entries.map((entry) =>
    h("li", { dataset: { card: entry.card, by: entry.by } },
      t("staff.card_entered", { card: cardText(entry.card), place: placeText(entry.went), by: entry.by, time: clock.format(new Date(entry.at * 1000)) })),
  );
}

/** Fill `section`'s list with `entries`; the section is hidden where there are none (a round
 * dealt from a random shoe has no card entered by anyone). */
export function showCardsEntered(section, entries) {
  const list = entries ?? [];
  section.hidden = list.length === 0;
  section.querySelector("ol").replaceChildren(...enteredCardLines(list));
}
