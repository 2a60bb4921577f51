// The operator's page, beside operator.js (issue 14): the disputes and their decisions, read
// only (the inspector decides), and the staff: grant and remove the dealer and inspector roles.

import { byId, clearNotice, h, labelCells, moneyMinor, reportError, session, showNotice, t } from "./common.js";
import { disputes, perPlayer } from "./dispute-api.js";

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

async function change(request, done) {
  clearNotice();
  try {
    await request();
    showNotice(done, "ok");
  } catch (error) {
    reportError(error);
  }
  await loadStaff();
}

async function loadStaff() {
  const answer = await disputes.staff();
  byId("operator-staff").querySelector("tbody").replaceChildren(
    ...answer.staff.flatMap((member) =>
      member.roles.map((role) =>
        h("tr", { dataset: { staff: member.username, role } },
          h("th", { scope: "row" }, member.username),
          h("td", {}, t(`role.${role}`)),
          h("td", {}, role === "dealer" && member.tables.length ? member.tables.map((id) => `#${id}`).join(", ") : "–"),
          h("td", {}, h("button", {
            type: "button",
            class: "remove-role",
            onclick: () => change(() => disputes.remove(member.username, role),
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
  change(() => disputes.grant(username, role), t("operator.role_granted", { name: username, role: t(`role.${role}`) }));
});

if (session.token && session.role === "operator") {
  Promise.all([loadDisputes(), loadStaff()]).catch(reportError);
}
