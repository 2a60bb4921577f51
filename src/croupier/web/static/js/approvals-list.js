// The approvals list (issue 25), one for the inspector's page and the operator's
// (templates/approvals_list.html): each approval's cells, its status, and the decision cell
// the page gives (the inspector's buttons, or the operator's reading of the decision).

import { byId, h, labelCells, moneyMinor, t } from "./common.js";
import { perPlayer } from "./dispute-api.js";

/** The cells every approvals list shows, before its status and its decision. */
function approvalCells(item) {
  const check = item.resettlement;
  return [
    h("th", { scope: "row" }, `#${item.approval}`),
    h("td", {}, t(`approval.kind.${item.kind}`, { dispute: item.dispute })),
    h("td", {}, `#${item.round} · ${item.table ?? "–"}`),
    h("td", {}, item.requested_by),
    h("td", {}, item.reason || "–"),
    h("td", { class: "amount" }, item.amounts.map((a) => `${a.username} ${moneyMinor(a.amount)}`).join(", ") || "–"),
    h("td", {},
      h("div", {}, `${t("inspector.paid")}: ${perPlayer(check.paid, moneyMinor)}`),
      h("div", {}, `${t("inspector.resettled")}: ${perPlayer(check.resettled, moneyMinor)}`),
      check.problem ? h("div", { class: "hint" }, check.problem) : null),
  ];
}

/** A decided approval's decision: who decided, and their reason. */
export function decidedCell(item) {
  const decided = t("approval.decided", { decision: t(`approval.status.${item.status}`), by: item.decided_by ?? "–" });
  return h("td", {}, h("div", {}, decided), item.decision_reason ? h("div", { class: "hint" }, item.decision_reason) : null);
}

/** Fill the list ``tableId`` with ``items`` (``emptyId`` says when there are none);
 * ``decision(item)`` is each row's last cell. */
export function drawApprovals(tableId, emptyId, items, decision) {
  const table = byId(tableId);
  table.querySelector("tbody").replaceChildren(
    ...items.map((item) =>
      h("tr", { dataset: { approval: item.approval, status: item.status } },
        ...approvalCells(item),
        h("td", { class: "status" }, t(`approval.status.${item.status}`)),
        decision(item),
      ),
    ),
  );
  labelCells(table);
  byId(emptyId).hidden = items.length > 0;
}
