// The house's today, as the back office's figures are cut (issue 27, item 6): the browser's
// today on the house's gaming day (its start, and its zone when the server names one: the
// page's body carries both), not the server's clock.

import { gamingDayOf } from "./dates.js";

/** Today's gaming day, YYYY-MM-DD, at the browser's clock. */
export function houseToday(now = new Date()) {
  const { gamingDayStart = "00:00", gamingDayZone = "" } = document.body.dataset;
  try {
    return gamingDayOf(now, gamingDayStart, gamingDayZone || undefined);
  } catch {
    return gamingDayOf(now, gamingDayStart); // a zone this browser does not know: its own
  }
}
