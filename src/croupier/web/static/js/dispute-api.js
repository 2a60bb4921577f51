// The disputes' part of the table server's API (issue 14): every path in one place, beside
// server.js. Amounts are minor units (1 unit = 100).

import { api, session, showNotice, t } from "./common.js";

export const disputes = {
  file: (roundId, text) => api("POST", `/rounds/${roundId}/disputes`, { text }),
  mine: () => api("GET", "/me/disputes"),
  roles: () => api("GET", "/me/roles"),
  queue: () => api("GET", "/inspector/disputes"),
  one: (id) => api("GET", `/inspector/disputes/${id}`),
  decide: (id, decision, reason, corrections) =>
    api("POST", `/inspector/disputes/${id}/decision`, { decision, reason, corrections }),
  ofOperator: () => api("GET", "/operator/disputes"),
  staff: () => api("GET", "/operator/staff"),
  grant: (username, role) => api("POST", "/operator/staff", { username, role }),
  remove: (username, role) =>
    api("DELETE", `/operator/staff/${encodeURIComponent(username)}/${encodeURIComponent(role)}`, {}),
  assign: (tableId, username) => api("POST", `/operator/tables/${tableId}/dealers`, { username }),
  unassign: (tableId, username) =>
    api("DELETE", `/operator/tables/${tableId}/dealers/${encodeURIComponent(username)}`, {}),
};

/** Whether the signed-in player holds ``role`` ("inspector", "dealer"). A staff page asks
 * before its own calls, which would be refused (403) to a player without the role (a
 * bookmark, a role taken away): it says so instead (issue 13, item 9). */
export async function holdsRole(role) {
  const { roles } = await disputes.roles();
  if (roles.includes(role)) return true;
  showNotice(t(ONLY_FOR[role]), "error");
  return false;
}

const ONLY_FOR = { inspector: "staff.only_inspector", dealer: "staff.only_dealer" };

/** Corrections of a payout or a collection (issue 14, item 3): the table's dealer or the
 * operator proposes, an inspector confirms or refuses. */
export const corrections = {
  propose: (roundId, username, amount, reason) =>
    api("POST", `/rounds/${roundId}/corrections`, { username, amount, reason }),
  queue: () => api("GET", "/inspector/corrections"),
  ofOperator: () => api("GET", "/operator/corrections"),
  decide: (id, decision, reason) => api("POST", `/inspector/corrections/${id}/decision`, { decision, reason }),
};

/** What waits for a second inspector (issue 25): a dispute decision beyond what the round
 * owes, a void after a card was seen; another inspector approves or refuses. */
export const approvals = {
  queue: () => api("GET", "/inspector/approvals"),
  ofOperator: () => api("GET", "/operator/approvals"),
  decide: (id, decision, reason) => api("POST", `/inspector/approvals/${id}/decision`, { decision, reason }),
};

/** A correction's status in words. */
export function correctionStatus(status, t) {
  const words = {
    proposed: t("correction.status.proposed"),
    confirmed: t("correction.status.confirmed"),
    refused: t("correction.status.refused"),
  };
  return words[status] ?? status;
}

/** The dossier's PDF, fetched with the session's token and handed to the browser to save. */
export async function downloadDossier(id) {
  const response = await fetch(`/me/disputes/${id}/dossier.pdf`, {
    headers: { Authorization: `Bearer ${session.token}` },
  });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.detail ?? String(response.status));
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `dispute-${id}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Minor units by player as "name 12.00" lines, for the tables' cells. */
export function perPlayer(amounts, moneyMinor) {
  if (amounts === null || amounts === undefined) return "–";
  const names = Object.keys(amounts).sort();
  if (!names.length) return "0";
  return names.map((name) => `${name} ${moneyMinor(amounts[name])}`).join(", ");
}

/** A text amount typed by a person, "-5" or "12.50", as signed minor units, or null. */
export function signedMinorOf(text, minorOf) {
  const trimmed = String(text).trim();
  const negative = trimmed.startsWith("-");
  const minor = minorOf(negative ? trimmed.slice(1) : trimmed);
  if (minor === null) return null;
  return negative ? -minor : minor;
}
