// The rules at the table: one panel with the table's paytables, the dealer's and the table's
// rules and its limits, as the server posts them from the table's profile
// (GET /tables/{id}/rules). Every line names its words by a catalogue key and gives its
// figures; this module only words and lays them out, and keeps the progressive meter live
// from the round's public view.

import { api, byId, h, language, money, moneyMinor, t, tOr } from "./common.js";

let posted = null; // the document last fetched
let askedFor = null; // the round it was fetched for: the operator's new limits start with a round

const percent = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 2 });

/** "1/10" as "10 %" in the page's language. */
function shareText(fraction) {
  const [numerator, denominator] = String(fraction).split("/").map(Number);
  return percent.format(numerator / (denominator || 1));
}

/** "3:2" as "3 to 2". */
function ratioText(ratio) {
  const [win, stake] = String(ratio).split(":");
  return t("rules.ratio", { win: money(win), stake: money(stake) });
}

/** A rule's figures as words: shares as percentages, ratios, catalogue keys, amounts. */
function paramsText(params) {
  const values = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (name === "share") values[name] = shareText(value);
    else if (name === "pays") values[name] = ratioText(value);
    else if (name === "category") values[name] = tOr(value, value);
    else if (name === "rank") values[name] = tOr(`card.rank.${value}`, value);
    else values[name] = money(value);
  }
  return values;
}

function words(item) {
  return tOr(item.words, item.words, paramsText(item.params));
}

function payText(line) {
  if (line.pays) return ratioText(line.pays);
  if (line.meter_share) return t("rules.meter_share", { share: shareText(line.meter_share) });
  return money(line.units);
}

function paytable(table) {
  const caption = tOr(table.words, table.wager);
  return h("div", { class: "paytable", dataset: { wager: table.wager } },
    h("table", { class: "grid compact" },
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("rules.hand")), h("th", { scope: "col", class: "amount" }, t("rules.pays")))),
      h("tbody", {}, table.lines.map((line) => h("tr", { dataset: { hand: line.hand } }, h("td", {}, tOr(line.words, line.hand)), h("td", { class: "amount" }, payText(line))))),
    ),
    table.wager === "progressive" ? h("p", { class: "meter", id: "rules-meter" }) : null,
    (table.notes ?? []).map((note) => h("p", { class: "note-line" }, words(note))),
  );
}

function drawPosted(body) {
  body.replaceChildren(
    h("h3", {}, t("rules.paytables")),
    h("div", { class: "paytables" }, posted.paytables.map(paytable)),
    h("h3", {}, t("rules.dealer_and_table")),
    h("ul", { class: "rule-list" }, posted.rules.map((rule) => h("li", { dataset: { rule: rule.words } }, words(rule)))),
    h("h3", {}, t("rules.limits")),
    h("ul", { class: "rule-list limits" }, posted.limits.map((limit) =>
      h("li", { dataset: { wager: limit.wager } }, `${tOr(`wager.${limit.wager}`, limit.wager)}: ${t("lobby.limits_range", { minimum: money(limit.minimum), maximum: money(limit.maximum) })}`))),
  );
}

/** The progressive meter as the round under way holds it (the engine's public view). */
function drawMeter(view) {
  const meter = byId("rules-meter");
  if (!meter) return;
  const value = view?.meter;
  meter.hidden = value === undefined || value === null;
  if (!meter.hidden) meter.textContent = t("rules.meter_now", { amount: moneyMinor(Math.floor(Number(value) * 100)) });
}

/** Draw the panel for table ``tableId`` (fetched again when a new round opens, since the
 * operator's limits start with a round), and its live meter from ``view``. */
export function drawRulesPanel(tableId, roundId, view) {
  const body = byId("rules-body");
  if (!body) return;
  if (askedFor !== roundId) {
    askedFor = roundId;
    api("GET", `/tables/${tableId}/rules`).then((document) => {
      const changed = JSON.stringify(document) !== JSON.stringify(posted);
      posted = document;
      if (changed) drawPosted(body);
      drawMeter(view);
    }).catch(() => { askedFor = null; });
  }
  if (posted) drawMeter(view);
}
