// The recall of a past round (R14): its stored events replayed one by one, the felt redrawn
// at each step, with first / previous / next / last (and the arrow keys).

import { byId, h, money, onSignOut, reportError, requireSession, setUpChrome, t, tOr } from "./common.js";
import { cardName } from "./cards.js";
import { drawFelt } from "./felt.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

const roundId = Number(document.body.dataset.roundId);
let events = [];
let step = 0; // how many events are applied

const BOARD_PURPOSES = new Set(["board", "community", "flop", "turn", "river"]);

function blackjackTotal(cards) {
  let sum = 0;
  let aces = 0;
  for (const code of cards) {
    const rank = code[0];
    if (rank === "A") { sum += 1; aces += 1; }
    else if ("TJQK".includes(rank)) sum += 10;
    else sum += Number(rank);
  }
  return aces && sum + 10 <= 21 ? sum + 10 : sum;
}

function baccaratTotal(cards) {
  let sum = 0;
  for (const code of cards) {
    const rank = code[0];
    sum += rank === "A" ? 1 : "TJQK".includes(rank) ? 0 : Number(rank);
  }
  return sum % 10;
}

/** The round after the first `count` events, in the shape the felt draws. */
export function replay(record, count) {
  const table = { game: null, dealer: [], board: [], player: [], banker: [], burns: 0, boxes: new Map(), winner: null };
  let splitFrom = null;
  const box = (seat) => {
    if (!table.boxes.has(seat)) table.boxes.set(seat, { seat, bets: {}, hands: new Map(), results: {} });
    return table.boxes.get(seat);
  };
  const hand = (seat, number) => {
    const owner = box(seat);
    const key = number ?? 1;
    if (!owner.hands.has(key)) owner.hands.set(key, { hand: key, cards: [], bet: null, result: null, payout: null });
    return owner.hands.get(key);
  };
  for (const event of record.slice(0, count)) {
    switch (event.kind) {
      case "RoundStarted":
        table.game = event.game;
        break;
      case "BetPlaced": {
        const owner = box(event.seat);
        if ((event.wager === "split" || event.wager === "double") && event.hand !== undefined) {
          const target = hand(event.seat, event.hand);
          if (event.wager === "split" && splitFrom) {
            const source = hand(splitFrom.seat, splitFrom.hand);
            target.cards.push(source.cards.pop());
            target.bet = Number(event.amount);
            splitFrom = null;
          } else {
            target.bet = (Number(target.bet) || Number(owner.bets.main) || 0) + Number(event.amount);
          }
        } else if (Number(event.amount) === 0) {
          delete owner.bets[event.wager];
        } else {
          owner.bets[event.wager] = event.amount;
        }
        break;
      }
      case "Decided":
        if (String(event.action).split(" ")[0] === "split") splitFrom = { seat: event.seat, hand: event.hand };
        break;
      case "CardDrawn":
        if (event.purpose === "burn") table.burns += 1;
        else if (event.purpose === "dealer") table.dealer.push(event.card);
        else if (BOARD_PURPOSES.has(event.purpose)) table.board.push(event.card);
        else if (event.seat === undefined || event.seat === null) {
          if (event.purpose === "player") table.player.push(event.card);
          else if (event.purpose === "banker") table.banker.push(event.card);
        } else {
          const target = hand(event.seat, event.hand);
          if (target.bet === null) target.bet = box(event.seat).bets.main ?? box(event.seat).bets.ante ?? null;
          target.cards.push(event.card);
        }
        break;
      case "Settled": {
        const owner = box(event.seat);
        if (event.hand !== undefined && event.hand !== null && owner.hands.has(event.hand) && event.wager === "main") {
          const target = owner.hands.get(event.hand);
          target.result = event.result;
          target.payout = event.payout;
        } else {
          owner.results[event.hand ? `${event.wager} ${event.hand}` : event.wager] = { result: event.result, payout: event.payout, bet: event.stake };
        }
        break;
      }
      default:
        if (event.winner) table.winner = event.winner;
    }
  }
  const isBaccarat = table.game === "baccarat";
  const view = {
    boxes: [...table.boxes.values()].map((owner) => ({
      seat: owner.seat,
      bets: owner.bets,
      hands: [...owner.hands.values()].map((one) => ({
        ...one,
        total: table.game === "blackjack" ? blackjackTotal(one.cards) : null,
      })),
      results: Object.keys(owner.results).length ? owner.results : null,
    })),
  };
  if (isBaccarat) {
    view.player = { cards: table.player, total: baccaratTotal(table.player) };
    view.banker = { cards: table.banker, total: baccaratTotal(table.banker) };
    if (table.winner) view.winner = table.winner;
  } else {
    view.dealer = { cards: table.dealer, total: table.game === "blackjack" && table.dealer.length ? blackjackTotal(table.dealer) : null };
    if (table.board.length || table.game === "casino-holdem") view.board = table.board;
  }
  return view;
}

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
  if (event.action) {
    const [name, amount] = String(event.action).split(" ");
    values.action = amount === undefined ? tOr(`action.${name}`, name) : t("action.with_amount", { action: tOr(`action.${name}`, name), amount: money(amount) });
  }
  let key = `event.${event.kind}`;
  if (event.kind === "CardDrawn" && (event.seat === undefined || event.seat === null)) key = "event.CardDrawn.to";
  const fallback = `${event.kind} ${JSON.stringify(Object.fromEntries(Object.entries(event).filter(([k]) => k !== "kind")))}`;
  return tOr(key, fallback, values);
}

function show() {
  byId("step-counter").textContent = t("recall.step_of", { step, total: events.length });
  byId("step-text").textContent = step === 0 ? t("recall.before_first") : describe(events[step - 1]);
  drawFelt(byId("dealer-area-recall"), byId("seats-recall"), replay(events, step), new Map());
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
  byId("round-facts").replaceChildren(
    ...fact(t("lobby.table"), String(round.table_name ?? round.table ?? round.table_id ?? "–")),
    ...fact(t("lobby.game"), tOr(`game.${round.game}`, round.game ?? "–")),
    ...fact(t("recall.rules_version"), round.rules_version ?? "–"),
    ...fact(t("me.status"), tOr(`status.${round.status}`, round.status ?? "–")),
    ...fact(t("recall.shoe"), round.shoe_id ? String(round.shoe_id) : "–"),
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
