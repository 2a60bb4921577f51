// The table server's API as the pages use it: every path in one place.

import { api } from "./common.js";

export const server = {
  signUp: (username, password) => api("POST", "/auth/sign-up", { username, password }),
  signIn: (username, password) => api("POST", "/auth/sign-in", { username, password }),
  signOut: () => api("POST", "/auth/sign-out", {}, { quiet: true }),
  me: () => api("GET", "/me"),
  myRounds: () => api("GET", "/me/rounds"),
  tables: () => api("GET", "/tables"),
  table: (id) => api("GET", `/tables/${id}`),
  sit: (id, seat) => api("POST", `/tables/${id}/seats/${seat}`, {}),
  leave: (id, seat) => api("DELETE", `/tables/${id}/seats/${seat}`),
  bet: (id, seat, wager, amount) => api("POST", `/tables/${id}/bets`, { seat, wager, amount }),
  ready: (id) => api("POST", `/tables/${id}/ready`, {}),
  act: (id, seat, action) => api("POST", `/tables/${id}/actions`, { seat, action }),
  round: (id) => api("GET", `/rounds/${id}`),
  tableSocketUrl: (id, token) => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/tables/${id}/ws?token=${encodeURIComponent(token ?? "")}`;
  },
  // the operator
  profiles: () => api("GET", "/profiles"),
  players: () => api("GET", "/operator/players"),
  adjust: (userId, amount) => api("POST", `/operator/players/${userId}/adjust`, { amount }),
  openTable: (name, profile) => api("POST", "/operator/tables", { name, profile }),
  setTableOpen: (id, isOpen) => api("POST", `/operator/tables/${id}/${isOpen ? "open" : "close"}`, {}),
  setLimits: (id, minimum, maximum) => api("POST", `/operator/tables/${id}/limits`, { minimum, maximum }),
  ledger: () => api("GET", "/operator/ledger"),
  shoes: () => api("GET", "/shoes"),
};
