// The rules at the table: one panel with the table's paytables, the dealer's and the table's
// rules and its limits, as the server posts them from the table's profile
// (GET /tables/{id}/rules). Every line names its words by a catalogue key and gives its
// figures; this module only words and lays them out, and keeps the progressive meter live
// from the round's public view.

import { api, byId, h, language, money, moneyMinor, t, tOr } from "./common.js";

let posted = null; // the document last fetched
let askedFor = null; // the round it was fetched for: the operator's new limits start with a round

const percent = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 2 });
const returnPercent = new Intl.NumberFormat(language, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });

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

/** Blackjack's basic strategy chart (the one its return assumes): hard, soft and pairs. */
function strategyChart(strategy) {
  const section = (key, rows) => {
    const ups = Object.keys(Object.values(rows)[0] ?? {});
    return h("table", { class: "grid compact strategy", dataset: { chart: key } },
      h("caption", {}, t(`rules.strategy_${key}`)),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("rules.strategy_hand")), ups.map((up) => h("th", { scope: "col" }, up)))),
      h("tbody", {}, Object.entries(rows).map(([hand, row]) => h("tr", {},
        h("th", { scope: "row" }, hand),
        ups.map((up) => h("td", { class: `act act-${row[up]}` }, row[up]))))),
    );
  };
  const used = new Set(["hard", "soft", "pairs"].flatMap((key) => Object.values(strategy[key]).flatMap(Object.values)));
  return h("details", { class: "strategy-chart" },
    h("summary", {}, t("rules.basic_strategy")),
    h("div", { class: "strategy-tables" }, section("hard", strategy.hard), section("soft", strategy.soft), section("pairs", strategy.pairs)),
    h("p", { class: "note-line" }, [...used].map((letter) => tOr(`strategy.${letter}`, letter)).join(" · ")),
  );
}

/** Each wager's return to player (issue 27, item 5): exact, from the analysis of the table's
 * own rules; blackjack's under the basic strategy it shows. */
function returnsSection() {
  const returns = posted.returns ?? { ready: false };
  if (!returns.ready) return [h("p", { class: "note-line", id: "returns-pending" }, t("rules.returns_pending"))];
  const lines = posted.limits.map((limit) => [limit.wager, limit.return_to_player]);
  for (const table of posted.paytables) {
    if (table.return_to_player !== undefined && !lines.some(([wager]) => wager === table.wager)) lines.push([table.wager, table.return_to_player]);
  }
  return [
    h("ul", { class: "rule-list returns" }, lines.filter(([, value]) => value !== null && value !== undefined).map(([wager, value]) =>
      h("li", { dataset: { wager } }, `${tOr(`wager.${wager}`, wager)}: ${returnPercent.format(value)}`))),
    h("p", { class: "note-line" }, t("rules.returns_note")),
    returns.play === "basic" ? h("p", { class: "note-line" }, t("rules.returns_basic")) : null,
    returns.strategy ? strategyChart(returns.strategy) : null,
  ];
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
    h("h3", {}, t("rules.returns")),
    h("div", { class: "returns-section", id: "rules-returns" }, returnsSection()),
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
