// The back office's players section: each player's protection (issue 27, items 1 to 3), as
// the player reads it (GET /operator/players/{name}/protection), and the operator's own
// limit on a player (POST /operator/players/{name}/limits), which applies at once; the lower
// of the player's and the operator's binds. Nothing here lifts a break or an exclusion.

import { api, byId, follow, h, labelCells, reportError, showNotice, t } from "./common.js";
import { UNTIL, amountText, limitAmountOf } from "./protection.js";

function when(seconds) {
  return new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium" }).format(new Date(seconds * 1000));
}

function settingsText(state) {
  const set = state.limits.filter((limit) => limit.amount !== null).map((limit) =>
    `${t(`protection.kind.${limit.kind}`)} · ${t(`protection.period.${limit.period}`)}: ${amountText(limit.kind, limit.amount)}${
      limit.operator_amount === limit.amount ? ` (${t("protection.by_house")})` : ""}`);
  for (const item of state.pending) {
    set.push(t("protection.pending_item", {
      limit: `${t(`protection.kind.${item.kind}`)} · ${t(`protection.period.${item.period}`)}`,
      amount: amountText(item.kind, item.amount),
      when: when(item.effective_at),
    }));
  }
  return set.length ? set.join("; ") : t("protection.no_limits");
}

function pauseCell(pause) {
  if (!pause) return h("td", {}, "–");
  return h("td", { class: "paused", dataset: { pause: pause.kind } }, t(UNTIL[pause.kind], { until: when(pause.ends_at) }));
}

async function show(players) {
  const states = await Promise.all(players.map((player) =>
    api("GET", `/operator/players/${encodeURIComponent(player.username)}/protection`)));
  byId("protection-players").querySelector("tbody").replaceChildren(...players.map((player, index) =>
    h("tr", { dataset: { player: player.username } },
      h("th", { scope: "row" }, player.username),
      pauseCell(states[index].pause),
      h("td", { class: "limits" }, settingsText(states[index])),
      h("td", {}, t("protection.minutes", { minutes: states[index].reality_check_minutes })))));
  labelCells(byId("protection-players"));
  byId("house-limit-players").replaceChildren(...players.map((player) => h("option", { value: player.username })));
}

let listed = [];

async function setHouseLimit(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const kind = form.elements.kind.value;
  const text = form.elements.amount.value.trim();
  const amount = limitAmountOf(kind, text);
  if (text !== "" && amount === null) {
    showNotice(t("protection.bad_amount"), "error");
    return;
  }
  const name = form.elements.username.value.trim();
  await api("POST", `/operator/players/${encodeURIComponent(name)}/limits`, { kind, period: form.elements.period.value, amount });
  showNotice(t("protection.saved_now"));
  await show(listed);
}

follow("players", (detail) => {
  listed = detail.players;
  show(listed).catch(reportError);
});
byId("house-limit-form").addEventListener("submit", (event) => setHouseLimit(event).catch(reportError));
