// The inspector's queue (issue 14): every dispute, open ones first, with what the ledger paid
// beside what `croupier settle` pays for the record, and the shoe's commitment check; then the
// payout corrections a dealer or the operator proposed, each confirmed or refused here.

import {
  byId, clearNotice, h, labelCells, moneyMinor, once, onSignOut, reportError, requireSession, setUpChrome, showNotice, t,
} from "./common.js";
import { decidedCell, drawApprovals } from "./approvals-list.js";
import { approvals, correctionStatus, corrections, disputes, holdsRole, perPlayer } from "./dispute-api.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

export function agrees(dispute) {
  return dispute.resettled !== null && JSON.stringify(sorted(dispute.paid)) === JSON.stringify(sorted(dispute.resettled));
}

function sorted(amounts) {
  return Object.fromEntries(Object.entries(amounts ?? {}).sort());
}

function commitmentCell(check) {
  // A physical shoe commits to nothing: its check is that its decks could hold its cards.
  const holds = (check.physical || check.commitment_holds) && check.cards_follow_the_shoe;
  return h("span", { class: "check", dataset: { ok: String(holds) } },
    h("strong", {}, holds ? t("inspector.holds") : t("inspector.fails")));
}

async function show() {
  const answer = await disputes.queue();
  byId("dispute-queue").querySelector("tbody").replaceChildren(
    ...answer.disputes.map((dispute) =>
      h("tr", { dataset: { dispute: dispute.dispute, status: dispute.status } },
        h("th", { scope: "row" }, `#${dispute.dispute}`),
        h("td", {}, `#${dispute.round}`),
        h("td", {}, dispute.filed_by),
        h("td", {}, dispute.text),
        h("td", { class: "status" }, t(`dispute.status.${dispute.status}`)),
        h("td", { class: "check", dataset: { ok: String(agrees(dispute)) } },
          h("div", {}, `${t("inspector.paid")}: ${perPlayer(dispute.paid, moneyMinor)}`),
          h("div", {}, `${t("inspector.resettled")}: ${perPlayer(dispute.resettled, moneyMinor)}`),
          dispute.problem ? h("div", {}, dispute.problem) : ""),
        h("td", {}, commitmentCell(dispute.commitment)),
        h("td", {}, h("a", { href: `/inspector/${dispute.dispute}`, class: "open-dispute" },
          dispute.status === "open" ? t("inspector.decide") : t("inspector.open"))),
      ),
    ),
  );
  labelCells(byId("dispute-queue"));
  byId("queue-empty").hidden = answer.disputes.length > 0;
}

async function decideCorrection(control, item, decision, reasonInput) {
  clearNotice();
  try {
    const decided = await once(control, () => corrections.decide(item.correction, decision, reasonInput.value));
    if (decided === undefined) return; // pressed again meanwhile
    const done = decision === "confirmed" ? "correction.confirmed_notice" : "correction.refused_notice";
    showNotice(t(done, { correction: item.correction }), "ok");
  } catch (error) {
    reportError(error);
  }
  await showCorrections();
}

function decisionCell(item) {
  if (item.status !== "proposed") {
    const decided = t("correction.decided", { decision: correctionStatus(item.status, t), by: item.decided_by ?? "–" });
    return h("td", {}, h("div", {}, h("div", {}, decided), item.decision_reason ? h("div", { class: "hint" }, item.decision_reason) : null));
  }
  const id = `refusal-${item.correction}`;
  const reason = h("input", { id, name: "reason", maxlength: 2000, autocomplete: "off" });
  return h("td", { class: "correction-decision" },
    h("label", { for: id }, t("correction.refusal_reason"), " ", reason),
    h("div", { class: "row wrap" },
      h("button", { type: "button", class: "confirm-correction", onclick: (event) => decideCorrection(event.currentTarget.parentElement, item, "confirmed", reason) }, t("correction.confirm")),
      h("button", { type: "button", class: "refuse-correction", onclick: (event) => decideCorrection(event.currentTarget.parentElement, item, "refused", reason) }, t("correction.refuse"))));
}

async function showCorrections() {
  const answer = await corrections.queue();
  byId("correction-queue").querySelector("tbody").replaceChildren(
    ...answer.corrections.map((item) =>
      h("tr", { dataset: { correction: item.correction, status: item.status } },
        h("th", { scope: "row" }, `#${item.correction}`),
        h("td", {}, `#${item.round} · ${item.table ?? "–"}`),
        h("td", {}, item.username),
        h("td", { class: "amount" }, moneyMinor(item.amount)),
        h("td", {}, item.reason),
        h("td", {}, item.proposed_by),
        // What the ledger paid the player for the round beside what the rules pay its record.
        h("td", { class: "check", dataset: { ok: String(item.resettled !== null && item.paid + item.corrected === item.resettled) } },
          h("div", {},
            h("div", {}, `${t("inspector.paid")}: ${moneyMinor(item.paid)}`),
            h("div", {}, `${t("inspector.resettled")}: ${item.resettled === null ? "–" : moneyMinor(item.resettled)}`),
            item.corrected ? h("div", {}, `${t("inspector.corrected")}: ${moneyMinor(item.corrected)}`) : null)),
        h("td", { class: "status" }, correctionStatus(item.status, t)),
        decisionCell(item),
      ),
    ),
  );
  labelCells(byId("correction-queue"));
  byId("corrections-empty").hidden = answer.corrections.length > 0;
}

// Four eyes (issue 25): what another member of staff asked, approved or refused here by an
// inspector other than the one who asked (the server refuses the asker's own).
async function answerApproval(item, decision, reasonInput) {
  clearNotice();
  try {
    const cell = reasonInput.closest("td");
    const answer = await once(cell, () => approvals.decide(item.approval, decision, reasonInput.value));
    if (answer === undefined) return; // pressed again meanwhile
    const done = decision === "approved" ? "approval.approved_notice" : "approval.refused_notice";
    showNotice(t(done, { approval: item.approval }), "ok");
  } catch (error) {
    reportError(error);
  }
  await Promise.all([showApprovals(), show()]);
}

function approvalDecisionCell(item) {
  if (item.status !== "awaiting") return decidedCell(item);
  const id = `approval-reason-${item.approval}`;
  const reason = h("input", { id, name: "reason", maxlength: 2000, autocomplete: "off" });
  return h("td", { class: "approval-decision" },
    h("label", { for: id }, t("approval.refusal_reason"), " ", reason),
    h("div", { class: "row wrap" },
      h("button", { type: "button", class: "approve", onclick: () => answerApproval(item, "approved", reason) }, t("approval.approve")),
      h("button", { type: "button", class: "refuse", onclick: () => answerApproval(item, "refused", reason) }, t("approval.refuse"))));
}

async function showApprovals() {
  const answer = await approvals.queue();
  drawApprovals("approval-queue", "approvals-empty", answer.approvals, approvalDecisionCell);
}

if (requireSession("player")) {
  holdsRole("inspector").then((holds) => holds && Promise.all([show(), showApprovals(), showCorrections()])).catch(reportError);
}
