// A player's disputes (issue 14): each with its status, the decision and its reason, the
// corrections paid, and where the ruling may go to the regulator, the dossier to file.

import { byId, h, labelCells, moneyMinor, onSignOut, reportError, requireSession, setUpChrome, showNotice, t } from "./common.js";
import { disputes, downloadDossier } from "./dispute-api.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

function appeal(dispute) {
  if (dispute.final) return t("dispute.final");
  if (!dispute.dossier) return t("dispute.regulator_after", { regulator: dispute.regulator });
  return h("button", {
    type: "button",
    class: "dossier",
    onclick: () => downloadDossier(dispute.dispute).catch((error) => showNotice(error.message, "error")),
  }, t("dispute.dossier", { regulator: dispute.regulator }));
}

async function show() {
  const answer = await disputes.mine();
  byId("my-disputes").querySelector("tbody").replaceChildren(
    ...answer.disputes.map((dispute) =>
      h("tr", { dataset: { dispute: dispute.dispute, status: dispute.status } },
        h("th", { scope: "row" }, `#${dispute.dispute}`),
        h("td", {}, h("a", { href: `/recall/${dispute.round}` }, `#${dispute.round}`)),
        h("td", {}, dispute.text),
        h("td", { class: "status" }, t(`dispute.status.${dispute.status}`)),
        h("td", { class: "reason" }, dispute.reason || "–"),
        h("td", { class: "amount corrections" },
          dispute.corrections.length ? dispute.corrections.map((item) => moneyMinor(item.amount)).join(", ") : "–"),
        h("td", {}, appeal(dispute)),
      ),
    ),
  );
  labelCells(byId("my-disputes"));
  byId("disputes-empty").hidden = answer.disputes.length > 0;
}

if (requireSession("player")) show().catch(reportError);
