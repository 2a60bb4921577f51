// What every page shares: the catalogue, element building, the session, the API client.
// Plain ES module, no build step.

const messages = JSON.parse(document.getElementById("messages").textContent);

/** The catalogue's text for `key`, `{name}` placeholders filled from `values`. */
export function t(key, values = {}) {
  const text = Object.hasOwn(messages, key) ? messages[key] : null;
  if (text === null) {
    return key;
  }
  return text.replace(/\{([a-z_]+)\}/g, (whole, name) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** The catalogue's text for `key` if there is one, else `fallback` (a code from the server). */
export function tOr(key, fallback, values = {}) {
  return Object.hasOwn(messages, key) ? t(key, values) : fallback;
}

export const language = document.documentElement.lang || "en";

/** Build an element: h("button", {type: "button", onclick}, "text", child...). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      element.className = value;
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else {
      element.setAttribute(name, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Put `nodes` in `parent` as `replaceChildren` would, keeping each child already there that
 * equals its replacement (same tag, attributes and text): a redraw that changes nothing
 * leaves the button under the pointer in place. A button replaced between a click's press
 * and release gets no click, and the player's click is lost without a word (a test's "Sit"
 * was, when a late answer redrew the seats). */
export function redrawChildren(parent, ...nodes) {
  const wanted = nodes
    .flat()
    .filter((node) => node !== null && node !== undefined && node !== false)
    .map((node) => (node instanceof Node ? node : document.createTextNode(String(node))));
  const there = [...parent.childNodes];
  wanted.forEach((node, index) => {
    if (index >= there.length) parent.append(node);
    else if (!there[index].isEqualNode(node)) there[index].replaceWith(node);
  });
  for (const extra of there.slice(wanted.length)) extra.remove();
}

/** Give each cell of `table` its column's heading as `data-label`: on a phone the rows
 * are laid out as cards and the headings come back beside each value. */
export function labelCells(table) {
  const headings = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.children].forEach((cell, index) => {
      if (headings[index]) cell.dataset.label = headings[index];
    });
  }
}

export function byId(id) {
  return document.getElementById(id);
}

/** Minor units (balances, credits, escrow; 100 to the unit) shown as units with cents. */
export function moneyMinor(minor) {
  if (minor === null || minor === undefined || minor === "") return "–";
  const text = String(minor);
  if (!/^-?\d+$/.test(text)) return text;
  const negative = text.startsWith("-");
  const digits = (negative ? text.slice(1) : text).padStart(3, "0");
  return money(`${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`);
}

/** A sum of money in units as the server gives a wager's stake and payout ("1500", "7.5"),
 * written with its cents as the balance is ("1,500.00", "7.50"): the results table's
 * "1,500" beside the balance's "1,500.00" read as two kinds of number. An exact fraction
 * of a cent ("0.475") keeps its digits: rounding is never the page's to do. */
export function moneyUnits(value) {
  const match = /^(-?\d+)(?:\.(\d+))?$/.exec(String(value ?? ""));
  if (!match) return money(value);
  return money(`${match[1]}.${(match[2] ?? "").padEnd(2, "0")}`);
}

/** Whole or decimal units typed by a person ("12", "12.5") as minor units, or null. */
export function minorOf(text) {
  const match = /^(\d{1,11})(?:[.,](\d{1,2}))?$/.exec(String(text).trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

// Spanish (and a few other languages) group only from five digits by CLDR's rule, so Intl
// writes 1000,00 where a casino's page writes 1.000,00: thousands are always grouped here
// ("always", where the engine knows it; else the group separator put in by hand).
const wholeFormat = new Intl.NumberFormat(language, { useGrouping: "always" });
const groupSeparator = new Intl.NumberFormat(language).formatToParts(10_000_000).find((part) => part.type === "group")?.value ?? "";

/** A whole number of digits (no sign), grouped by thousands in the page's language. */
export function groupDigits(digits) {
  const written = wholeFormat.format(BigInt(digits));
  if (written.length > digits.length || digits.length < 4 || !groupSeparator) return written;
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, groupSeparator);
}

/** Money as the server gives it (whole units, or an exact decimal string), localised. */
export function money(value) {
  if (value === null || value === undefined || value === "") return "–";
  const text = String(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const [whole, fraction] = text.split(".");
  const negative = whole.startsWith("-");
  const grouped = groupDigits(negative ? whole.slice(1) : whole);
  const sign = negative ? "-" : "";
  if (!fraction) return sign + grouped;
  const point = new Intl.NumberFormat(language).format(1.5).charAt(1);
  return sign + grouped + point + fraction;
}

// --- the session --------------------------------------------------------------------------

const TOKEN_KEY = "croupier.token";
const ROLE_KEY = "croupier.role";
const NAME_KEY = "croupier.username";

export const session = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  get role() {
    return localStorage.getItem(ROLE_KEY);
  },
  get username() {
    return localStorage.getItem(NAME_KEY);
  },
  start(token, role, username) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(ROLE_KEY, role);
    localStorage.setItem(NAME_KEY, username);
  },
  end() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(ROLE_KEY);
    localStorage.removeItem(NAME_KEY);
  },
};

// --- the API ------------------------------------------------------------------------------

/** A refusal from the server: `status`, its stable `code` and `params`, the English
 * `serverDetail` (for tools and logs), and `detail`, the message in the page's language. */
export class ApiError extends Error {
  constructor(status, body = null) {
    const answer = body && typeof body === "object" ? body : {};
    const code = typeof answer.code === "string" ? answer.code : null;
    const params = answer.params && typeof answer.params === "object" ? answer.params : {};
    const detail = messageOf({ status, code, params });
    super(detail);
    this.status = status;
    this.code = code;
    this.params = params;
    this.detail = detail;
    this.serverDetail = typeof answer.detail === "string" ? answer.detail : null;
  }
}

// How a parameter of an error reads: amounts grouped in the page's language, wager and
// action names from the catalogue, minor units (a balance) as money with cents.
function paramText(name, value) {
  if (name.endsWith("_minor")) return moneyMinor(value);
  if (name === "wager") return tOr(`wager.${value}`, String(value));
  if (name === "action") return tOr(`action.${value}`, String(value));
  if (name === "period") return tOr(`protection.period.${value}`, String(value));
  if (typeof value === "number") return money(value);
  return String(value);
}

/** An error in the page's language: the catalogue's `error.<code>` with its params, or the
 * HTTP status's words when the answer has no code we know (a proxy's page, say). */
export function messageOf(error) {
  if (typeof error !== "object" || error === null || !("status" in error)) return t("error.unexpected");
  if (error.status === 0) return t("error.network");
  const key = `error.${error.code}`;
  if (error.code && Object.hasOwn(messages, key)) {
    const values = {};
    for (const [name, value] of Object.entries(error.params ?? {})) values[name] = paramText(name, value);
    return t(key, values);
  }
  return t("error.http", { status: error.status });
}

/** Call the JSON API. A mutating call carries an Idempotency-Key (R8): the one this same
 * request was sent with if it is still unanswered (``keyOf``), else a fresh one. */
export async function api(method, path, body = undefined, { quiet, withDate } = {}) {
  const headers = { Accept: "application/json" };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const sent = method === "GET" ? null : keyOf(method, path, body);
  if (sent) headers["Idempotency-Key"] = sent.key;
  let response;
  const sentAt = Date.now();
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0); // no answer: the key stays for the same request sent again
  }
  const receivedAt = Date.now();
  // Answered: done or refused for a reason of its own; the server's trouble may have done it.
  if (sent && response.status < 500) unanswered.delete(sent.request);
  const text = await response.text();
  let parsed = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    const error = new ApiError(response.status, parsed);
    if (response.status === 401 && !quiet) {
      session.end();
      showNotice(t("auth.signed_out_notice"), "error");
    }
    throw error;
  }
  if (withDate) noteServerClock(response.headers.get("Date"), sentAt, receivedAt);
  return parsed;
}

// --- one intent, one effect (issue 26) ----------------------------------------------------
// A request that changes something carries an Idempotency-Key (R8), and the page keeps it
// until the server answers: sent again meanwhile (a double-click's second press, a retry
// after no answer came or after the server's own trouble, 5xx), the same method, path and
// body go with the same key, and the server answers what it did the first time. An answer
// ends it: the same request made afterwards is a new one (a second credit of 10 is a credit).

const unanswered = new Map(); // "METHOD path body" -> the key it was sent with

function keyOf(method, path, body) {
  const request = `${method} ${path} ${JSON.stringify(body ?? null)}`;
  if (!unanswered.has(request)) unanswered.set(request, crypto.randomUUID());
  return { request, key: unanswered.get(request) };
}

const pressed = new WeakSet(); // controls whose press is under way

/** One press of ``control`` (a button, or a form with its buttons): ``send()`` runs, its
 * buttons are disabled until it ends, and a second press meanwhile does nothing (answers
 * undefined). ``send``'s answer is returned and its errors thrown on. */
export async function once(control, send) {
  if (pressed.has(control)) return undefined;
  pressed.add(control);
  const buttons = (control.matches("button") ? [control] : [...control.querySelectorAll("button")]).filter((button) => !button.disabled);
  for (const button of buttons) button.disabled = true;
  control.setAttribute("aria-busy", "true");
  try {
    return await send();
  } finally {
    pressed.delete(control);
    for (const button of buttons) button.disabled = false;
    control.removeAttribute("aria-busy");
  }
}

// The server's clock, as far as its Date headers tell: deadlines are its times. A Date header
// is in whole seconds, and the server (uvicorn) renews the one it sends once a second, so it
// is up to DATE_LAG_MS behind the moment of the answer, and more when the server's loop was
// held up; the answer left the server between this page's sending and receiving. One answer
// thus bounds the server's clock's lead on this browser's: at least `told - received`, at
// most `told + DATE_LAG_MS - sent`. A late header lowers both bounds and never raises them, so
// the highest bounds of the last few answers are taken. (The lead was once the one last
// header's distance from now, taken as a skew beyond 1.5 s: one answer in eight or so gave
// -1.5 to -2 s with no skew at all, and a decision clock showed 18 s where 15 were left.)
const DATE_LAG_MS = 2500;
const CLOCK_ANSWERS = 8;
const clockAnswers = [];
let serverOffsetMs = 0;

/** The server's clock's lead on this browser's, in ms, from answers `{told, sent, received}`
 * (the Date header and this browser's times around the request): a lead or lag only where
 * every reading of them allows no less (0 where they allow none). */
export function serverLeadOf(answers) {
  if (!answers.length) return 0;
  const atLeast = Math.max(...answers.map(({ told, received }) => told - received));
  const atMost = Math.max(...answers.map(({ told, sent }) => told + DATE_LAG_MS - sent));
  if (atLeast > 0) return atLeast;
  if (atMost < 0) return atMost;
  return 0;
}

function noteServerClock(header, sent, received) {
  const told = header ? Date.parse(header) : NaN;
  if (Number.isNaN(told)) return;
  clockAnswers.push({ told, sent, received });
  if (clockAnswers.length > CLOCK_ANSWERS) clockAnswers.shift();
  serverOffsetMs = serverLeadOf(clockAnswers);
}

/** Milliseconds on this browser's clock at the server's epoch time `seconds`. */
export function localTimeOf(seconds) {
  return seconds * 1000 - serverOffsetMs;
}

// --- news between a page's modules -------------------------------------------------------

// A page's modules tell each other what the page has learnt (the operator's page: its tables,
// its players). Module scripts run one after another, and the event loop turns between them:
// an answer can come back and be told before a later module has run and started listening. So
// the latest news is kept, and a module that starts following gets it at once.
const latestNews = new Map();

/** Tell the page's modules `name`'s news (`croupier:<name>` on the document). */
export function announce(name, detail) {
  latestNews.set(name, detail);
  document.dispatchEvent(new CustomEvent(`croupier:${name}`, { detail }));
}

/** `handler(detail)` for each of `name`'s news from now on, and now for the latest, if any. */
export function follow(name, handler) {
  document.addEventListener(`croupier:${name}`, (event) => handler(event.detail));
  if (latestNews.has(name)) handler(latestNews.get(name));
}

// --- page chrome --------------------------------------------------------------------------

export function showNotice(text, kind = "info") {
  const notice = byId("notice");
  if (!notice) return;
  notice.removeAttribute("data-network");
  notice.textContent = text;
  notice.dataset.kind = kind;
  notice.hidden = !text;
}

export function clearNotice() {
  showNotice("");
}

/** Show the navigation that fits who is signed in; wire "sign out". */
export function setUpChrome() {
  const role = session.token ? session.role : null;
  for (const element of document.querySelectorAll("[data-when]")) {
    const when = element.dataset.when;
    element.hidden = !(
      (when === "anonymous" && !role) ||
      (when === "signed-in" && role) ||
      (when === "player" && role === "player") ||
      (when === "operator" && role === "operator")
    );
  }
  const who = byId("who");
  if (who) who.textContent = role ? t("nav.signed_in_as", { name: session.username }) : "";
  const signOut = byId("sign-out");
  if (signOut) {
    signOut.addEventListener("click", async () => {
      signingOut = true;
      try {
        await signOutRequest();
      } catch {
        // the session is ended on this side whatever the server says
      }
      session.end();
      location.assign("/sign-in");
    });
  }
}

let signOutRequest = async () => {};

// Signing out closes this session's sockets (code 4401) before its answer comes back: a page
// whose socket hears that close while the person signs out leaves the way to go to them.
let signingOut = false;

/** Whether the person chose "sign out" on this page (then the sign-out says where to go). */
export function isSigningOut() {
  return signingOut;
}

export function onSignOut(request) {
  signOutRequest = request;
}

/** Send the visitor to sign in (and back here afterwards) unless signed in as `role`. */
export function requireSession(role = null) {
  if (!session.token || (role && session.role !== role)) {
    const back = encodeURIComponent(location.pathname + location.search);
    location.replace(`/sign-in?next=${back}`);
    return false;
  }
  return true;
}

export function reportError(error) {
  showNotice(messageOf(error), "error");
  const notice = byId("notice");
  if (notice) notice.toggleAttribute("data-network", error instanceof ApiError && error.status === 0);
}

/** The connection is back: a notice that the server cannot be reached is no longer true. */
export function clearNetworkNotice() {
  if (byId("notice")?.hasAttribute("data-network")) clearNotice();
}
