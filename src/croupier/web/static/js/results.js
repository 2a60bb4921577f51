// A finished round's results as rows of the results table, for the table page (the round
// that just ended) and the recall (a past round): each settled wager, then each back bet on a
// box (spain-1979, docs/rules.md#D-BJ-28), seen by its owner and by its backer alike.

import { h, moneyMinor, moneyUnits, t, tOr } from "./common.js";
import { centsOf } from "./rounds.js";

/** The back bets that settled (or were refunded): those still riding have no result yet. */
export function settledBackBets(backBets) {
  return (backBets ?? []).filter((back) => back.payout_minor !== null && back.payout_minor !== undefined);
}

/** Back bets by the box they ride on, for the felt (seat -> its back bets). */
export function backBetsByBox(backBets) {
  const bySeat = new Map();
  for (const back of backBets ?? []) bySeat.set(Number(back.seat), [...(bySeat.get(Number(back.seat)) ?? []), back]);
  return bySeat;
}

/** Results in the order a player reads them: by seat, each seat's hands (in order) before its
 * side bets (21+3, insurance), which have no hand. */
export function bySeatHandsFirst(a, b) {
  const sideLast = (r) => (r.hand === null || r.hand === undefined ? Number.MAX_SAFE_INTEGER : r.hand);
  return a.seat - b.seat || sideLast(a) - sideLast(b);
}

/** The rows of the results table: ``wagers`` ({seat, hand, wager, stake, payout, result}),
 * sorted by seat, each seat's hands first and then its side bets (the main bet is what a
 * player looks for), then ``backBets``; the viewer's (``mySeats``, ``me``) marked ``mine``.
 * A hand is numbered only where its seat split into several: "1 (hand 1)" beside a
 * single hand read as if a second were missing, and cramped the column. */
export function resultRows(wagers, backBets, mySeats, me) {
  const sorted = [...wagers].sort(bySeatHandsFirst);
  const handsOf = new Map();
  for (const r of sorted) {
    if (r.hand !== null && r.hand !== undefined) handsOf.set(r.seat, new Set([...(handsOf.get(r.seat) ?? []), r.hand]));
  }
  const place = (r) =>
    r.hand !== null && r.hand !== undefined && (handsOf.get(r.seat)?.size ?? 0) > 1
      ? t("table.seat_hand", { seat: r.seat, hand: r.hand + 1 })
      : String(r.seat);
  return [
    ...sorted.map((r) =>
      h("tr", { class: mySeats.has(Number(r.seat)) ? "mine" : "" },
        h("td", { class: "place" }, place(r)),
        h("td", {}, tOr(`wager.${r.wager}`, r.wager)),
        h("td", { class: "amount" }, moneyUnits(r.stake)),
        h("td", {}, h("span", { class: `result result-${r.result}` }, tOr(`result.${r.result}`, r.result))),
        h("td", { class: "amount" }, moneyUnits(r.payout)),
      ),
    ),
    ...settledBackBets(backBets).map((back) =>
      h("tr", { class: back.backer === me ? "mine back-bet" : "back-bet", dataset: { backBet: back.id } },
        h("td", {}, String(back.seat)),
        h("td", {}, t("table.back_bet_by", { backer: back.backer })),
        h("td", { class: "amount" }, moneyMinor(back.amount_minor)),
        h("td", {}, h("span", { class: `result result-${backOutcome(back)}` }, tOr(`result.${backOutcome(back)}`, tOr(`backstatus.${back.status}`, back.status)))),
        h("td", { class: "amount" }, moneyMinor(back.payout_minor)),
      ),
    ),
  ];
}

/** A settled back bet's outcome as the box's wagers say theirs: won, lost or pushed (from what
 * it returned against its stake); a refunded one keeps its status (it was never played).
 * Its status alone ("settled") told the backer nothing of how it went. */
function backOutcome(back) {
  if (back.status !== "settled") return back.status;
  if (back.payout_minor > back.amount_minor) return "win";
  return back.payout_minor === back.amount_minor ? "push" : "lose";
}

/** What the round moved for the viewer, as a sentence: their boxes' wagers and their own
 * back bets on other boxes (a back bet on their box is the backer's money, not theirs). */
export function netSentence(wagers, backBets, mySeats, me) {
  const backNet = settledBackBets(backBets)
    .filter((back) => back.backer === me)
    .reduce((sum, back) => sum + back.payout_minor - back.amount_minor, 0);
  const net = backNet + wagers.filter((r) => mySeats.has(Number(r.seat))).reduce((sum, r) => sum + centsOf(r.payout) - centsOf(r.stake), 0);
  return t(net > 0 ? "table.net_won" : net < 0 ? "table.net_lost" : "table.net_even", { amount: moneyMinor(Math.abs(net)) });
}
