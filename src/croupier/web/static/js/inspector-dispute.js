// One dispute and its decision (issue 14): the round's record (in words), the verification, and the
// inspector's form: upheld with corrections (money moves with the decision, in one ledger
// transaction) or rejected with a reason.

import {
  byId, clearNotice, h, labelCells, minorOf, moneyMinor, once, onSignOut, reportError, requireSession, setUpChrome,
  showNotice, t, tOr,
} from "./common.js";
import { showCardsEntered } from "./cards-entered.js";
import { disputes, holdsRole, signedMinorOf } from "./dispute-api.js";
import { describe } from "./event-words.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

const disputeId = Number(document.body.dataset.disputeId);

function when(seconds) {
  if (!seconds) return "–";
  return new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "short", timeStyle: "medium" })
    .format(new Date(seconds * 1000));
}

function facts(list, pairs) {
  list.replaceChildren(...pairs.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));
}

function correctionRow(name, suggested) {
  const id = `correction-${name}`;
  return h("div", { class: "row wrap correction", dataset: { username: name } },
    h("label", { for: id }, t("inspector.correction_of", { name }), " ",
      h("input", { id, name: "amount", inputmode: "decimal", autocomplete: "off", class: "narrow-input",
        placeholder: "0.00", value: suggested ? (suggested / 100).toFixed(2) : "" })));
}

function showVerification(document_) {
  const check = document_.verification;
  const names = [...new Set([...document_.participants, ...Object.keys(check.paid), ...Object.keys(check.resettled ?? {})])].sort();
  const rows = names.map((name) => {
    const paid = check.paid[name] ?? 0;
    const resettled = check.resettled === null ? null : check.resettled[name] ?? 0;
    const corrected = check.corrected[name] ?? 0;
    const difference = resettled === null ? null : resettled - paid - corrected;
    return { name, paid, resettled, corrected, difference };
  });
  byId("verification").querySelector("tbody").replaceChildren(
    ...rows.map((row) => h("tr", { dataset: { username: row.name } },
      h("th", { scope: "row" }, row.name),
      h("td", { class: "amount paid" }, moneyMinor(row.paid)),
      h("td", { class: "amount resettled" }, row.resettled === null ? "–" : moneyMinor(row.resettled)),
      h("td", { class: "amount corrected" }, moneyMinor(row.corrected)),
      h("td", { class: "amount difference" }, row.difference === null ? "–" : moneyMinor(row.difference)),
    )),
  );
  labelCells(byId("verification"));
  const agreement = byId("agreement");
  const agree = check.resettled !== null && rows.every((row) => row.difference === 0);
  agreement.dataset.ok = String(agree);
  agreement.replaceChildren(h("strong", {}, check.problem ?? (agree ? t("inspector.agree") : t("inspector.disagree"))));
  const shoe = check.commitment;
  facts(byId("commitment-facts"), [
    [t("operator.shoe"), `#${shoe.shoe}`],
    [t("operator.commitment"), h("code", {}, shoe.commitment)],
    shoe.physical
      ? [t("inspector.commitment_holds"), t("inspector.physical_shoe")]
      : [t("inspector.commitment_holds"), shoe.commitment_holds ? t("inspector.holds") : t("inspector.fails")],
    [t("inspector.cards_follow"), shoe.cards_follow_the_shoe ? t("inspector.holds") : t("inspector.fails")],
  ]);
  return rows;
}

async function show() {
  const document_ = await disputes.one(disputeId);
  const record = document_.round_record;
  facts(byId("dispute-facts"), [
    [t("dispute.filed_by"), document_.filed_by],
    [t("dispute.text"), document_.text],
    [t("me.status"), t(`dispute.status.${document_.status}`)],
    [t("me.round"), `#${record.round} · ${record.table} · ${tOr(`game.${record.game}`, record.game)}`],
    [t("recall.rules_version"), record.rules_version],
    [t("me.when"), when(record.ended_at ?? record.started_at)],
    [t("dispute.appeal"), document_.rules.final ? t("dispute.final") : document_.rules.regulator],
  ]);
  const rows = showVerification(document_);
  byId("recall-link").href = `/recall/${record.round}`;
  // The record in the catalogue's words, as the recall says it (the inspector sees every card).
  byId("record-events").replaceChildren(...record.events.map((event) => h("li", { dataset: { kind: event.kind } }, describe(event))));
  showCardsEntered(byId("cards-entered"), record.cards_entered); // at a physical shoe: who entered each
  const form = byId("decision-form");
  if (document_.status !== "open") {
    form.hidden = true;
    const decided = byId("decided");
    decided.textContent = t("inspector.decided", {
      decision: t(`dispute.status.${document_.status}`),
      reason: document_.reason || "–",
      by: document_.decided_by ?? "–",
    });
    decided.hidden = false;
    return;
  }
  byId("correction-rows").replaceChildren(
    ...document_.participants.map((name) => correctionRow(name, rows.find((row) => row.name === name)?.difference)),
  );
}

byId("decision-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearNotice();
  const form = event.currentTarget;
  const decision = form.decision.value;
  if (!decision) {
    showNotice(t("inspector.choose"), "error");
    return;
  }
  const corrections = [];
  if (decision === "upheld") {
    for (const row of form.querySelectorAll(".correction")) {
      const input = row.querySelector("input");
      const text = input.value.trim();
      if (!text) continue;
      const minor = signedMinorOf(text, minorOf);
      if (minor === null) {
        showNotice(t("operator.bad_amount", { value: text }), "error");
        input.focus();
        return;
      }
      if (minor !== 0) corrections.push({ username: row.dataset.username, amount: minor });
    }
  }
  try {
    const answer = await once(form, () => disputes.decide(disputeId, decision, form.reason.value, corrections));
    if (answer === undefined) return; // pressed again meanwhile
    // Beyond what the round owes, a second inspector approves first (issue 25): 202.
    const waits = answer.status === "awaiting_approval";
    showNotice(waits ? t("inspector.decision_awaits", { approval: answer.approval }) : t("inspector.decision_recorded"), "ok");
    await show();
  } catch (error) {
    reportError(error);
  }
});

if (requireSession("player")) holdsRole("inspector").then((holds) => holds && show()).catch(reportError);
