// Calendar days as the person at the page lives them (issue 27, item 6): a report's or a
// statement's day is the browser's today, not the server's, in the house's gaming-day zone
// when the page knows it.

/** ``when`` (a Date) as YYYY-MM-DD on the calendar of ``timeZone`` (an IANA name; the
 * browser's own zone when not given). */
export function localDate(when, timeZone = undefined) {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(when);
  const part = (type) => parts.find((item) => item.type === type).value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** The gaming day ``when`` falls in: the calendar day in ``timeZone``, the day before if the
 * house's day (``starts``, "HH:MM") has not yet begun there. */
export function gamingDayOf(when, starts = "00:00", timeZone = undefined) {
  const clock = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(when);
  const day = localDate(when, timeZone);
  if (clock >= starts) return day;
  return shiftDays(day, -1);
}

/** YYYY-MM-DD ``days`` days after ``day`` (before, when negative). */
export function shiftDays(day, days) {
  const [year, month, date] = day.split("-").map(Number);
  const moved = new Date(Date.UTC(year, month - 1, date + days));
  return moved.toISOString().slice(0, 10);
}
