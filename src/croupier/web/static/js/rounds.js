// What a round's record says about money: each settled wager, and a seat's totals.
// Engine amounts are exact units (a JSON number such as 7.5); sums are kept in minor units.

export function centsOf(units) {
  return Math.round(Number(units) * 100);
}

/** Every ``Settled`` event of a round's record, in order. */
export function settledWagers(events) {
  return (events ?? [])
    .filter((event) => event.kind === "Settled")
    .map((event) => ({
      seat: event.seat,
      wager: event.wager,
      hand: event.hand ?? null,
      stake: event.stake,
      payout: event.payout,
      result: event.result,
    }));
}

/** What `seats` staked and got back in a round (minor units), from its settlement. */
export function seatTotals(events, seats) {
  let staked = 0;
  let returned = 0;
  for (const wager of settledWagers(events)) {
    if (!seats.has(Number(wager.seat))) continue;
    staked += centsOf(wager.stake);
    returned += centsOf(wager.payout);
  }
  return { staked, returned };
}
