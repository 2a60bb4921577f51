// A player's protection settings on the account page (issue 27, items 1 to 3): the limits in
// force with what is used and left, the player's own limits and their raises waiting 24
// hours, the reality check's interval, a break and self-exclusion. The server decides every
// rule (what waits, what binds); this page shows its answer and sends the player's choices.

import { api, byId, h, labelCells, minorOf, moneyMinor, reportError, requireSession, session, showNotice, t } from "./common.js";

const MONEY_KINDS = new Set(["deposit", "loss", "wager"]);

/** What a pause says, by its kind (the server's `PauseKind`). */
export const UNTIL = { break: "protection.on_break_until", self_exclusion: "protection.excluded_until" };
const BREAKS = { break: true };

function when(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  return new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
}

/** A limit's amount as read: money for deposit, loss and wager; minutes for a session. */
export function amountText(kind, amount) {
  if (amount === null || amount === undefined) return t("protection.none");
  return MONEY_KINDS.has(kind) ? moneyMinor(amount) : t("protection.minutes", { minutes: amount });
}

function limitRow(limit) {
  return h("tr", { dataset: { kind: limit.kind, period: limit.period } },
    h("th", { scope: "row" }, `${t(`protection.kind.${limit.kind}`)} · ${t(`protection.period.${limit.period}`)}`),
    h("td", { class: "amount in-force" }, amountText(limit.kind, limit.amount),
      limit.operator_amount !== null && limit.operator_amount === limit.amount ? h("span", { class: "hint" }, ` (${t("protection.by_house")})`) : null),
    h("td", { class: "amount used" }, MONEY_KINDS.has(limit.kind) ? moneyMinor(limit.used) : t("protection.minutes", { minutes: limit.used })),
    h("td", { class: "amount left" }, limit.left === null ? "–" : amountText(limit.kind, limit.left)),
    h("td", {}, when(limit.resets_at)),
  );
}

function pauseText(pause) {
  return t(UNTIL[pause.kind], { until: when(pause.ends_at) });
}

async function show() {
  const state = await api("GET", "/me/protection");
  byId("protection-limits").querySelector("tbody").replaceChildren(...state.limits.map(limitRow));
  labelCells(byId("protection-limits"));
  byId("protection-pending").replaceChildren(...state.pending.map((item) => h("li", {},
    t("protection.pending_item", {
      limit: `${t(`protection.kind.${item.kind}`)} · ${t(`protection.period.${item.period}`)}`,
      amount: amountText(item.kind, item.amount),
      when: when(item.effective_at),
    }))));
  byId("protection-pending-none").hidden = state.pending.length > 0;
  byId("reality-minutes").value = String(state.reality_check_minutes);
  const paused = byId("protection-pause");
  paused.hidden = state.pause === null;
  paused.textContent = state.pause ? pauseText(state.pause) : "";
  // Once self-excluded, neither a break nor another exclusion is asked for: it binds already.
  for (const form of ["break-form", "exclusion-form"]) byId(form).hidden = Boolean(state.pause && !(state.pause.kind in BREAKS));
}

function syncPeriod() {
  const kind = byId("limit-kind").value;
  const period = byId("limit-period");
  const isSession = kind === "session";
  for (const option of period.options) option.hidden = (option.value === "session") !== isSession;
  if ((period.value === "session") !== isSession) period.value = isSession ? "session" : "day";
  byId("limit-amount-unit").textContent = isSession ? t("protection.minutes_unit") : t("protection.money_unit");
}

/** A limit's amount as typed: minutes for the session, else money in minor units; null for
 * an empty field (no limit) or text that is neither (the caller refuses it). */
export function limitAmountOf(kind, text) {
  if (text === "") return null;
  if (kind === "session") return /^\d{1,4}$/.test(text) ? Number(text) : null;
  return minorOf(text);
}

async function setLimit(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const kind = form.elements.kind.value;
  const text = form.elements.amount.value.trim();
  const amount = limitAmountOf(kind, text);
  if (text !== "" && amount === null) {
    showNotice(t("protection.bad_amount"), "error"); // never read as "no limit"
    return;
  }
  const answer = await api("POST", "/me/limits", { kind, period: form.elements.period.value, amount });
  const now = Date.now() / 1000;
  showNotice(answer.effective_at > now + 60 ? t("protection.saved_later", { when: when(answer.effective_at) }) : t("protection.saved_now"));
  await show();
}

async function pause(event, path, body, confirmKey) {
  event.preventDefault();
  if (!window.confirm(t(confirmKey, body))) return;
  await api("POST", path, body);
  await show();
}

export function install() {
  syncPeriod();
  byId("limit-kind").addEventListener("change", syncPeriod);
  byId("limit-form").addEventListener("submit", (event) => setLimit(event).catch(reportError));
  byId("reality-form").addEventListener("submit", (event) => {
    event.preventDefault();
    api("POST", "/me/reality-check", { minutes: Number(byId("reality-minutes").value) })
      .then(() => showNotice(t("protection.saved_now")))
      .catch(reportError);
  });
  byId("break-form").addEventListener("submit", (event) =>
    pause(event, "/me/break", { days: Number(event.currentTarget.elements.days.value) }, "protection.confirm_break").catch(reportError));
  byId("exclusion-form").addEventListener("submit", (event) =>
    pause(event, "/me/self-exclusion", { months: Number(event.currentTarget.elements.months.value) }, "protection.confirm_exclusion").catch(reportError));
  return show();
}

if (session.token && session.role === "player" && requireSession()) install().catch(reportError);
