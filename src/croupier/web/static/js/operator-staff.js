// The operator's page, beside operator.js (issue 14): the disputes and their decisions and the
// payout corrections, read only (an inspector decides), and the staff: grant and remove the
// dealer and inspector roles, assign dealers to tables and take them off.

import { byId, clearNotice, follow, h, labelCells, minorOf, moneyMinor, once, reportError, session, showNotice, t } from "./common.js";
import { decidedCell, drawApprovals } from "./approvals-list.js";
import { approvals, correctionStatus, corrections, disputes, perPlayer, signedMinorOf } from "./dispute-api.js";
import { server } from "./server.js";

let tableNames = new Map(); // table id -> name

async function loadDisputes() {
  const answer = await disputes.ofOperator();
  byId("operator-disputes").querySelector("tbody").replaceChildren(
    ...answer.disputes.map((dispute) =>
      h("tr", { dataset: { dispute: dispute.dispute, status: dispute.status } },
        h("th", { scope: "row" }, `#${dispute.dispute}`),
        h("td", {}, `#${dispute.round}`),
        h("td", {}, dispute.filed_by),
        h("td", { class: "status" }, t(`dispute.status.${dispute.status}`)),
        h("td", {},
          h("div", {}, `${t("inspector.paid")}: ${perPlayer(dispute.paid, moneyMinor)}`),
          h("div", {}, `${t("inspector.resettled")}: ${perPlayer(dispute.resettled, moneyMinor)}`)),
        h("td", {}, dispute.reason || "–"),
        h("td", { class: "amount" },
          dispute.corrections.length ? dispute.corrections.map((item) => `${item.username} ${moneyMinor(item.amount)}`).join(", ") : "–"),
      ),
    ),
  );
  labelCells(byId("operator-disputes"));
  byId("operator-disputes-empty").hidden = answer.disputes.length > 0;
}

// What waits for a second inspector (issue 25), read only: inspectors answer.
async function loadApprovals() {
  const answer = await approvals.ofOperator();
  drawApprovals("operator-approvals", "operator-approvals-empty", answer.approvals,
    (item) => (item.status === "awaiting" ? h("td", {}, "–") : decidedCell(item)));
}

async function loadCorrections() {
  const answer = await corrections.ofOperator();
  byId("operator-corrections").querySelector("tbody").replaceChildren(
    ...answer.corrections.map((item) =>
      h("tr", { dataset: { correction: item.correction, status: item.status } },
        h("th", { scope: "row" }, `#${item.correction}`),
        h("td", {}, `#${item.round} · ${item.table ?? "–"}`),
        h("td", {}, item.username),
        h("td", { class: "amount" }, moneyMinor(item.amount)),
        h("td", {}, item.reason),
        h("td", {}, item.proposed_by),
        h("td", { class: "status" }, correctionStatus(item.status, t)),
        h("td", {}, item.status === "proposed"
          ? "–"
          : h("div", {}, t("correction.decided", { decision: correctionStatus(item.status, t), by: item.decided_by ?? "–" }),
            item.decision_reason ? h("div", { class: "hint" }, item.decision_reason) : null)),
      ),
    ),
  );
  labelCells(byId("operator-corrections"));
  byId("operator-corrections-empty").hidden = answer.corrections.length > 0;
}

async function loadTableChoices() {
  chooseFrom((await server.tables()).tables);
}

/** The tables a dealer may be assigned to, kept as they are: the operator's page sends every
 * list of tables it reads (a table opened here or elsewhere; issue 26, item 7). */
function chooseFrom(tables) {
  tableNames = new Map(tables.map((table) => [Number(table.id), table.name]));
  const select = byId("assign-table");
  const chosen = select.value;
  select.replaceChildren(
    h("option", { value: "" }, "–"),
    ...tables.map((table) => h("option", { value: table.id }, `#${table.id} · ${table.name}`)),
  );
  select.value = chosen;
}

follow("tables", chooseFrom);

function dealerTables(member) {
  if (!member.tables.length) return "–";
  return member.tables.map((id) =>
    h("span", { class: "dealer-table", dataset: { table: id } },
      `#${id} ${tableNames.get(Number(id)) ?? ""} `,
      h("button", {
        type: "button",
        class: "unassign-dealer link",
        onclick: (event) => change(event.currentTarget, () => disputes.unassign(id, member.username),
          t("operator.dealer_unassigned", { name: member.username, table: tableNames.get(Number(id)) ?? `#${id}` })),
      }, t("operator.unassign"))));
}

/** One press of ``control``: ``request()`` once (common.js ``once``), then the staff again. */
async function change(control, request, done) {
  clearNotice();
  try {
    if ((await once(control, request)) === undefined) return; // pressed again meanwhile
    showNotice(done, "ok");
  } catch (error) {
    reportError(error);
  }
  await loadStaff();
}

let staffAsked = 0; // the reads of the staff asked for so far: only the last one is drawn

async function loadStaff() {
  // The page's first read may answer after a grant's own read (a slow start): drawn then, its
  // older list hid the role just granted (CI of c21e693). The answer of the last read asked
  // for is the one drawn; an earlier one arriving after it is dropped.
  const asked = ++staffAsked;
  const answer = await disputes.staff();
  if (asked !== staffAsked) return;
  byId("operator-staff").querySelector("tbody").replaceChildren(
    ...answer.staff.flatMap((member) =>
      member.roles.map((role) =>
        h("tr", { dataset: { staff: member.username, role } },
          h("th", { scope: "row" }, member.username),
          h("td", {}, t(`role.${role}`)),
          h("td", {}, role === "dealer" ? dealerTables(member) : "–"),
          h("td", {}, h("button", {
            type: "button",
            class: "remove-role",
            onclick: (event) => change(event.currentTarget, () => disputes.remove(member.username, role),
              t("operator.role_removed", { name: member.username, role: t(`role.${role}`) })),
          }, t("operator.remove_role"))),
        ),
      ),
    ),
  );
  labelCells(byId("operator-staff"));
}

byId("grant-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const username = form.username.value.trim();
  const role = form.role.value;
  change(form, () => disputes.grant(username, role), t("operator.role_granted", { name: username, role: t(`role.${role}`) }));
});

// The operator proposes a correction too (an inspector confirms it; nothing moves before).
byId("propose-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearNotice();
  const form = event.currentTarget;
  const roundId = Number(form.round.value.trim());
  const minor = signedMinorOf(form.amount.value, minorOf);
  if (!Number.isInteger(roundId) || roundId < 1) {
    showNotice(t("correction.bad_round", { value: form.round.value.trim() }), "error");
    form.round.focus();
    return;
  }
  if (minor === null || minor === 0) {
    showNotice(t("correction.bad_amount", { value: form.amount.value.trim() }), "error");
    form.amount.focus();
    return;
  }
  try {
    const made = await once(form, () => corrections.propose(roundId, form.username.value.trim(), minor, form.reason.value));
    if (made === undefined) return; // pressed again meanwhile
    showNotice(t("correction.proposed_notice", { correction: made.correction }), "ok");
    form.reset();
  } catch (error) {
    reportError(error);
  }
  await loadCorrections();
});

byId("assign-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const username = form.username.value.trim();
  const tableId = Number(form.table.value);
  if (!tableId) {
    showNotice(t("operator.choose_table"), "error");
    return;
  }
  const name = tableNames.get(tableId) ?? `#${tableId}`;
  change(form, () => disputes.assign(tableId, username), t("operator.dealer_assigned", { name: username, table: name }));
});

if (session.token && session.role === "operator") {
  Promise.all([loadDisputes(), loadApprovals(), loadCorrections(), loadTableChoices().then(loadStaff)]).catch(reportError);
}
