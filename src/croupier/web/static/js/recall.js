// The recall of a past round (R14), as the server serves it: the engine's view of the round
// after each step (the opening, each bet, the deal, each decision), masked for this viewer as
// it was at the table, with the events each step recorded. The page draws the views; it
// rebuilds nothing. First / previous / next / last (and the arrow keys) move between steps.

import {
  byId, clearNotice, h, labelCells, minorOf, moneyMinor, once, onSignOut, reportError, requireSession, session, setUpChrome, showNotice, t, tOr,
} from "./common.js";
import { showCardsEntered } from "./cards-entered.js";
import { correctionStatus, corrections, signedMinorOf } from "./dispute-api.js";
import { describe } from "./event-words.js";
import { drawFelt } from "./felt.js";
import { backBetsByBox, netSentence, resultRows } from "./results.js";
import { settledWagers } from "./rounds.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

const roundId = Number(document.body.dataset.roundId);
let steps = []; // {command, events, view} from the server, the opening first
let players = new Map(); // seat -> who played it
let mySeats = new Set(); // the viewer's own seats
let backBets = new Map(); // box -> the back bets on it (spain-1979, docs/rules.md#D-BJ-28)
let step = 0; // the index of the step shown

function show() {
  const current = steps[step];
  byId("step-counter").textContent = t("recall.step_of", { step: step + 1, total: steps.length });
  byId("step-text").textContent = current.events.map(describe).join(" ");
  drawFelt(byId("dealer-area-recall"), byId("seats-recall"), current.view, players, { mySeats, backBets });
  const list = byId("event-list");
  for (const [index, item] of [...list.children].entries()) {
    item.classList.toggle("done", index <= step);
    if (index === step) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  keepInView(list, list.children[step]);
  byId("first-step").disabled = step === 0;
  byId("previous-step").disabled = step === 0;
  byId("next-step").disabled = step === steps.length - 1;
  byId("last-step").disabled = step === steps.length - 1;
}

/** Scroll the event list (not the page: the felt stays where the reader has it) so that the
 * step the felt shows is in sight: the list is shorter than a long round's events. */
function keepInView(list, item) {
  if (!item) return;
  const top = item.offsetTop; // .event-list is positioned: offsets are from its top
  const bottom = top + item.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
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
  // A backer is listed on the box he backed (role "backer"): the box is its owner's.
  const owners = (round.seats ?? []).filter((seat) => seat.role !== "backer");
  players = new Map(owners.map((seat) => [Number(seat.seat), seat.username]));
  mySeats = new Set(owners.filter((seat) => seat.username === session.username).map((seat) => Number(seat.seat)));
  backBets = backBetsByBox(round.back_bets);
  byId("round-facts").replaceChildren(
    ...fact(t("lobby.table"), round.table ?? "–"),
    ...fact(t("lobby.game"), tOr(`game.${round.game}`, round.game ?? "–")),
    ...fact(t("recall.rules_version"), round.rules_version ?? "–"),
    ...fact(t("me.status"), tOr(`status.${round.status}`, round.status ?? "–")),
    ...fact(t("recall.shoe"), round.shoe ? `#${round.shoe}` : "–"),
    ...fact(t("recall.seats"), owners.map((seat) => t("recall.seat_of", { seat: seat.seat, player: seat.username })).join(", ") || "–"),
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
  // At a physical shoe the inspector and the operator read who entered each card.
  showCardsEntered(byId("cards-entered"), round.cards_entered);
  showResults(settledWagers(round.events), round.back_bets ?? []);
  showCorrections(round.corrections ?? []);
  // The table's dealer and the operator propose a correction from here; an inspector confirms.
  byId("propose-correction").hidden = !round.may_propose_correction;
  if (round.may_propose_correction) {
    byId("propose-player").replaceChildren(...(round.players ?? []).map((name) => h("option", { value: name }, name)));
    // The table's dealer reads the round as staff: only its players dispute it.
    if (!(round.players ?? []).includes(session.username)) byId("dispute-round").hidden = true;
  }
}

byId("propose-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearNotice();
  const form = event.currentTarget;
  const minor = signedMinorOf(form.amount.value, minorOf);
  if (minor === null || minor === 0) {
    showNotice(t("correction.bad_amount", { value: form.amount.value.trim() }), "error");
    form.amount.focus();
    return;
  }
  try {
    const made = await once(form, () => corrections.propose(roundId, form.username.value, minor, form.reason.value));
    if (made === undefined) return; // pressed again meanwhile
    showNotice(t("correction.proposed_notice", { correction: made.correction }), "ok");
    form.reset();
    showCorrections((await server.round(roundId)).corrections ?? []);
  } catch (error) {
    reportError(error);
  }
});

/** What the round paid: each settled wager and each back bet on a box, with the viewer's net
 * (a backer's is their back bets'). */
function showResults(wagers, backs) {
  const rows = resultRows(wagers, backs, mySeats, session.username);
  byId("round-results").hidden = rows.length === 0;
  byId("recall-results-body").replaceChildren(...rows);
  labelCells(byId("recall-results"));
  const mine = mySeats.size > 0 || backs.some((back) => back.backer === session.username);
  byId("recall-results-net").hidden = !mine;
  byId("recall-results-net").textContent = mine ? netSentence(wagers, backs, mySeats, session.username) : "";
}

/** Corrections of what the round paid, found later: each with its amount, its reason and
 * the inspector who confirmed it (the operator also sees those proposed or refused). */
function showCorrections(corrections) {
  byId("round-corrections").hidden = corrections.length === 0;
  byId("correction-lines").replaceChildren(
    ...corrections.map((item) =>
      h("li", { dataset: { correction: item.correction, status: item.status } },
        item.status === "confirmed"
          ? t("correction.recall_line", { amount: moneyMinor(item.amount), reason: item.reason, by: item.decided_by ?? "–" })
          : `${moneyMinor(item.amount)} · ${item.reason} (${correctionStatus(item.status, t)})`),
    ),
  );
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

if (requireSession()) {
  load().catch((error) => {
    // No round to show (none of that number, or not this person's): nothing to dispute.
    byId("dispute-round").hidden = true;
    byId("propose-correction").hidden = true;
    reportError(error);
  });
}
