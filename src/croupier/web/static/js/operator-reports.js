// The operator's page, reports (issue 27, item 6): the regulator's daily report of a gaming
// day (GET /operator/reports/daily), each table's win at play against its theoretical win and
// 99% band drawn as a chart, the CSV and PDF to download; and each table's win against its
// theoretical day by day over the last days (GET /operator/reports/daily-range), a chart each.

import { api, byId, h, labelCells, language, moneyMinor, reportError, session, t } from "./common.js";
import { shiftDays } from "./dates.js";
import { houseToday } from "./office-day.js";

const SVG = "http://www.w3.org/2000/svg";
const holdFormat = new Intl.NumberFormat(language, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const zFormat = new Intl.NumberFormat(language, { signDisplay: "always", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const Z_99 = 2.576;

const hold = (value) => (value === null || value === undefined ? "–" : holdFormat.format(value));
const zText = (value) => (value === null || value === undefined ? "–" : zFormat.format(value));
const minor = (value) => (value === null || value === undefined ? "–" : moneyMinor(value));

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children.flat()) if (child) element.append(child);
  return element;
}

/** A chart's width in its own units: the width it is shown at (up to 720), so that its
 * words are read at their size on a phone too. */
function drawnWidth(container) {
  return Math.round(Math.min(720, Math.max(300, byId(container)?.clientWidth ?? 720)));
}

/** Each table's win at play (win + meter: a bar, red when flagged) and its theoretical win
 * with the 99% band (a dot and a whisker), as the PDF's chart draws them. */
function chart(report) {
  const tables = report.tables.filter((table) => table.rounds || table.win_minor);
  if (!tables.length) return null;
  const width = drawnWidth("report-body"), height = 220, left = 56, bottom = 40, top = 12;
  const values = tables.flatMap((table) => {
    const played = table.win_minor + table.jackpot_minor;
    const spread = (table.standard_deviation_minor ?? 0) * Z_99;
    const theory = table.theoretical_win_minor ?? 0;
    return [played, theory + spread, theory - spread, 0];
  });
  const high = Math.max(...values), low = Math.min(...values);
  const span = high - low || 1;
  const y = (value) => top + (high - value) / span * (height - top - bottom);
  const step = (width - left) / tables.length;
  const parts = [
    svg("line", { x1: left, x2: width, y1: y(0), y2: y(0), stroke: "#444", "stroke-width": 1 }),
    svg("text", { x: 4, y: y(high) + 4, "font-size": 10 }, document.createTextNode(moneyMinor(Math.round(high)))),
    svg("text", { x: 4, y: y(low), "font-size": 10 }, document.createTextNode(moneyMinor(Math.round(low)))),
  ];
  tables.forEach((table, index) => {
    const centre = left + step * (index + 0.5);
    const played = table.win_minor + table.jackpot_minor;
    parts.push(svg("rect", {
      x: centre - step * 0.25, width: step * 0.5, y: Math.min(y(played), y(0)), height: Math.abs(y(played) - y(0)) || 1,
      fill: table.flagged ? "#c62828" : "#5b7fa6", "data-table": table.table,
    }));
    if (table.theoretical_win_minor !== null) {
      const spread = (table.standard_deviation_minor ?? 0) * Z_99;
      const theory = table.theoretical_win_minor;
      parts.push(svg("line", { x1: centre, x2: centre, y1: y(theory + spread), y2: y(theory - spread), stroke: "#888", "stroke-width": 1.5 }));
      parts.push(svg("circle", { cx: centre, cy: y(theory), r: 4, fill: "#222" }));
    }
    parts.push(svg("text", { x: centre, y: height - bottom + 16, "font-size": 10, "text-anchor": "middle" }, document.createTextNode(table.name)));
  });
  return h("figure", { class: "report-chart" },
    svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("report.chart") }, parts),
    h("figcaption", {}, t("report.chart_legend")));
}

function row(label, figures) {
  return h("tr", { class: figures.flagged ? "flagged" : null },
    h("th", { scope: "row" }, label),
    h("td", { class: "amount" }, figures.rounds),
    h("td", { class: "amount" }, minor(figures.handle_minor)),
    h("td", { class: "amount" }, minor(figures.win_minor)),
    h("td", { class: "amount" }, minor(figures.jackpot_minor)),
    h("td", { class: "amount" }, hold(figures.hold)),
    h("td", { class: "amount" }, minor(figures.theoretical_win_minor)),
    h("td", { class: "amount" }, hold(figures.theoretical_hold)),
    h("td", { class: "amount" }, zText(figures.z)),
    h("td", {}, figures.flagged ? t("report.flagged") : ""),
  );
}

function draw(report) {
  const head = ["lobby.table", "report.rounds", "report.handle", "report.win", "report.meter", "report.hold", "report.theoretical", "report.theoretical_hold", "report.z", "report.band"];
  const parts = [
    h("div", { class: "table-scroll" },
      h("table", { class: "grid stack-on-phone", id: "report-tables" },
        h("thead", {}, h("tr", {}, head.map((key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {},
          report.tables.map((table) => row(`${table.name} (${table.profile})`, table)),
          row(t("report.total"), report.totals)),
      )),
    chart(report),
    report.pending_analysis.length ? h("p", { class: "note-line" }, t("report.pending", { profiles: report.pending_analysis.join(", ") })) : null,
    h("p", { class: "note-line" }, t("report.counts", { disputes: report.disputes.length, corrections: report.corrections.length, voids: report.voids.length })),
  ];
  byId("report-body").replaceChildren(...parts.filter(Boolean));
  // A phone stacks each row: every cell names its column (the other lists do the same when they
  // draw; labelling here does not depend on whichever list happens to draw last).
  labelCells(byId("report-tables"));
}

async function download(format) {
  const date = byId("report-date").value;
  const response = await fetch(`/operator/reports/daily?date=${encodeURIComponent(date)}&format=${format}`, {
    headers: { Authorization: `Bearer ${session.token}` },
  });
  if (!response.ok) return reportError(new Error(t("report.download_failed")));
  const link = h("a", { href: URL.createObjectURL(await response.blob()), download: `daily-${date}.${format}` });
  link.click();
  URL.revokeObjectURL(link.href);
}

async function show(event) {
  event?.preventDefault();
  try {
    draw(await api("GET", `/operator/reports/daily?date=${encodeURIComponent(byId("report-date").value)}`));
  } catch (error) {
    reportError(error);
  }
}

// --- win against theoretical over the days, per table --------------------------------------
const shortDay = new Intl.DateTimeFormat(language, { day: "numeric", month: "short", timeZone: "UTC" });
const dayLabel = (day) => shortDay.format(new Date(`${day}T00:00:00Z`));

/** One table's days: its win at play each day (a bar, red on a day outside the band), its
 * theoretical win (a line) and the 99% band around it (a shaded area). */
function trendChart(table) {
  const days = table.days;
  const width = drawnWidth("trend-body"), height = 170, left = 64, right = 8, top = 10, bottom = 26;
  const played = (day) => day.win_minor + day.jackpot_minor;
  const spread = (day) => (day.standard_deviation_minor ?? 0) * Z_99;
  const known = days.filter((day) => day.theoretical_win_minor !== null && day.rounds);
  const values = [0, ...days.map(played), ...known.flatMap((day) => [day.theoretical_win_minor + spread(day), day.theoretical_win_minor - spread(day)])];
  const high = Math.max(...values), low = Math.min(...values);
  const span = high - low || 1;
  const y = (value) => top + (high - value) / span * (height - top - bottom);
  const step = (width - left - right) / days.length;
  const x = (index) => left + step * (index + 0.5);
  const parts = [];
  const band = days.map((day, index) => [index, day]).filter(([, day]) => day.theoretical_win_minor !== null && day.rounds);
  if (band.length) {
    const upper = band.map(([index, day]) => `${x(index)},${y(day.theoretical_win_minor + spread(day))}`);
    const lower = band.map(([index, day]) => `${x(index)},${y(day.theoretical_win_minor - spread(day))}`).reverse();
    parts.push(svg("polygon", { points: [...upper, ...lower].join(" "), class: "trend-band" }));
  }
  parts.push(svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), class: "trend-zero" }));
  days.forEach((day, index) => {
    if (!day.rounds && !day.win_minor) return;
    const value = played(day);
    parts.push(svg("rect", {
      x: x(index) - step * 0.3, width: Math.max(step * 0.6, 1), y: Math.min(y(value), y(0)), height: Math.abs(y(value) - y(0)) || 1,
      class: day.flagged ? "trend-bar flagged" : "trend-bar", "data-date": day.date,
    }, svg("title", {}, document.createTextNode(`${day.date}: ${t("report.win")} ${moneyMinor(value)} · ${t("report.theoretical")} ${minor(day.theoretical_win_minor)}`))));
  });
  if (band.length) {
    parts.push(svg("polyline", { points: band.map(([index, day]) => `${x(index)},${y(day.theoretical_win_minor)}`).join(" "), class: "trend-theory" }));
  }
  parts.push(svg("text", { x: left - 6, y: y(high) + 4, class: "trend-axis", "text-anchor": "end" }, document.createTextNode(moneyMinor(Math.round(high)))));
  parts.push(svg("text", { x: left - 6, y: y(low), class: "trend-axis", "text-anchor": "end" }, document.createTextNode(moneyMinor(Math.round(low)))));
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1]);
  days.forEach((day, index) => {
    if (!labelled.has(index)) return;
    // The last day's label ends at the chart's edge rather than running past it.
    const isLast = index === days.length - 1 && days.length > 1;
    parts.push(svg("text", { x: isLast ? width - right : x(index), y: height - 8, class: "trend-axis", "text-anchor": isLast ? "end" : "middle" }, document.createTextNode(dayLabel(day.date))));
  });
  const total = days.reduce((sum, day) => sum + played(day), 0);
  const theory = known.length ? known.reduce((sum, day) => sum + day.theoretical_win_minor, 0) : null;
  return h("figure", { class: "trend-chart", dataset: { table: table.table } },
    h("figcaption", {}, h("strong", {}, table.name), ` (${table.profile}) · `,
      t("office.trend_sum", { win: moneyMinor(total), theoretical: minor(theory) })),
    svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("office.trend_chart_of", { name: table.name }) }, parts));
}

async function showTrend(event) {
  event?.preventDefault();
  const last = byId("report-date").value || houseToday();
  const first = shiftDays(last, 1 - Number(byId("trend-days").value));
  try {
    const range = await api("GET", `/operator/reports/daily-range?from=${first}&to=${last}`);
    const played = range.tables.filter((table) => table.days.some((day) => day.rounds || day.win_minor));
    byId("trend-body").replaceChildren(
      h("p", { class: "note-line" }, t("office.trend_legend", { from: dayLabel(first), to: dayLabel(last) })),
      ...(played.length ? played.map(trendChart) : [h("p", {}, t("office.trend_none"))]),
    );
  } catch (error) {
    reportError(error);
  }
}

const form = byId("report-form");
if (form && session.token && session.role === "operator") {
  // The browser's today, on the house's gaming day: not the server's clock (issue 27, item 6).
  byId("report-date").value = houseToday();
  form.addEventListener("submit", (event) => {
    show(event);
    showTrend();
  });
  byId("report-csv").addEventListener("click", () => download("csv"));
  byId("report-pdf").addEventListener("click", () => download("pdf"));
  byId("trend-form").addEventListener("submit", showTrend);
  show();
  showTrend();
}
