// The recall of a past round (R14), as the server serves it: the engine's view of the round
// after each step (the opening, each bet, the deal, each decision), masked for this viewer as
// it was at the table, with the events each step recorded. The page draws the views; it
// rebuilds nothing. First / previous / next / last (and the arrow keys) move between steps.

import { byId, h, money, onSignOut, reportError, requireSession, setUpChrome, t, tOr } from "./common.js";
import { cardName, parseCard } from "./cards.js";
import { correctionWords, drawFelt } from "./felt.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

const roundId = Number(document.body.dataset.roundId);
let steps = []; // {command, events, view} from the server, the opening first
let players = new Map(); // seat -> who played it
let step = 0; // the index of the step shown

function describe(event) {
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

function show() {
  const current = steps[step];
  byId("step-counter").textContent = t("recall.step_of", { step: step + 1, total: steps.length });
  byId("step-text").textContent = current.events.map(describe).join(" ");
  drawFelt(byId("dealer-area-recall"), byId("seats-recall"), current.view, players);
  for (const [index, item] of [...byId("event-list").children].entries()) {
    item.classList.toggle("done", index <= step);
    if (index === step) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  byId("first-step").disabled = step === 0;
  byId("previous-step").disabled = step === 0;
  byId("next-step").disabled = step === steps.length - 1;
  byId("last-step").disabled = step === steps.length - 1;
}

function go(to) {
  step = Math.max(0, Math.min(steps.length - 1, to));
  show();
}

function fact(term, value) {
  return [h("dt", {}, term), h("dd", {}, value)];
}

async function load() {
  const round = await server.round(roundId);
  // A record that no longer replays comes without steps: its events are all there is.
  steps = round.steps ?? [{ command: null, events: round.events ?? [], view: null }];
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
    ...steps.map((one, index) =>
      h(
        "li",
        {},
        h(
          "button",
          { type: "button", class: "link", onclick: () => go(index) },
          one.events.map((event) => h("span", { class: "step-event" }, describe(event))),
        ),
      ),
    ),
  );
  go(steps.length - 1);
}

const last = () => steps.length - 1;
byId("first-step").addEventListener("click", () => go(0));
byId("previous-step").addEventListener("click", () => go(step - 1));
byId("next-step").addEventListener("click", () => go(step + 1));
byId("last-step").addEventListener("click", () => go(last()));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement) return;
  const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last() };
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key]);
  }
});

if (requireSession()) load().catch(reportError);
