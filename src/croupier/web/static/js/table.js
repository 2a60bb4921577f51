// A live table: the felt, the seats, the timer, the bets and the decisions the server says
// are legal, kept current over the table's WebSocket. A reload (or a dropped connection)
// asks the server for the whole state again, so a round carries on where it was.

import {
  ApiError, byId, clearNotice, h, money, onSignOut, reportError, requireSession,
  session, setUpChrome, showNotice, t, tOr,
} from "./common.js";
import { drawFelt } from "./felt.js";
import { server } from "./server.js";
import { describeLimits, limitsOf, seatMap } from "./tables.js";

onSignOut(server.signOut);
setUpChrome();

const tableId = Number(document.body.dataset.tableId);
const CHIP_VALUES = [1, 5, 25, 100, 500];
const GAME_WAGERS = {
  blackjack: ["main", "21+3"],
  baccarat: ["player", "banker", "tie", "player_pair", "banker_pair"],
  "casino-holdem": ["ante", "progressive"],
};

const state = {
  table: null,
  round: null,
  view: null,
  mySeats: new Set(),
  deadline: null, // in this browser's clock (ms)
  busy: false,
};
let focusedWager = null;

// --- reading the server's answers ----------------------------------------------------------

/** Take a table state (from GET or from a WebSocket message) into `state`. */
function absorb(message) {
  if (!message || typeof message !== "object") return;
  if (message.table) state.table = { ...(state.table ?? {}), ...message.table };
  if ("round" in message) state.round = message.round;
  if ("view" in message) state.view = message.view;
  else if (message.round && "view" in message.round) state.view = message.round.view;
  if (message.balance !== undefined) byId("balance").textContent = money(message.balance);
  const deadline = message.deadline ?? message.round?.deadline ?? null;
  const remaining = message.seconds_left ?? message.round?.seconds_left ?? null;
  const now = message.server_time ?? message.now ?? null;
  if (remaining !== null) state.deadline = Date.now() + remaining * 1000;
  else if (deadline !== null && now !== null) state.deadline = Date.now() + (deadline - now) * 1000;
  else if (deadline !== null) state.deadline = deadline * 1000;
  else if ("round" in message || "deadline" in message) state.deadline = null;
  state.mySeats = new Set();
  for (const [seat, who] of seatMap(state.table ?? {})) {
    if (who !== null && who === session.username) state.mySeats.add(seat);
  }
  if (Array.isArray(message.my_seats)) for (const seat of message.my_seats) state.mySeats.add(Number(seat));
}

function phase() {
  return state.view?.phase ?? state.round?.status ?? null;
}

function legalActions() {
  const legal = state.view?.legal_actions ?? state.round?.legal_actions ?? [];
  return legal.map((entry) => (typeof entry === "string" ? entry : String(entry.action ?? entry.name)));
}

function wagersOfTable() {
  const table = state.table ?? {};
  if (Array.isArray(table.wagers) && table.wagers.length) return table.wagers.map((w) => (typeof w === "string" ? w : w.name));
  return GAME_WAGERS[table.game] ?? ["main"];
}

function isBetting() {
  const status = phase();
  return status === "betting" || (!state.round && state.table?.is_open !== false);
}

// --- drawing --------------------------------------------------------------------------------

function drawHead() {
  const table = state.table ?? {};
  byId("table-name").textContent = table.name ?? t("table.title");
  document.title = `${table.name ?? t("table.title")} · croupier`;
  byId("table-game").textContent = tOr(`game.${table.game}`, table.game ?? "");
  byId("table-profile").textContent = table.profile ?? "";
  byId("table-limits").textContent = describeLimits(table);
  const status = phase();
  byId("phase").textContent = status ? tOr(`phase.${status}`, status) : t("phase.waiting");
}

function sitButtonFor(seat) {
  if (state.mySeats.size > 0 && !(state.table?.seats_per_player > state.mySeats.size)) return null;
  return h("button", { type: "button", class: "sit", onclick: () => run(() => server.sit(tableId, seat)) }, t("table.sit_here", { seat }));
}

function drawFeltNow() {
  drawFelt(byId("dealer-area"), byId("seats"), state.view, seatMap(state.table ?? {}), {
    mySeats: state.mySeats,
    sitButtonFor,
  });
}

function drawSeatControls() {
  const box = byId("seat-controls");
  const mine = [...state.mySeats].sort((a, b) => a - b);
  if (!mine.length) {
    box.replaceChildren(h("p", { class: "hint" }, t("table.choose_seat")));
    return;
  }
  box.replaceChildren(
    h("p", {}, t("table.you_sit_at", { seats: mine.join(", ") })),
    isBetting()
      ? h("div", { class: "row" }, mine.map((seat) => h("button", { type: "button", class: "leave", onclick: () => run(() => server.leave(tableId, seat)) }, t("table.leave_seat", { seat }))))
      : null,
  );
}

function drawBetForm() {
  const form = byId("bet-form");
  const show = state.mySeats.size > 0 && isBetting();
  form.hidden = !show;
  if (!show) return;
  const inputs = byId("wager-inputs");
  const wanted = [...state.mySeats].sort((a, b) => a - b).flatMap((seat) => wagersOfTable().map((wager) => `${seat}:${wager}`));
  const present = [...inputs.querySelectorAll("input")].map((input) => input.name);
  if (wanted.join("|") !== present.join("|")) {
    const { minimum, maximum } = limitsOf(state.table ?? {});
    inputs.replaceChildren(
      ...wanted.map((name) => {
        const [seat, wager] = name.split(":");
        const id = `wager-${seat}-${wager.replace(/[^a-z0-9]/gi, "_")}`;
        const label = state.mySeats.size > 1
          ? t("table.wager_on_seat", { wager: tOr(`wager.${wager}`, wager), seat })
          : tOr(`wager.${wager}`, wager);
        return h(
          "label",
          { for: id, class: "wager" },
          h("span", {}, label),
          h("input", {
            id, name, type: "number", inputmode: "numeric", min: 0, step: 1,
            max: maximum ?? null, value: wager === wagersOfTable()[0] ? (minimum ?? 1) : 0,
            dataset: { seat, wager },
            onfocus: (event) => { focusedWager = event.currentTarget; },
          }),
        );
      }),
    );
    focusedWager = inputs.querySelector("input");
  }
  const chips = byId("chip-buttons");
  if (!chips.childElementCount) {
    chips.replaceChildren(
      ...CHIP_VALUES.map((value) =>
        h("button", {
          type: "button", class: `chip chip-${value}`, "aria-label": t("table.add_chip", { amount: money(value) }),
          onclick: () => {
            const input = focusedWager ?? byId("wager-inputs").querySelector("input");
            if (input) input.value = String((Number(input.value) || 0) + value);
          },
        }, money(value)),
      ),
      h("button", { type: "button", class: "clear-bets", onclick: () => {
        for (const input of byId("wager-inputs").querySelectorAll("input")) input.value = "0";
      } }, t("table.clear")),
    );
  }
  byId("ready").hidden = !state.round || !hasMyBets();
}

function hasMyBets() {
  const view = state.view ?? {};
  const entries = view.boxes ?? view.zones ?? view.seats ?? [];
  const list = Array.isArray(entries) ? entries : Object.values(entries);
  for (const entry of list) {
    if (state.mySeats.has(Number(entry.seat)) && Object.values(entry.bets ?? {}).some((v) => Number(v) > 0)) return true;
  }
  if (view.bets && Object.values(view.bets).some((v) => Number(v) > 0)) return true;
  return false;
}

function actionLabel(action) {
  const [name, amount] = action.split(" ");
  return amount === undefined
    ? tOr(`action.${name}`, name)
    : t("action.with_amount", { action: tOr(`action.${name}`, name), amount: money(amount) });
}

function drawActions() {
  const box = byId("actions");
  const legal = legalActions();
  const toAct = state.view?.to_act;
  const mine = toAct && state.mySeats.has(Number(toAct.seat));
  const buttons = mine ? legal : [];
  const current = [...box.querySelectorAll("button")].map((b) => b.dataset.action);
  if (current.join("|") !== buttons.join("|")) {
    box.replaceChildren(
      ...buttons.map((action, index) =>
        h("button", {
          type: "button", class: "action", dataset: { action },
          "aria-keyshortcuts": index < 9 ? String(index + 1) : null,
          onclick: () => run(() => server.act(tableId, Number(toAct.seat), action)),
        }, actionLabel(action)),
      ),
    );
    const first = box.querySelector("button");
    if (first && document.activeElement?.closest?.("#actions") === null) first.focus({ preventScroll: true });
  }
  const prompt = byId("prompt");
  if (mine) {
    const question = tOr(`question.${toAct.question}`, toAct.question ?? "");
    prompt.textContent = toAct.hand ? t("table.your_turn_hand", { hand: toAct.hand, question }) : t("table.your_turn", { question });
  } else if (toAct) {
    prompt.textContent = t("table.waiting_for_seat", { seat: toAct.seat });
  } else {
    prompt.textContent = "";
  }
}

function resultRows() {
  const view = state.view ?? {};
  const rows = [];
  const results = state.round?.results ?? view.wagers ?? null;
  if (Array.isArray(results)) {
    for (const r of results) rows.push(r);
    return rows;
  }
  const entries = view.boxes ?? view.zones ?? view.seats ?? [];
  const list = Array.isArray(entries) ? entries : Object.values(entries);
  for (const entry of list) {
    for (const hand of entry.hands ?? []) {
      if (hand.result) rows.push({ seat: entry.seat, wager: "main", hand: hand.hand, stake: hand.bet, result: hand.result, payout: hand.payout });
    }
    if (entry.results && typeof entry.results === "object") {
      for (const [wager, r] of Object.entries(entry.results)) rows.push({ seat: entry.seat, wager, stake: r.bet ?? r.stake, result: r.result, payout: r.payout });
    }
  }
  if (view.results && typeof view.results === "object" && !Array.isArray(view.results)) {
    for (const [wager, r] of Object.entries(view.results)) rows.push({ seat: view.seat, wager, stake: r.bet ?? r.stake, result: r.result, payout: r.payout });
  }
  return rows;
}

function drawResults() {
  const done = phase() === "done" || state.round?.status === "complete";
  const rows = done ? resultRows() : [];
  const section = byId("results");
  section.hidden = rows.length === 0;
  byId("results-body").replaceChildren(
    ...rows.map((r) =>
      h("tr", {},
        h("td", {}, r.hand ? t("table.seat_hand", { seat: r.seat, hand: r.hand }) : String(r.seat)),
        h("td", {}, tOr(`wager.${r.wager}`, r.wager)),
        h("td", {}, money(r.stake)),
        h("td", {}, h("span", { class: `result result-${r.result}` }, tOr(`result.${r.result}`, r.result))),
        h("td", {}, money(r.payout)),
      ),
    ),
  );
  const roundId = state.round?.id;
  byId("recall-link").href = roundId ? `/recall/${roundId}` : "#";
}

function draw() {
  drawHead();
  drawFeltNow();
  drawSeatControls();
  drawBetForm();
  drawActions();
  drawResults();
  tick();
}

// --- the timer --------------------------------------------------------------------------------

function tick() {
  const timer = byId("timer");
  if (state.deadline === null) {
    timer.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((state.deadline - Date.now()) / 1000));
  timer.hidden = false;
  timer.dataset.urgent = left <= 5 ? "true" : "false";
  byId("timer-seconds").textContent = t("table.seconds", { seconds: left });
}
setInterval(tick, 250);

// --- talking to the server ---------------------------------------------------------------------

async function refresh() {
  absorb(await server.table(tableId));
  draw();
}

async function run(request) {
  if (state.busy) return;
  state.busy = true;
  clearNotice();
  try {
    const answer = await request();
    if (answer && typeof answer === "object") absorb(answer);
    await refresh();
  } catch (error) {
    reportError(error);
    if (error instanceof ApiError && error.status === 401) location.assign(`/sign-in?next=${encodeURIComponent(location.pathname)}`);
  } finally {
    state.busy = false;
  }
}

byId("bet-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const inputs = [...byId("wager-inputs").querySelectorAll("input")];
  const bets = inputs
    .map((input) => ({ seat: Number(input.dataset.seat), wager: input.dataset.wager, text: input.value.trim() }))
    .filter((bet) => bet.text !== "" && bet.text !== "0");
  for (const bet of bets) {
    if (!/^\d+$/.test(bet.text)) {
      showNotice(t("table.whole_amount", { value: bet.text }), "error");
      return;
    }
  }
  run(async () => {
    for (const bet of bets) await server.bet(tableId, bet.seat, bet.wager, Number(bet.text));
    return null;
  });
});
byId("ready").addEventListener("click", () => run(() => server.ready(tableId)));

// Keys 1-9 press the decision buttons (the buttons are real buttons: Tab and Enter work too).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const index = Number(event.key) - 1;
  if (Number.isInteger(index) && index >= 0 && index < 9) {
    const button = byId("actions").querySelectorAll("button")[index];
    if (button) {
      event.preventDefault();
      button.click();
    }
  }
});

let socket = null;
let retry = 0;

function setConnection(kind) {
  const element = byId("connection");
  element.dataset.state = kind;
  element.textContent = t(`table.${kind}`);
}

function connect() {
  setConnection("connecting");
  socket = new WebSocket(server.tableSocketUrl(tableId, session.token));
  socket.addEventListener("open", () => {
    retry = 0;
    setConnection("connected");
    // Whatever happened while away: ask for the whole state again.
    refresh().catch(reportError);
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    absorb(message);
    draw();
    if (message.refresh || message.type === "changed") refresh().catch(reportError);
  });
  socket.addEventListener("close", () => {
    setConnection("reconnecting");
    retry += 1;
    setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(retry, 5)));
  });
  socket.addEventListener("error", () => {
    // "close" follows and reconnects; nothing to report twice.
  });
}

if (requireSession()) {
  refresh()
    .then(connect)
    .catch((error) => {
      reportError(error);
      connect();
    });
}
