// "Dispute this round" (issue 14): the form on the recall page, and on the account page the
// links to the player's disputes and, for an inspector, to the queue. Beside recall.js and
// account.js, which it does not touch.

import { byId, h, once, reportError, session, showNotice, t } from "./common.js";
import { disputes } from "./dispute-api.js";

async function showInspectorLink() {
  const link = byId("inspector-link");
  if (!link || !session.token || session.role !== "player") return;
  const answer = await disputes.roles();
  link.hidden = !answer.roles.includes("inspector");
  const dealing = byId("dealer-link");
  if (dealing) dealing.hidden = !answer.roles.includes("dealer");
}

function wireDisputeForm() {
  const section = byId("dispute-round");
  if (!section || !session.token || session.role !== "player") return;
  const roundId = Number(document.body.dataset.roundId);
  section.hidden = false;
  const form = byId("dispute-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = form.text.value.trim();
    if (!text) {
      showNotice(t("dispute.say_what"), "error");
      form.text.focus();
      return;
    }
    try {
      const filed = await once(form, () => disputes.file(roundId, text));
      if (filed === undefined) return; // pressed again meanwhile
      form.hidden = true;
      const done = byId("dispute-filed");
      done.replaceChildren(
        t("dispute.filed", { dispute: filed.dispute }), " ",
        h("a", { href: "/disputes" }, t("dispute.mine")),
      );
      done.hidden = false;
      showNotice(t("dispute.filed", { dispute: filed.dispute }), "ok");
    } catch (error) {
      reportError(error);
    }
  });
  if (location.hash === "#dispute-round") form.text.focus();
}

wireDisputeForm();
showInspectorLink().catch(reportError);
