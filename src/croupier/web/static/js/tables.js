// Facts about a table as the lobby, the table page and the operator show them: the table
// server's table joined with its profile's public facts (seats, wagers, limits).

import { money, t, tOr } from "./common.js";

/** The limits of the wager a seat must place (the first the profile lists). */
export function mainLimits(profile) {
  const wager = profile?.wagers?.[0];
  return wager ? { minimum: wager.minimum, maximum: wager.maximum } : { minimum: null, maximum: null };
}

export function describeLimits(profile) {
  const { minimum, maximum } = mainLimits(profile);
  if (minimum === null) return "–";
  return t("lobby.limits_range", { minimum: money(minimum), maximum: money(maximum) });
}

/** Every wager's limits, e.g. "Bet 1 – 10,000 · 21+3 1 – 100". */
export function describeAllLimits(profile) {
  return (profile?.wagers ?? [])
    .map((wager) => `${tOr(`wager.${wager.name}`, wager.name)} ${t("lobby.limits_range", { minimum: money(wager.minimum), maximum: money(wager.maximum) })}`)
    .join(" · ");
}

/** Seat number -> the name of who sits there (null when free), every seat of the table. */
export function seatMap(table, profile) {
  const seats = new Map();
  const count = profile?.seats ?? 0;
  for (let seat = 1; seat <= count; seat += 1) seats.set(seat, null);
  for (const [seat, who] of Object.entries(table?.seats ?? {})) seats.set(Number(seat), who);
  return new Map([...seats.entries()].sort((a, b) => a[0] - b[0]));
}

export function freeSeats(table, profile) {
  return [...seatMap(table, profile).values()].filter((who) => who === null).length;
}

/** The rules' title in the page's language, from a table (`profile`, `title`) or a profile's
 * facts (`name`, `title`); an operator's own profile file keeps the title it gives. */
export function rulesTitle(facts) {
  const name = facts?.profile ?? facts?.name;
  return tOr(`profile.${name}`, facts?.title ?? name ?? "");
}
