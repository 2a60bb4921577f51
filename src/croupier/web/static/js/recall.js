// The recall of a past round (R14): its stored events replayed one by one, the felt redrawn
// at each step, with first / previous / next / last (and the arrow keys).

import { byId, h, money, onSignOut, reportError, requireSession, setUpChrome, t, tOr } from "./common.js";
import { cardName, parseCard } from "./cards.js";
import { drawFelt } from "./felt.js";
import { replay } from "./replay.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

const roundId = Number(document.body.dataset.roundId);
let events = [];
let players = new Map(); // seat -> who played it
let step = 0; // how many events are applied

function describe(event) {
  const values = { ...event };
  if (event.card) values.card = cardName(event.card);
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

function show() {
  byId("step-counter").textContent = t("recall.step_of", { step, total: events.length });
  byId("step-text").textContent = step === 0 ? t("recall.before_first") : describe(events[step - 1]);
  drawFelt(byId("dealer-area-recall"), byId("seats-recall"), replay(events, step), players);
  for (const [index, item] of [...byId("event-list").children].entries()) {
    item.classList.toggle("done", index < step);
    item.toggleAttribute("aria-current", index === step - 1);
    if (index === step - 1) item.setAttribute("aria-current", "step");
  }
  byId("first-step").disabled = step === 0;
  byId("previous-step").disabled = step === 0;
  byId("next-step").disabled = step === events.length;
  byId("last-step").disabled = step === events.length;
}

function go(to) {
  step = Math.max(0, Math.min(events.length, to));
  show();
}

function fact(term, value) {
  return [h("dt", {}, term), h("dd", {}, value)];
}

async function load() {
  const round = await server.round(roundId);
  events = round.events ?? [];
  players = new Map((round.seats ?? []).map((seat) => [Number(seat.seat), t("recall.player_number", { user: seat.user })]));
  byId("round-facts").replaceChildren(
    ...fact(t("lobby.table"), round.table ?? "–"),
    ...fact(t("lobby.game"), tOr(`game.${round.game}`, round.game ?? "–")),
    ...fact(t("recall.rules_version"), round.rules_version ?? "–"),
    ...fact(t("me.status"), tOr(`status.${round.status}`, round.status ?? "–")),
    ...fact(t("recall.shoe"), round.shoe ? `#${round.shoe}` : "–"),
    ...fact(t("recall.seats"), (round.seats ?? []).map((seat) => t("recall.seat_of", { seat: seat.seat, user: seat.user })).join(", ") || "–"),
  );
  const felt = byId("felt");
  felt.replaceChildren(
    h("div", { class: "dealer-area", id: "dealer-area-recall" }),
    h("ol", { class: "seats", id: "seats-recall" }),
  );
  byId("event-list").replaceChildren(
    ...events.map((event, index) =>
      h("li", {}, h("button", { type: "button", class: "link", onclick: () => go(index + 1) }, describe(event))),
    ),
  );
  go(events.length);
}

byId("first-step").addEventListener("click", () => go(0));
byId("previous-step").addEventListener("click", () => go(step - 1));
byId("next-step").addEventListener("click", () => go(step + 1));
byId("last-step").addEventListener("click", () => go(events.length));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement) return;
  const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: events.length };
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key]);
  }
});

if (requireSession()) load().catch(reportError);
