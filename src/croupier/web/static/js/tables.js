// Facts about a table as the lobby and the table page show them.

import { money, t } from "./common.js";

export function limitsOf(table) {
  const limits = table.limits ?? {};
  return {
    minimum: limits.minimum ?? table.minimum ?? null,
    maximum: limits.maximum ?? table.maximum ?? null,
  };
}

export function describeLimits(table) {
  const { minimum, maximum } = limitsOf(table);
  if (minimum === null && maximum === null) return "–";
  return t("lobby.limits_range", { minimum: money(minimum), maximum: money(maximum) });
}

/** Seat number -> who sits there (null when free), from whatever shape the server sends. */
export function seatMap(table) {
  const seats = new Map();
  const count = table.seat_count ?? table.seats_total ?? null;
  if (count) for (let seat = 1; seat <= count; seat += 1) seats.set(seat, null);
  const listed = table.seats ?? {};
  if (Array.isArray(listed)) {
    for (const entry of listed) {
      seats.set(Number(entry.seat), entry.player ?? entry.username ?? entry.user ?? null);
    }
  } else {
    for (const [seat, who] of Object.entries(listed)) {
      seats.set(Number(seat), who === null || who === undefined ? null : (who.username ?? who));
    }
  }
  return new Map([...seats.entries()].sort((a, b) => a[0] - b[0]));
}

export function freeSeats(table) {
  if (typeof table.free_seats === "number") return table.free_seats;
  return [...seatMap(table).values()].filter((who) => who === null).length;
}
