// The dealer's console (issue 14): the dealer's tables; at a physical-shoe table, the shoe's
// procedures to confirm and each card entered as it leaves the real shoe. Keyboard first:
// the card field keeps the focus; type "Td" and press Enter, the page says where the next
// card goes. Everything shown comes from GET /dealer/tables/{id} (server.dealer_routes),
// read again whenever the table's WebSocket says the table changed (a bet, a player's
// decision, a deadline); a slow poll stands in while the socket is down.

import { api, byId, h, messageOf, once, onSignOut, reportError, requireSession, session, setUpChrome, t } from "./common.js";
import { cardRow, cardText, parseCard } from "./cards.js";
import { placeText, showCardsEntered } from "./cards-entered.js";
import { holdsRole } from "./dispute-api.js";
import { placeName } from "./felt.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

const dealer = {
  tables: () => api("GET", "/dealer/tables"),
  table: (id) => api("GET", `/dealer/tables/${id}`),
  card: (id, card) => api("POST", `/dealer/tables/${id}/cards`, { card }),
  procedure: (id, procedure) => api("POST", `/dealer/tables/${id}/shoe`, { procedure }),
  correct: (id, correction) => api("POST", `/dealer/tables/${id}/corrections`, correction),
  corrections: (id) => api("GET", `/dealer/tables/${id}/corrections`),
};

const POLL_MS = 1500;
/** The console does one thing at a time (common.js ``once``): a card entered, a procedure or
 * a correction holds every button until its answer (a card entered twice by an Enter pressed
 * twice is a card dealt twice). */
const desk = () => byId("main");
/** How often the console reads the table while its WebSocket is down (it pushes otherwise). */
let current = null;
let socketOpen = false;

function procedureText(name) {
  return t(`dealer.procedure.${name}`);
}

function showTables(listed) {
  const list = byId("dealer-tables");
  list.replaceChildren(
    ...listed.map((table) =>
      h("li", { dataset: { table: table.table } },
        h("a", { href: `/dealer?table=${table.table}`, class: table.table === current ? "current" : "" }, table.name),
        " ",
        h("span", { class: "muted" }, `${t(`profile.${table.profile}`)} · ${t(`dealer.shoe_kind.${table.shoe_kind}`)}`),
      ),
    ),
  );
  byId("dealer-no-tables").hidden = listed.length > 0;
}

function procedureButton(name) {
  return h("button", {
    type: "button",
    class: "procedure",
    dataset: { procedure: name },
    onclick: () => confirmProcedure(name),
  }, t("dealer.confirm", { procedure: procedureText(name) }));
}

/** Put `children` in `container` unless it already shows the same: each push redraws the
 * console, and a button replaced under the dealer's keyboard focus would lose the Enter. */
function replaceIfChanged(container, children) {
  const drawn = children.map((child) => child.outerHTML).join("");
  if (container.dataset.drawn === drawn) return;
  container.dataset.drawn = drawn;
  container.replaceChildren(...children);
}

function showShoe(shoe) {
  const state = byId("shoe-state");
  if (shoe.next_procedure) state.textContent = t("dealer.next_procedure", { procedure: procedureText(shoe.next_procedure) });
  else if (shoe.burns_left) state.textContent = t("dealer.burns_left", { count: shoe.burns_left });
  else state.textContent = `${t("dealer.ready")} ${t("dealer.cards_out", { count: shoe.cards_out })}`;
  const done = shoe.procedures.map(procedureText).join(", ");
  const parts = [];
  if (done) parts.push(t("dealer.procedures_done", { procedures: done }));
  // The burnt cards as the felt shows cards ("2♣"), not in the notation typed ("2c").
  if (shoe.burnt.length) parts.push(t("dealer.burnt", { cards: shoe.burnt.map(cardText).join(" ") }));
  byId("shoe-procedures").textContent = parts.join(" · ");
  const actions = [];
  if (shoe.next_procedure) actions.push(procedureButton(shoe.next_procedure));
  else if (shoe.is_ready && !shoe.cut_card_out && shoe.procedures.includes("cut_card_placed")) actions.push(procedureButton("cut_card_out"));
  replaceIfChanged(byId("shoe-actions"), actions);
}

function showRound(state) {
  // A void after a card was seen waits for an inspector (issue 25): the round stands still.
  const waiting = byId("void-waiting");
  waiting.hidden = state.void_waiting === null || state.void_waiting === undefined;
  waiting.textContent = waiting.hidden ? "" : t("dealer.void_awaiting", { approval: state.void_waiting });
  byId("round-heading").textContent = `${t("dealer.round", { round: state.round })} · ${t(`status.${state.status}`)}`;
  const view = state.view ?? { seats: [] };
  const house = [];
  if (view.dealer) house.push(h("div", { class: "console-hand", dataset: { who: "dealer" } }, h("span", {}, t("table.dealer")), cardRow(view.dealer.cards ?? [])));
  for (const side of ["player", "banker"]) {
    if (view[side]) house.push(h("div", { class: "console-hand", dataset: { who: side } }, h("span", {}, t(`purpose.${side}`)), cardRow(view[side].cards ?? [])));
  }
  if (view.board) house.push(h("div", { class: "console-hand", dataset: { who: "board" } }, h("span", {}, t("purpose.board")), cardRow(view.board)));
  byId("round-house").replaceChildren(...house);
  byId("round-seats").replaceChildren(
    ...view.seats.map((seat) =>
      h("div", { class: "console-hand", dataset: { seat: seat.seat } },
        h("span", {}, t("dealer.box", { seat: seat.seat })),
        ...seat.hands.map((hand) => cardRow(hand.cards ?? [])),
      ),
    ),
  );
}

function correctionButton(kind, label, body) {
  return h("button", {
    type: "button",
    class: "correction",
    dataset: { correction: kind, place: body.place ?? null },
    onclick: () => correct(body),
  }, label);
}

// The dealer's corrections (docs/rules.md D-GEN-11 to D-GEN-14), as GET .../corrections says
// they are legal now: a card found face up in the shoe or dealt in error (at a physical shoe,
// the card typed in the field first), a face-down card exposed in error (one button per place),
// a confused deal; the void has its reason's form.
function showCorrections(legal) {
  const kinds = new Set(legal.kinds);
  const buttons = [];
  for (const kind of ["face-up", "dealt-in-error"]) {
    if (kinds.has(kind)) buttons.push(correctionButton(kind, t(`dealer.correct.${kind}`), { kind }));
  }
  if (kinds.has("exposed")) {
    for (const place of legal.places) {
      buttons.push(correctionButton("exposed", t("dealer.correct.exposed", { place: placeName(place) }), { kind: "exposed", place }));
    }
  }
  if (kinds.has("confused-deal")) buttons.push(correctionButton("confused-deal", t("dealer.correct.confused-deal"), { kind: "confused-deal" }));
  replaceIfChanged(byId("correction-actions"), buttons);
  byId("void-form").hidden = !kinds.has("void");
}

let physicalShoe = false;

function show(state) {
  physicalShoe = state.shoe_kind === "physical";
  byId("dealer-table").hidden = false;
  byId("dealer-table-name").textContent = `${state.name} · ${t(`profile.${state.profile}`)}`;
  const next = byId("next-card");
  next.textContent = state.shoe.next_procedure ? t("dealer.next_procedure", { procedure: procedureText(state.shoe.next_procedure) }) : placeText(state.next_card);
  next.dataset.purpose = state.next_card ? state.next_card.purpose : "none";
  // "The next card goes to" only above a place: above "No card is needed now" or a shoe's
  // procedure it contradicted the line it headed.
  byId("next-card-label").hidden = Boolean(state.shoe.next_procedure) || !state.next_card;
  showShoe(state.shoe);
  showRound(state);
  // Who entered each card of the round (a card's answer carries none: the read after it does).
  if (state.cards_entered) showCardsEntered(byId("cards-entered"), state.cards_entered);
}

async function refresh() {
  if (current === null) return;
  try {
    const [state, legal] = await Promise.all([dealer.table(current), dealer.corrections(current)]);
    show(state);
    showCorrections(legal);
  } catch (error) {
    reportError(error);
  }
}

async function confirmProcedure(name) {
  try {
    const answer = await once(desk(), () => dealer.procedure(current, name));
    if (answer === undefined) return; // pressed again meanwhile
    show(answer);
    byId("card-result").textContent = t("dealer.procedures_done", { procedures: procedureText(name) });
  } catch (error) {
    byId("card-result").textContent = messageOf(error);
  }
  byId("card-input").focus();
}

async function correct(body) {
  const input = byId("card-input");
  const result = byId("card-result");
  // A physical shoe's card is the dealer's to name; a random shoe's nobody may name.
  const named = physicalShoe && (body.kind === "face-up" || body.kind === "dealt-in-error");
  if (named) {
    if (!parseCard(input.value)) {
      result.textContent = t("dealer.not_a_card");
      result.dataset.ok = "false";
      input.focus();
      return;
    }
    body = { ...body, card: input.value.trim() };
  }
  try {
    const answer = await once(desk(), () => dealer.correct(current, body));
    if (answer === undefined) return; // pressed again meanwhile
    result.textContent = answer.status === "awaiting_approval"
      ? t("dealer.void_awaiting", { approval: answer.approval })
      : t("dealer.corrected", { correction: answer.correction });
    result.dataset.ok = "true";
    if (named) input.value = "";
    await refresh();
  } catch (error) {
    result.textContent = messageOf(error);
    result.dataset.ok = "false";
  }
  input.focus();
}

async function enterCard(event) {
  event.preventDefault();
  const input = byId("card-input");
  const text = input.value.trim();
  const result = byId("card-result");
  if (!parseCard(text)) {
    result.textContent = t("dealer.not_a_card");
    result.dataset.ok = "false";
    input.select();
    return;
  }
  try {
    const answer = await once(desk(), () => dealer.card(current, text));
    if (answer === undefined) return; // pressed again meanwhile
    result.textContent = t("dealer.went", { card: answer.card, place: placeText(answer.went) });
    result.dataset.ok = "true";
    input.value = "";
    show(answer);
    await refresh();
  } catch (error) {
    result.textContent = messageOf(error);
    result.dataset.ok = "false";
    input.select();
  }
  input.focus();
}

async function start() {
  const listed = (await dealer.tables()).tables;
  const asked = Number(new URLSearchParams(location.search).get("table"));
  const chosen = listed.find((table) => table.table === asked) ?? listed[0];
  current = chosen ? chosen.table : null;
  showTables(listed);
  if (current === null) return;
  byId("card-form").addEventListener("submit", enterCard);
  byId("void-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const reason = event.currentTarget.reason.value.trim();
    if (reason) correct({ kind: "void", reason });
  });
  await refresh();
  byId("card-input").focus();
  listen(0);
  setInterval(() => {
    if (!socketOpen) refresh();
  }, POLL_MS);
}

/** The table's WebSocket: each push means the table changed, so the console reads it again
 * at once (the push is the table as a player sees it; the console shows the dealer's view). */
function listen(retry) {
  const socket = new WebSocket(server.tableSocketUrl(current, session.token));
  socket.addEventListener("open", () => {
    socketOpen = true;
    retry = 0;
  });
  socket.addEventListener("message", () => refresh());
  socket.addEventListener("close", () => {
    socketOpen = false;
    setTimeout(() => listen(retry + 1), Math.min(5000, 250 * 2 ** Math.min(retry, 5)));
  });
}

if (requireSession("player")) holdsRole("dealer").then((holds) => holds && start()).catch(reportError);
