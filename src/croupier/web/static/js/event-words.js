// A recorded event in the catalogue's words ("The dealer burns 4♥", not
// `CardDrawn card=4h purpose=burn`): the recall and the inspector's record of a dispute both
// read a round's events through this one function.

import { money, t, tOr } from "./common.js";
import { cardName, parseCard } from "./cards.js";
import { correctionWords } from "./felt.js";

export function describe(event) {
  const values = { ...event };
  if (event.card) values.card = cardName(event.card);
  // A dealer's correction (docs/rules.md D-GEN-11 to D-GEN-14) says what became of its cards.
  Object.assign(values, correctionWords(event));
  if (event.amount !== undefined) values.amount = money(event.amount);
  if (event.payout !== undefined) values.payout = money(event.payout);
  if (event.stake !== undefined) values.stake = money(event.stake);
  if (event.wager) values.wager = tOr(`wager.${event.wager}`, event.wager);
  if (event.result) values.result = tOr(`result.${event.result}`, event.result);
  if (event.purpose) values.purpose = tOr(`purpose.${event.purpose}`, event.purpose);
  if (event.game) values.game = tOr(`game.${event.game}`, event.game);
  if (event.winner) values.winner = tOr(`baccarat.won.${event.winner}`, event.winner);
  if (event.meter !== undefined) values.meter = money(event.meter);
  if (event.category) values.category = tOr(`poker.${event.category}`, event.category);
  if (event.kind === "DealerRevealed") {
    values.hand = tOr(`poker.${event.hand}`, event.hand);
    values.qualifies = t(event.qualifies ? "holdem.qualifies" : "holdem.does_not_qualify");
  }
  if (event.action) {
    const [name, amount] = String(event.action).split(" ");
    values.action = amount === undefined ? tOr(`action.${name}`, name) : t("action.with_amount", { action: tOr(`action.${name}`, name), amount: money(amount) });
  }
  let key = `event.${event.kind}`;
  if (event.kind === "CardDrawn" && (event.seat === undefined || event.seat === null)) key = "event.CardDrawn.to";
  if (event.kind === "CardDrawn" && event.purpose === "burn") {
    // Burnt cards stay hidden ("??") until their shoe is revealed.
    key = parseCard(event.card) ? "event.CardDrawn.burn" : "event.CardDrawn.burn_hidden";
  }
  const fallback = `${event.kind} ${JSON.stringify(Object.fromEntries(Object.entries(event).filter(([k]) => k !== "kind")))}`;
  return tOr(key, fallback, values);
}
