// The inspector's queue (issue 14): every dispute, open ones first, with what the ledger paid
// beside what `croupier settle` pays for the record, and the shoe's commitment check.

import { byId, h, labelCells, moneyMinor, onSignOut, reportError, requireSession, setUpChrome, t } from "./common.js";
import { disputes, perPlayer } from "./dispute-api.js";
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

if (requireSession("player")) show().catch(reportError);
