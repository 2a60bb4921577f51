// The table server's API as the pages use it: every path in one place.
// Amounts: balances, credits, debits and escrow are minor units (1 unit = 100); bets, the
// engines' stakes and payouts are whole table units.

import { api } from "./common.js";

export const server = {
  // A refused sign-in is the form's error, not an ended session: quiet.
  signUp: (username, password) => api("POST", "/auth/signup", { username, password }, { quiet: true }),
  signIn: (username, password) => api("POST", "/auth/signin", { username, password }, { quiet: true }),
  signOut: () => api("POST", "/auth/signout", {}, { quiet: true }),
  me: () => api("GET", "/me"),
  myRounds: (limit = 20, offset = 0, tableId = null) =>
    api("GET", `/me/rounds?limit=${limit}&offset=${offset}${tableId === null ? "" : `&table_id=${tableId}`}`),
  myLedger: (limit = 20, offset = 0) => api("GET", `/me/ledger?limit=${limit}&offset=${offset}`),
  tables: () => api("GET", "/tables"),
  table: (id) => api("GET", `/tables/${id}`, undefined, { withDate: true }),
  sit: (id, seat) => api("POST", `/tables/${id}/seats/${seat}`, {}),
  leave: (id, seat) => api("DELETE", `/tables/${id}/seats/${seat}`, {}),
  bet: (id, seat, wager, amount) => api("POST", `/tables/${id}/bets`, { seat, wager, amount }),
  ready: (id) => api("POST", `/tables/${id}/ready`, {}),
  act: (id, seat, action) => api("POST", `/tables/${id}/actions`, { seat, action }),
  round: (id) => api("GET", `/rounds/${id}`),
  backBets: (id) => api("GET", `/web/api/tables/${id}/back-bets`),
  askBackBet: (id, seat, amount) => api("POST", `/tables/${id}/back-bets`, { seat, wager: "main", amount }),
  consent: (id, backBetId, accept) => api("POST", `/tables/${id}/back-bets/${backBetId}/consent`, { accept }),
  tableSocketUrl: (id, token) => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/tables/${id}/ws?token=${encodeURIComponent(token ?? "")}`;
  },
  profiles: () => api("GET", "/web/api/profiles"),
  // the operator
  players: () => api("GET", "/web/api/operator/players"),
  credit: (username, minor) => api("POST", `/operator/wallets/${encodeURIComponent(username)}/credit`, { amount: minor }),
  debit: (username, minor) => api("POST", `/operator/wallets/${encodeURIComponent(username)}/debit`, { amount: minor }),
  openTable: (name, profile, shoe = "random") => api("POST", "/operator/tables", { name, profile, shoe }),
  setLimits: (id, wager, minimum, maximum) => api("POST", `/operator/tables/${id}/limits`, { wager, minimum, maximum }),
  setTableOpen: (id, isOpen) => api("POST", `/operator/tables/${id}/${isOpen ? "open" : "close"}`, {}),
  audit: () => api("GET", "/operator/audit"),
  shoes: () => api("GET", "/web/api/operator/shoes"),
  shoe: (id) => api("GET", `/shoes/${id}`),
};

/** The profiles' public facts by name (seats, wagers and their limits), fetched once, or
 * again when `fresh` (a table opened since may deal under an operator's own profile). */
let profileFacts = null;
let tableFacts = new Map();

/** A table's profile facts with the limits the operator set for it (docs/rules.md §6). */
export function profileOfTable(table, profiles) {
  return tableFacts.get(String(table.id)) ?? profiles.get(table.profile);
}
export async function profilesByName(fresh = false) {
  if (!profileFacts || fresh) {
    const answer = await server.profiles();
    profileFacts = new Map(answer.profiles.map((profile) => [profile.name, profile]));
    tableFacts = new Map(Object.entries(answer.tables ?? {}));
  }
  return profileFacts;
}
