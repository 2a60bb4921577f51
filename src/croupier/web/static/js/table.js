// A live table: the felt, the seats, the timer, the bets and the decisions the server says
// are legal, kept current over the table's WebSocket. The socket sends the whole table as
// this player may see it on connecting and after every change, so a reload (or a dropped
// connection) carries on where the round was.

import {
  ApiError, byId, clearNetworkNotice, clearNotice, h, isSigningOut, labelCells, localTimeOf, messageOf, money, moneyMinor, moneyUnits, once, onSignOut, redrawChildren,
  reportError, requireSession, session, setUpChrome, showNotice, t, tOr,
} from "./common.js";
import { drawFelt, isDealerBlackjack } from "./felt.js";
import { dealtOut, paceDeal } from "./pace.js";
import { centsOf } from "./rounds.js";
import { backBetsByBox, bySeatHandsFirst, netSentence, resultRows, settledBackBets } from "./results.js";
import { profileOfTable, profilesByName, server } from "./server.js";
import { drawTableInfo } from "./table_info.js";
import { describeAllLimits, rulesTitle, seatMap } from "./tables.js";

onSignOut(server.signOut);
setUpChrome();

const tableId = Number(document.body.dataset.tableId);
const CHIP_VALUES = [1, 5, 25, 100, 500];

const state = {
  table: null,
  profile: null,
  round: null, // the snapshot's round: id, status, deadline, stakes, pending, public, mine
  lastRound: null, // the recall of the last round this player had a stake in, once ended
  watched: null, // {round, view}: the round under way as last drawn, once dealt
  ending: null, // {round, view}: a round just ended, as last watched, until its recall comes
  backBets: [], // back bets of the round under way that concern this player
  busy: false,
};
let lastRoundAsked = 0;

// --- reading the server's snapshot ---------------------------------------------------------

function mySeats() {
  const seats = new Set();
  for (const [seat, who] of Object.entries(state.table?.seats ?? {})) {
    if (who === session.username) seats.add(Number(seat));
  }
  for (const seat of Object.keys(state.round?.mine ?? {})) seats.add(Number(seat));
  return seats;
}

/** The round as this player sees it: the engine's public view, each of the player's own
 * seats as that seat's view shows it (a zone's own hole cards). */
function currentView() {
  const round = state.round;
  const shared = round?.public;
  if (!shared) return null;
  const view = structuredClone(shared);
  for (const [seat, own] of Object.entries(round.mine ?? {})) {
    const entry = own.seats.find((item) => Number(item.seat) === Number(seat));
    if (entry) view.seats = view.seats.map((item) => (Number(item.seat) === Number(seat) ? entry : item));
  }
  return view;
}

/** The last round's end, as its recall's last step shows it to this player. */
function lastView() {
  return state.lastRound?.steps?.at(-1)?.view ?? null;
}

function isBetting() {
  return state.round?.status === "betting" && state.table?.is_open !== false;
}

function myLegalActions() {
  const pending = state.round?.pending;
  if (!pending || !mySeats().has(Number(pending.seat))) return [];
  return pending.legal ?? [];
}

function wagersOfTable() {
  return state.profile?.wagers ?? [{ name: "main", minimum: 1, maximum: null }];
}

// --- drawing --------------------------------------------------------------------------------

function drawHead() {
  const table = state.table ?? {};
  byId("table-name").textContent = table.name ?? t("table.title");
  document.title = `${table.name ?? t("table.title")} · croupier`;
  byId("table-game").textContent = tOr(`game.${table.game}`, table.game ?? "");
  byId("table-profile").textContent = rulesTitle(state.profile ?? table); // in the page's language
  byId("table-limits").textContent = describeAllLimits(state.profile);
  const status = state.round?.status;
  const phase = state.round?.public?.phase;
  let text = t("phase.waiting");
  if (table.is_open === false) text = t("lobby.closed");
  else if (status === "betting") text = t("phase.betting");
  else if (phase) text = tOr(`phase.${phase}`, phase);
  else if (status) text = tOr(`phase.${status}`, status);
  byId("phase").textContent = text;
}

function sitButtonFor(seat) {
  const seats = mySeats();
  if (state.table?.is_open === false || seats.size >= (state.profile?.seats_per_player ?? 1)) return null;
  return h("button", { type: "button", class: "sit", dataset: { focusKey: `sit-${seat}` }, onclick: () => run(() => server.sit(tableId, seat)) }, t("table.sit_here", { seat }));
}

/** What the felt shows: the round under way once it is dealt; while the next round takes
 * bets, the end of the last one, watched to its end here (the cards the dealer drew after the
 * last decision turned up one by one), or, on a page opened since, as its recall ends. */
function feltNow() {
  const live = currentView();
  const round = state.round?.id ?? "";
  if (live && live.phase !== "betting") return { view: live, round, showing: "live" };
  if (state.ending?.view) return { view: state.ending.view, round: state.ending.round, showing: "live" };
  if (lastView()) return { view: lastView(), round: state.lastRound.round, showing: state.lastRound.watched ? "live" : "last-round" };
  return { view: live, round, showing: "live" };
}

/** Whether the felt shows the last round's end (its results beside it), not the round under way. */
function showsLastRound() {
  return state.lastRound !== null && Number(byId("felt").dataset.round) === state.lastRound.round;
}

let feltDrawn = false;

/** The back bets of the round the felt shows, by box (spain-1979, docs/rules.md#D-BJ-28). */
function backBetsBySeat(round) {
  let list = [];
  if (Number(round) === state.round?.id) list = state.round.back_bets ?? [];
  else if (Number(round) === state.ending?.round) list = state.ending.backBets ?? [];
  else if (Number(round) === state.lastRound?.round) list = state.lastRound.back_bets ?? [];
  return backBetsByBox(list);
}

/** This player's back bets in the last round, settled: each is a result of theirs too. */
function myBackBetResults() {
  return settledBackBets(state.lastRound?.back_bets).filter((back) => back.backer === session.username);
}

function drawFeltNow() {
  const { view, round, showing } = feltNow();
  const felt = byId("felt");
  felt.dataset.showing = showing;
  felt.dataset.round = round;
  drawFelt(byId("dealer-area"), byId("seats"), view, seatMap(state.table, state.profile), {
    mySeats: mySeats(),
    sitButtonFor,
    sittingOut: new Set((state.table?.sitting_out ?? []).map(Number)),
    backBets: backBetsBySeat(round),
    caption: showing === "last-round" ? t("table.last_round", { round: state.lastRound.round }) : null,
  });
  // On the page's first drawing, and for a round not watched here, the cards are all down.
  paceDeal(felt, round, { still: !feltDrawn || showing === "last-round", then: afterCardsTurn });
  feltDrawn = feltDrawn || view !== null;
}

function drawSeatControls() {
  const box = byId("seat-controls");
  const mine = [...mySeats()].sort((a, b) => a - b);
  if (!mine.length) {
    redrawChildren(box, h("p", { class: "hint" }, state.table?.is_open === false ? t("lobby.closed") : t("table.choose_seat")));
    return;
  }
  const held = state.round?.stakes ?? {};
  const away = mine.filter((seat) => (state.table?.sitting_out ?? []).map(Number).includes(seat));
  redrawChildren(
    box,
    h("p", {}, t("table.you_sit_at", { seats: mine.join(", ") })),
    away.length ? h("p", { class: "hint you-sit-out" }, t("table.you_sit_out", { seats: away.join(", ") })) : "",
    isBetting()
      ? h("div", { class: "row wrap" }, mine.filter((seat) => !held[String(seat)]).map((seat) => h("button", { type: "button", class: "leave", dataset: { focusKey: `leave-${seat}` }, onclick: () => run(() => server.leave(tableId, seat)) }, t("table.leave_seat", { seat }))))
      : "",
  );
}

function drawBetForm() {
  const form = byId("bet-form");
  const seats = [...mySeats()].sort((a, b) => a - b);
  const show = seats.length > 0 && isBetting();
  form.hidden = !show;
  if (!show) return;
  const inputs = byId("wager-inputs");
  const wagers = wagersOfTable();
  const wanted = seats.flatMap((seat) => wagers.map((wager) => `${seat}:${wager.name}`));
  const present = [...inputs.querySelectorAll("input")].map((input) => input.name);
  if (wanted.join("|") !== present.join("|")) {
    inputs.replaceChildren(
      ...seats.flatMap((seat) =>
        wagers.map((wager) => {
          const id = `wager-${seat}-${wager.name.replace(/[^a-z0-9]/gi, "_")}`;
          const name = tOr(`wager.${wager.name}`, wager.name);
          const label = seats.length > 1 ? t("table.wager_on_seat", { wager: name, seat }) : name;
          return h(
            "label",
            { for: id, class: "wager" },
            h("span", {}, label),
            h("input", {
              id, name: `${seat}:${wager.name}`, type: "number", inputmode: "numeric", min: 0, step: 1,
              max: wager.maximum ?? null, value: wager.optional ? 0 : wager.minimum,
              dataset: { seat, wager: wager.name },
              oninput: () => drawBetSpots(),
            }),
            h("small", {}, t("lobby.limits_range", { minimum: money(wager.minimum), maximum: money(wager.maximum) })),
          );
        }),
      ),
    );
    stakeChanges.length = 0;
  }
  const chips = byId("chip-buttons");
  if (!chips.childElementCount) {
    chips.replaceChildren(
      ...CHIP_VALUES.map((value) =>
        h("button", {
          type: "button", class: `chip chip-${value}`, dataset: { chip: value, focusKey: `chip-${value}` },
          "aria-label": t("table.choose_chip", { amount: money(value) }),
          onclick: () => { chosenChip = value; drawChips(); },
        }, money(value)),
      ),
    );
    byId("bet-tools").replaceChildren(
      h("button", { type: "button", class: "undo-bet", onclick: undoStake }, t("table.undo")),
      h("button", { type: "button", class: "clear-bets", onclick: () => setStakes(stakeInputs().map((input) => [input, 0])) }, t("table.clear")),
      h("button", { type: "button", class: "rebet", onclick: () => rebet(1) }, t("table.rebet")),
      h("button", { type: "button", class: "rebet-double", onclick: () => rebet(2) }, t("table.rebet_double")),
    );
  }
  drawChips();
  const staked = seats.some((seat) => state.round?.stakes?.[String(seat)]);
  byId("ready").hidden = !staked;
  focusDealOnceShown();
}

// Once the bets are placed, Deal is the next key press: the window closes as soon as every
// present player has said ready (D-GEN-7), so nobody need wait out its 15 s.
let dealIsNext = false;
function focusDealOnceShown() {
  const ready = byId("ready");
  if (!dealIsNext || ready.hidden || ready.disabled) return;
  dealIsNext = false;
  ready.focus({ preventScroll: true });
}

// --- bets on the felt: a spot per wager of each of this player's seats, the chosen chip goes
// to the spot pressed; the amounts live in the bet form's fields, which Place bets sends ------

let chosenChip = CHIP_VALUES[1];
const stakeChanges = []; // for Undo: each change, the fields as they were before it
const refusals = new Map(); // "seat:wager" -> why the server refused the bet last sent there

function stakeInputs() {
  return [...byId("wager-inputs").querySelectorAll("input")];
}

function setStakes(changes) {
  const before = changes.map(([input]) => [input.name, input.value]);
  if (changes.every(([input, value]) => input.value === String(value))) return;
  stakeChanges.push(before);
  for (const [input, value] of changes) input.value = String(value);
  drawBetSpots();
}

function undoStake() {
  const before = stakeChanges.pop();
  if (!before) return;
  for (const [name, value] of before) {
    const input = byId("wager-inputs").querySelector(`input[name="${CSS.escape(name)}"]`);
    if (input) input.value = value;
  }
  drawBetSpots();
}

/** The bets of this player's last round, again (``times`` 2: doubled). */
function rebet(times) {
  const seats = new Map((lastView()?.seats ?? []).map((entry) => [Number(entry.seat), entry.bets ?? {}]));
  setStakes(stakeInputs().map((input) => [input, Number(seats.get(Number(input.dataset.seat))?.[input.dataset.wager] ?? 0) * times]));
}

function drawChips() {
  for (const button of byId("chip-buttons").querySelectorAll("button[data-chip]")) {
    button.setAttribute("aria-pressed", String(Number(button.dataset.chip) === chosenChip));
  }
  byId("chosen-chip").textContent = t("table.chosen_chip", { amount: money(chosenChip) });
  const last = lastView()?.seats?.some((entry) => mySeats().has(Number(entry.seat)));
  for (const button of document.querySelectorAll("#bet-tools .rebet, #bet-tools .rebet-double")) button.hidden = !last;
}

/** The spots on the felt, in each of this player's seats while bets are open: the wager, the
 * amount in its field, its limits; pressing one adds the chosen chip. */
function drawBetSpots() {
  const wagers = new Map(wagersOfTable().map((wager) => [wager.name, wager]));
  const show = isBetting();
  for (const seatBox of byId("seats").querySelectorAll("li.seat.mine")) {
    const inputs = stakeInputs().filter((input) => input.dataset.seat === seatBox.dataset.seat);
    let spots = seatBox.querySelector(".bet-spots");
    const key = inputs.map((input) => input.name).join("|");
    if (!show || !inputs.length) {
      spots?.remove();
      continue;
    }
    if (!spots || spots.dataset.key !== key) {
      spots?.remove();
      spots = h("div", { class: "bet-spots", dataset: { key } }, inputs.map((input) => {
        const wager = wagers.get(input.dataset.wager) ?? { minimum: 1, maximum: null };
        const name = tOr(`wager.${input.dataset.wager}`, input.dataset.wager);
        return h("button", {
          type: "button", class: "bet-spot", dataset: { seat: input.dataset.seat, wager: input.dataset.wager, focusKey: `spot-${input.name}` },
          onclick: () => setStakes([[input, (Number(input.value) || 0) + chosenChip]]),
        },
        h("span", { class: "spot-name" }, name),
        h("span", { class: "spot-amount" }),
        h("small", { class: "spot-limits" }, t("lobby.limits_range", { minimum: money(wager.minimum), maximum: money(wager.maximum) })));
      }));
      seatBox.querySelector(".seat-head").after(spots);
    }
    for (const spot of spots.querySelectorAll(".bet-spot")) {
      const input = inputs.find((item) => item.dataset.wager === spot.dataset.wager);
      const amount = Number(input?.value) || 0;
      spot.classList.toggle("staked", amount > 0);
      const refusal = refusals.get(input?.name);
      let why = spot.parentElement.querySelector(`.spot-refusal[data-wager="${CSS.escape(spot.dataset.wager)}"]`);
      if (refusal && !why) {
        why = h("small", { class: "spot-refusal", role: "alert", dataset: { wager: spot.dataset.wager } });
        spot.after(why);
      }
      if (why && !refusal) why.remove();
      else if (why) why.textContent = refusal;
      spot.querySelector(".spot-amount").textContent = amount > 0 ? money(amount) : "–";
      spot.setAttribute("aria-label", `${spot.querySelector(".spot-name").textContent} ${amount > 0 ? money(amount) : "0"}: ${t("table.add_chip", { amount: money(chosenChip) })}`);
    }
  }
}

/** How many hands a seat plays now (more than one after a split). */
function handCount(seat) {
  const entry = currentView()?.seats.find((item) => Number(item.seat) === Number(seat));
  return entry?.hands.length || 1;
}

function actionLabel(action) {
  const [name, amount] = action.split(" ");
  return amount === undefined
    ? tOr(`action.${name}`, name)
    : t("action.with_amount", { action: tOr(`action.${name}`, name), amount: money(amount) });
}

function drawActions() {
  const box = byId("actions");
  const pending = state.round?.pending;
  const legal = myLegalActions();
  const key = legal.length ? `${state.round.id}|${pending.seat}|${pending.hand}|${legal.join("|")}` : "";
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    const hadFocus = box.contains(document.activeElement);
    box.replaceChildren(
      ...legal.map((action, index) =>
        h("button", {
          type: "button", class: "action", dataset: { action, focusKey: `action-${action.split(" ")[0]}` },
          "aria-keyshortcuts": index < 9 ? String(index + 1) : null,
          onclick: () => run(() => server.act(tableId, Number(pending.seat), action)),
        }, actionLabel(action)),
      ),
    );
    const first = box.querySelector("button");
    if (first && (hadFocus || !document.activeElement || document.activeElement === document.body)) first.focus({ preventScroll: true });
  }
  const prompt = byId("prompt");
  if (legal.length) {
    const question = tOr(`question.${pending.question}`, pending.question ?? "");
    const many = pending.hand !== null && pending.hand !== undefined && handCount(pending.seat) > 1;
    prompt.textContent = many ? t("table.your_turn_hand", { hand: pending.hand + 1, question }) : t("table.your_turn", { question });
  } else if (pending) {
    prompt.textContent = t("table.waiting_for_seat", { seat: pending.seat });
  } else if (state.round?.card_needed) {
    // A physical shoe: the dealer has the next card to deal (where it goes is public).
    prompt.textContent = t("table.waiting_for_dealer");
  } else if (isBetting() && Object.keys(state.round?.stakes ?? {}).length) {
    prompt.textContent = t("table.waiting_for_bets");
  } else {
    prompt.textContent = "";
  }
}

/** Results that say why on their own. */
const REASON_OF_RESULT = {
  fold: "banner.reason.fold",
  bust: "banner.reason.bust",
  blackjack: "banner.reason.blackjack",
  returned: "banner.reason.returned",
  void: "banner.reason.void",
};

/** Why a wager of this player's came to what it did, in words, from the view's own facts: the
 * dealer's or the banker's hand, the totals, the result the engine settled. */
function reasonOf(view, row) {
  const entry = view.seats.find((item) => Number(item.seat) === Number(row.seat));
  const hand = entry?.hands?.find((item) => item.hand === row.hand) ?? entry?.hands?.[0];
  const dealer = view.dealer;
  if (Object.hasOwn(REASON_OF_RESULT, row.result)) return t(REASON_OF_RESULT[row.result]);
  if (!["win", "lose", "push"].includes(row.result)) return tOr(`result.${row.result}`, row.result);
  if (view.winner) return tOr(`baccarat.won.${view.winner}`, view.winner);
  if (dealer?.qualifies === false) return t("holdem.does_not_qualify");
  if (typeof dealer?.total === "string" && typeof hand?.total === "string") {
    return t("banner.reason.hands", { you: tOr(`poker.${hand.total}`, hand.total), dealer: tOr(`poker.${dealer.total}`, dealer.total) });
  }
  if (row.hand === null || row.hand === undefined || typeof dealer?.total !== "number") return tOr(`wager.${row.wager}`, row.wager);
  if (dealer.total > 21) return t("banner.reason.dealer_busts");
  if (isDealerBlackjack(dealer)) {
    // A blackjack against a blackjack is a push (Peru 2016 Art. 13); "your 21 against the
    // dealer's 21" named neither.
    const natural = entry?.hands?.length === 1 && hand?.cards?.length === 2 && hand.total === 21;
    return t(natural ? "banner.reason.both_blackjack" : "banner.reason.dealer_blackjack");
  }
  return t("banner.reason.totals", { you: hand?.total ?? "", dealer: dealer.total });
}

function outcomeOf(row) {
  const net = centsOf(row.payout) - centsOf(row.stake);
  if (net > 0) return { kind: "won", text: t("banner.you_win", { amount: moneyMinor(net) }) };
  if (net === 0) return { kind: "even", text: t("banner.stake_back", { amount: moneyUnits(row.stake) }) };
  return { kind: "lost", text: t("banner.you_lose", { amount: moneyMinor(-net) }) };
}

/** A line per wager of this player's in the round the felt shows ended: "Dealer busts: you
 * win 15.00", the wager named where there are several. */
function drawBanner(show) {
  const banner = byId("round-banner");
  const view = lastView();
  const seats = mySeats();
  const rows = (view?.results ?? [])
    .filter((row) => seats.has(Number(row.seat)))
    .sort(bySeatHandsFirst); // the main bet's line first, as in the results table
  const backed = myBackBetResults();
  banner.hidden = !show || rows.length + backed.length === 0;
  if (banner.hidden) return;
  const many = rows.length + backed.length > 1;
  const backLines = backed.map((back) => {
    const outcome = outcomeOf({ stake: back.amount_minor / 100, payout: back.payout_minor / 100 });
    const line = t("banner.back_bet_line", { seat: back.seat, outcome: outcome.text });
    return h("li", { dataset: { seat: back.seat, wager: "back", outcome: outcome.kind } }, line);
  });
  const lines = rows.map((row) => {
    const outcome = outcomeOf(row);
    const line = t("banner.line", { reason: reasonOf(view, row), outcome: outcome.text });
    let what = tOr(`wager.${row.wager}`, row.wager);
    if (row.hand !== null && row.hand !== undefined && rows.filter((r) => r.wager === row.wager).length > 1) what = t("table.seat_hand", { seat: row.seat, hand: row.hand + 1 });
    return h("li", { dataset: { seat: row.seat, wager: row.wager, outcome: outcome.kind } }, many ? t("banner.line_of", { what, line }) : line);
  });
  lines.push(...backLines);
  const key = JSON.stringify([state.lastRound.round, ...lines.map((line) => line.textContent)]);
  if (banner.dataset.key === key) return;
  banner.dataset.key = key;
  banner.replaceChildren(h("ul", {}, lines), h("a", { href: `/recall/${state.lastRound.round}` }, t("table.recall_round")));
}

/** Each time a card turns up: the decisions wait until the cards dealt are all seen (a
 * player does not hit on a card still coming), and the last round's end for its last card. */
function afterCardsTurn() {
  const box = byId("actions");
  const wait = !dealtOut(byId("felt"));
  if (box.hidden !== wait) {
    box.hidden = wait;
    tick(); // the decision's clock shows with its buttons
    const first = box.querySelector("button");
    if (first && !wait && (!document.activeElement || document.activeElement === document.body)) first.focus({ preventScroll: true });
  }
  // Once dealt out, the last round's cards step back for the next round's spots.
  byId("felt").classList.toggle("ended", showsLastRound() && !wait);
  drawRoundEnd();
  drawTableInfo(tableId, state.table, state.round, currentView(), !wait);
}

/** The last round's end, once its cards are all down: the banner and the results. */
function drawRoundEnd() {
  const show = showsLastRound() && dealtOut(byId("felt"));
  drawBanner(show);
  drawResults(show);
  const link = byId("last-round-link");
  link.hidden = state.lastRound === null;
  if (state.lastRound) {
    link.href = `/recall/${state.lastRound.round}`;
    link.textContent = t("table.last_round", { round: state.lastRound.round });
  }
}

function drawResults(show) {
  const record = state.lastRound;
  const rows = lastView()?.results ?? [];
  const backs = settledBackBets(record?.back_bets);
  byId("results").hidden = !show || rows.length + backs.length === 0;
  if (byId("results").hidden) return;
  byId("results-heading").textContent = t("table.results_of", { round: record.round });
  const seats = mySeats();
  byId("results-body").replaceChildren(...resultRows(rows, backs, seats, session.username));
  labelCells(byId("results-table")); // on a phone each row reads as a card, each value named
  byId("results-net").textContent = netSentence(rows, backs, seats, session.username);
  byId("recall-link").href = `/recall/${record.round}`;
}

/** While a request is under way its buttons are disabled, not silently ignored. */
function applyBusy() {
  document.body.toggleAttribute("aria-busy", state.busy);
  for (const button of document.querySelectorAll(".controls button, #felt button.sit")) {
    // A button whose action the server would refuse stays disabled (issue 13, item 9).
    button.disabled = state.busy || button.dataset.refused !== undefined;
  }
}

// --- back bets (spain-1979: a bet on another player's box, with the owner's consent) ----------

let backBetsInFlight = false;
let backBetsAgain = false;

/** Ask again which back bets concern this player (after every change at the table). */
async function refreshBackBets() {
  if (!state.profile?.back_betting) return;
  if (backBetsInFlight) {
    backBetsAgain = true;
    return;
  }
  backBetsInFlight = true;
  try {
    do {
      backBetsAgain = false;
      const before = JSON.stringify((state.backBets ?? []).filter((back) => back.is_mine).map((back) => [back.id, back.status]));
      state.backBets = (await server.backBets(tableId)).back_bets;
      const after = JSON.stringify(state.backBets.filter((back) => back.is_mine).map((back) => [back.id, back.status]));
      // A back bet of mine accepted: its stake left the wallet then (not at settlement).
      if (before !== after) showBalance().catch(reportError);
    } while (backBetsAgain);
  } finally {
    backBetsInFlight = false;
  }
  drawBackBets();
  applyBusy();
}

/** Why the server would refuse to accept ``back`` now (docs/rules.md#D-BJ-28), or null:
 * the page does not send a refusal it can see coming (issue 13, item 9). */
function consentRefusal(back) {
  const seat = Number(back.seat);
  const box = Number(state.round?.stakes?.[String(seat)] ?? 0);
  if (!box) return messageOf({ status: 422, code: "back_box_without_bet", params: { seat } });
  const maximum = wagersOfTable()[0]?.maximum;
  const riding = (state.round?.back_bets ?? []).filter((other) => Number(other.seat) === seat).reduce((sum, other) => sum + other.amount_minor, 0);
  if (maximum !== null && maximum !== undefined && box + riding + back.amount > maximum * 100) {
    return messageOf({ status: 422, code: "back_bets_over_box_maximum", params: { seat, maximum } });
  }
  return null;
}

function drawBackBets() {
  const section = byId("back-bets");
  section.hidden = !state.profile?.back_betting;
  if (section.hidden) return;
  const list = byId("back-bet-list");
  list.replaceChildren(
    ...(state.backBets ?? []).map((back) => {
      if (back.awaits_my_consent) {
        const refused = consentRefusal(back);
        // Why Accept is disabled is said beside it: a phone shows no hover tooltip.
        const why = refused ? h("small", { class: "control-refusal", id: `back-bet-${back.id}-why` }, refused) : null;
        return h("li", { dataset: { backBet: back.id } },
          t("table.back_ask", { backer: back.backer, seat: back.seat, amount: moneyMinor(back.amount) }), " ",
          h("button", {
            type: "button", class: "accept", dataset: refused ? { refused } : {}, "aria-describedby": why ? why.id : null,
            onclick: () => run(() => server.consent(tableId, back.id, true)),
          }, t("table.accept")),
          " ",
          h("button", { type: "button", class: "refuse", onclick: () => run(() => server.consent(tableId, back.id, false)) }, t("table.refuse")),
          why,
        );
      }
      return h("li", { dataset: { backBet: back.id, status: back.status } },
        t(back.is_mine ? "table.my_back_bet" : "table.back_on_my_box", {
          backer: back.backer, seat: back.seat, amount: moneyMinor(back.amount), status: tOr(`backstatus.${back.status}`, back.status),
        }));
    }),
  );
  const mine = mySeats();
  const others = [...seatMap(state.table, state.profile).entries()].filter(([seat, who]) => who !== null && !mine.has(seat));
  const form = byId("back-bet-form");
  form.hidden = !isBetting() || others.length === 0;
  const select = byId("back-seat");
  const wanted = others.map(([seat, who]) => `${seat}:${who}`).join("|");
  if (select.dataset.options !== wanted) {
    select.dataset.options = wanted;
    select.replaceChildren(...others.map(([seat, who]) => h("option", { value: seat }, t("table.seat_of_player", { seat, player: who }))));
  }
}

/** Say why a back bet was (or would be) refused beside the form's button, or clear it. */
function sayBackBetRefusal(text) {
  const why = byId("back-bet-why");
  why.hidden = !text;
  why.textContent = text ?? "";
}

/** Why the server would refuse to ask for this back bet at once (issue 26, item 4): over the
 * box maximum or the balance, no consent could ever take it. The server checks again. */
function backBetRefusal(seat, amount) {
  const maximum = wagersOfTable()[0]?.maximum;
  if (maximum !== null && maximum !== undefined && amount > maximum) {
    return messageOf({ status: 422, code: "back_bet_over_maximum", params: { seat, amount, maximum } });
  }
  if (state.balance !== undefined && amount * 100 > state.balance) {
    return messageOf({ status: 422, code: "back_bet_over_balance", params: { seat, amount, balance_minor: state.balance } });
  }
  return null;
}

byId("back-bet-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const text = form.amount.value.trim();
  if (!/^\d+$/.test(text) || Number(text) === 0) {
    sayBackBetRefusal(t("table.whole_amount", { value: text }));
    return;
  }
  const seat = Number(form.seat.value);
  const foreseen = backBetRefusal(seat, Number(text));
  sayBackBetRefusal(foreseen);
  if (foreseen) return;
  run(async () => {
    try {
      const asked = await server.askBackBet(tableId, seat, Number(text));
      sayBackBetRefusal(null);
      return asked;
    } catch (error) {
      if (error instanceof ApiError && error.status !== 401) sayBackBetRefusal(messageOf(error));
      throw error;
    }
  });
});

function draw() {
  // Redrawing replaces buttons; the one a keyboard user was on keeps the focus.
  const focusKey = document.activeElement?.dataset?.focusKey;
  drawHead();
  drawFeltNow();
  drawSeatControls();
  drawBetForm();
  drawBetSpots();
  drawActions();
  drawBackBets();
  applyBusy();
  tick();
  if (focusKey && document.activeElement?.dataset?.focusKey !== focusKey) {
    document.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
  }
}

// --- the timer --------------------------------------------------------------------------------

/** The round's clock: beside the decision's buttons while this player decides (on a phone
 * the bar with the buttons is on the screen), else in the table's head. A decision's clock
 * shows once the cards it asks about are drawn: the server's deadline allows for their
 * drawing (service/pace.py), so it starts there with the decision's whole time. */
function tick() {
  const deadline = state.round?.deadline;
  const deciding = myLegalActions().length > 0;
  const drawing = deciding && byId("actions").hidden;
  const running = deadline !== null && deadline !== undefined && !drawing;
  const left = running ? Math.max(0, Math.ceil((localTimeOf(deadline) - Date.now()) / 1000)) : 0;
  for (const [timer, seconds, shown] of [[byId("timer"), byId("timer-seconds"), running && !deciding], [byId("decision-timer"), byId("decision-seconds"), running && deciding]]) {
    timer.hidden = !shown;
    if (!shown) continue;
    timer.dataset.urgent = left <= 5 ? "true" : "false";
    seconds.textContent = t("table.seconds", { seconds: left });
  }
}
setInterval(tick, 250);

// --- talking to the server ---------------------------------------------------------------------

async function showBalance() {
  const me = await server.me();
  state.balance = me.balance;
  byId("balance").textContent = moneyMinor(me.balance);
}

/** Whether ``previous`` was a round this player staked in that has now ended. */
function endedWithMyStake(previous) {
  if (!previous || !state.round || previous.id === state.round.id) return false;
  const backed = (previous.back_bets ?? []).some((back) => back.backer === session.username);
  return (backed || [...mySeats()].some((seat) => previous.stakes?.[String(seat)])) && lastRoundAsked < previous.id;
}

/** When a round this player staked in has ended, fetch its recall: its last step is the end
 * the felt then deals out (the dealer's drawing) and the results say. */
async function noteRoundChange(previous) {
  if (!state.ending || state.ending.round !== previous?.id) return;
  lastRoundAsked = previous.id;
  try {
    state.lastRound = { ...(await server.round(previous.id)), watched: state.ending.view !== null };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  } finally {
    state.ending = null;
  }
  draw();
  showBalance().catch(reportError);
}

/** A snapshot from GET or from the socket. */
/** The limits of the round under way, as the table reports them (the operator may change
 * them between rounds, docs/rules.md §6). */
function withTableLimits(profile, limits) {
  if (!profile || !limits) return profile;
  return { ...profile, wagers: profile.wagers.map((wager) => (limits[wager.name] ? { ...wager, ...limits[wager.name] } : wager)) };
}

function absorb(snapshot) {
  if (!snapshot?.table || !snapshot?.round) return;
  const previous = state.round;
  state.table = snapshot.table;
  state.round = snapshot.round;
  state.profile = withTableLimits(state.profile, snapshot.table.limits);
  if (endedWithMyStake(previous)) {
    // The felt holds the round as last seen until its end comes, then deals that out.
    state.ending = { round: previous.id, view: state.watched?.round === previous.id ? state.watched.view : null, backBets: previous.back_bets ?? [] };
  }
  const live = currentView();
  if (live && live.phase !== "betting") state.watched = { round: state.round.id, view: live };
  draw();
  noteRoundChange(previous).catch(reportError);
  refreshBackBets().catch(reportError);
  // A backer without a seat still sees the round's end in the balance.
  if (previous && previous.id !== state.round.id) showBalance().catch(reportError);
}

async function refresh() {
  absorb(await server.table(tableId));
}

/** The round this player last staked in at this table, once ended (after a reload): asked
 * of this table, since the player's very last round may be at another; two, since the newer
 * may be the one taking bets now (a table has one round under way at most). */
async function recallLastRound() {
  const answer = await server.myRounds(2, 0, tableId);
  const last = answer.rounds?.find((round) => Array.isArray(round.events));
  if (last && Array.isArray(last.events) && last.table_id === tableId) {
    lastRoundAsked = last.round;
    state.lastRound = await server.round(last.round);
    draw();
  }
}

/** One press at the table (common.js ``once``): every control of the table held until its
 * answer. */
async function run(request) {
  if (state.busy) return;
  state.busy = true;
  applyBusy();
  clearNotice();
  try {
    await once(byId("felt").closest(".table-page"), request);
    // With the socket open, the change comes over it, in order; an HTTP snapshot could
    // arrive after a newer pushed one and draw the table as it was.
    if (!socketOpen) await refresh();
  } catch (error) {
    reportError(error);
    if (error instanceof ApiError && error.status === 401) location.assign(`/sign-in?next=${encodeURIComponent(location.pathname)}`);
  } finally {
    state.busy = false;
    applyBusy();
    focusDealOnceShown();
  }
  showBalance().catch(reportError);
}

byId("bet-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const inputs = [...byId("wager-inputs").querySelectorAll("input")];
  const bets = inputs.map((input) => ({ seat: Number(input.dataset.seat), wager: input.dataset.wager, text: input.value.trim() }));
  for (const bet of bets) {
    if (!/^\d+$/.test(bet.text || "0")) {
      showNotice(t("table.whole_amount", { value: bet.text }), "error");
      return;
    }
  }
  const seats = currentView()?.seats ?? [];
  const placed = (bet) => Number(seats.find((item) => Number(item.seat) === bet.seat)?.bets[bet.wager] ?? 0);
  // Only what changes is sent: a wager placed again replaces it, 0 withdraws one placed,
  // and a 0 never placed is no wager (docs/rules.md §6).
  const wanted = bets.filter((bet) => Number(bet.text || "0") !== placed(bet));
  if (bets.every((bet) => Number(bet.text || "0") === 0 && placed(bet) === 0)) {
    showNotice(t("table.no_bet_yet"), "error"); // a bet of nothing is not silently nothing
    return;
  }
  // A side bet rides on its main wager, which the table's wager list names first: side bets
  // are withdrawn before the main wager, and the main wager placed before them.
  const withdrawn = wanted.filter((bet) => Number(bet.text || "0") === 0).reverse();
  const staked = wanted.filter((bet) => Number(bet.text || "0") !== 0);
  refusals.clear();
  const foreseen = foreseenRefusals(bets, placed);
  if (foreseen.size) {
    // Said on the spot and in the notice, as the server would, without asking it (item 9).
    for (const [spot, why] of foreseen) refusals.set(spot, why);
    drawBetSpots();
    showNotice([...foreseen.values()][0], "error");
    return;
  }
  run(async () => {
    dealIsNext = false;
    for (const bet of [...withdrawn, ...staked]) {
      try {
        await server.bet(tableId, bet.seat, bet.wager, Number(bet.text || "0"));
      } catch (error) {
        // The refusal is said on the spot as well as in the notice.
        if (error instanceof ApiError && error.status !== 401) refusals.set(`${bet.seat}:${bet.wager}`, messageOf(error));
        throw error;
      } finally {
        drawBetSpots();
      }
    }
    dealIsNext = true;
  });
});
/** The refusals the server would answer to these bets, by spot ("seat:wager"), foreseen from
 * the table's limits, its wagers and the balance (issue 13, item 9: a page does not send a
 * request it knows will be refused; the server checks everything again). */
function foreseenRefusals(bets, placed) {
  const found = new Map();
  const wagers = new Map(wagersOfTable().map((wager) => [wager.name, wager]));
  const refuse = (bet, code, params) => found.set(`${bet.seat}:${bet.wager}`, messageOf({ status: 422, code, params }));
  for (const bet of bets) {
    const amount = Number(bet.text || "0");
    const wager = wagers.get(bet.wager);
    if (!wager || amount === 0) continue;
    if (wager.name === "progressive" && amount !== wager.minimum) refuse(bet, "progressive_is_fixed", { stake: wager.minimum });
    else if (amount < wager.minimum || (wager.maximum !== null && wager.maximum !== undefined && amount > wager.maximum)) {
      refuse(bet, "bet_outside_limits", { seat: bet.seat, wager: bet.wager, amount, minimum: wager.minimum, maximum: wager.maximum });
    }
  }
  // A side bet rides on its box's own wager (the first, not optional): 21+3 on the main bet,
  // the progressive on the Ante.
  const own = wagersOfTable().find((wager) => !wager.optional);
  if (own) {
    for (const bet of bets) {
      if (bet.wager === own.name || Number(bet.text || "0") === 0) continue;
      const main = bets.find((other) => other.seat === bet.seat && other.wager === own.name);
      if (main && Number(main.text || "0") === 0) refuse(bet, "bet_leaves_box_undealable", { seat: bet.seat, wager: bet.wager });
    }
  }
  const more = bets.reduce((sum, bet) => sum + Math.max(0, Number(bet.text || "0") - placed(bet)), 0) * 100;
  if (!found.size && state.balance !== undefined && more > state.balance) {
    const first = bets.find((bet) => Number(bet.text || "0") > placed(bet));
    if (first) refuse(first, "balance_too_low", { amount_minor: more });
  }
  return found;
}

byId("ready").addEventListener("click", () => run(() => server.ready(tableId)));

// Keys 1-9 press the decision buttons (they are real buttons: Tab and Enter work too).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const index = Number(event.key) - 1;
  if (Number.isInteger(index) && index >= 0 && index < 9) {
    const button = byId("actions").querySelectorAll("button")[index];
    if (button) {
      event.preventDefault();
      button.click();
    }
  }
});

let retry = 0;
let socketOpen = false;
const RECONNECT_MS = Number(document.body.dataset.reconnectMs); // service/pace.py

function setConnection(kind) {
  const element = byId("connection");
  element.dataset.state = kind;
  element.textContent = t(`table.${kind}`);
}

/** A reality check (issue 27, item 2): the session's time, net and amount wagered, and the
 * choice to go on or stop; stopping signs out. */
function showRealityCheck(check) {
  const minutes = Math.floor(check.played_seconds / 60);
  byId("reality-text").textContent = t("reality.text", { minutes: check.interval_minutes });
  byId("reality-played").textContent = t("reality.duration", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
  byId("reality-net").textContent = check.net_minor > 0 ? `+${moneyMinor(check.net_minor)}` : moneyMinor(check.net_minor);
  byId("reality-wagered").textContent = moneyMinor(check.wagered_minor);
  const dialog = byId("reality-check");
  if (!dialog.open) dialog.showModal();
}

byId("reality-continue").addEventListener("click", () => byId("reality-check").close());
byId("reality-stop").addEventListener("click", () => byId("sign-out").click());

function connect() {
  setConnection(retry ? "reconnecting" : "connecting");
  const socket = new WebSocket(server.tableSocketUrl(tableId, session.token));
  // "Connected" is said once the server's first state is drawn, not when the socket opens:
  // until then the page holds the round as it was before the connection dropped, and a
  // server that restarted meanwhile gave the decision a new deadline (README, "Recovery").
  let synced = false;
  socket.addEventListener("open", () => {
    retry = 0;
    socketOpen = true;
    clearNetworkNotice(); // "the server cannot be reached" was true, and is no longer
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "state") {
      absorb(message);
      if (!synced) {
        synced = true;
        setConnection("connected");
      }
    }
    if (message.type === "reality_check") showRealityCheck(message);
  });
  socket.addEventListener("close", (event) => {
    socketOpen = false;
    if (event.code === 4401) {
      if (isSigningOut()) return; // the sign-out goes to /sign-in itself, and must win
      session.end();
      location.assign(`/sign-in?next=${encodeURIComponent(location.pathname)}`);
      return;
    }
    if (event.code === 4404) {
      showNotice(event.reason, "error");
      return;
    }
    if (event.code === 4403) {
      // A break or self-exclusion (issue 27, item 3): no table until it ends; no reconnect.
      byId("connection").dataset.state = "closed";
      byId("connection").textContent = t("table.closed");
      showNotice(t(`error.${event.reason}`), "error");
      return;
    }
    retry += 1;
    setConnection("reconnecting");
    // Soon, and at least every RECONNECT_MS: a server restarting mid-decision gives the
    // decision its time again from when it is back, allowing this long for the page to be.
    setTimeout(connect, Math.min(RECONNECT_MS, 250 * 2 ** Math.min(retry, 5)));
  });
}

async function start() {
  const [snapshot, profiles] = await Promise.all([server.table(tableId), profilesByName()]);
  state.profile = profileOfTable(snapshot.table, profiles) ?? null;
  absorb(snapshot);
  connect();
  await Promise.all([showBalance(), recallLastRound()]);
}

if (requireSession()) start().catch(reportError);
