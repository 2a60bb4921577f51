// Every movement of money on the operator's page is confirmed first (issue 27, item 6): a
// dialog shows the player, the movement, the amount in the operator's language, the balance
// now and the balance it leaves, and only "Confirm" sends it. The request keeps one
// Idempotency-Key per intent (common.js ``api`` and ``once``): a double-click on Confirm
// sends it once, and the dialog stays open, its buttons disabled, until the server answers.

import { byId, moneyMinor, once, t } from "./common.js";

// A press outside the dialog's buttons (the second click of a double-click on Credit, which
// opened it) leaves the focus on Confirm: Enter still confirms, Escape still cancels.
byId("money-confirm")?.addEventListener("mousedown", (event) => {
  if (!event.target.closest("button, input, select, textarea, a")) event.preventDefault();
});

/** Ask to confirm ``movement`` ({username, direction: "credit" | "debit", minor, balance});
 * on "Confirm", ``send()`` runs once. Answers send's answer, or undefined when cancelled. */
export function confirmMovement(movement, send) {
  const dialog = byId("money-confirm");
  const form = byId("money-confirm-form");
  const sign = movement.direction === "credit" ? 1 : -1;
  const after = movement.balance === null || movement.balance === undefined ? null : movement.balance + sign * movement.minor;
  byId("confirm-player").textContent = movement.username;
  byId("confirm-kind").textContent = t(movement.direction === "credit" ? "operator.credit" : "operator.debit");
  byId("confirm-amount").textContent = moneyMinor(movement.minor);
  byId("confirm-before").textContent = movement.balance === null || movement.balance === undefined ? "–" : moneyMinor(movement.balance);
  byId("confirm-after").textContent = after === null ? "–" : moneyMinor(after);
  const warning = byId("confirm-warning");
  warning.hidden = !(after !== null && after < 0);
  warning.textContent = warning.hidden ? "" : t("office.debit_over_balance");
  return new Promise((resolve, reject) => {
    const finish = () => {
      form.removeEventListener("submit", submitted);
      dialog.removeEventListener("cancel", cancelled);
      if (dialog.open) dialog.close();
    };
    const cancelled = (event) => {
      if (form.getAttribute("aria-busy") === "true") {
        event.preventDefault(); // sent: its answer closes the dialog
        return;
      }
      finish();
      resolve(undefined);
    };
    const submitted = async (event) => {
      event.preventDefault();
      if (event.submitter?.value !== "confirm") return cancelled(event);
      try {
        const answer = await once(form, send);
        if (answer === undefined) return; // pressed again meanwhile: the first press answers
        finish();
        resolve(answer);
      } catch (error) {
        finish();
        reject(error);
      }
    };
    form.addEventListener("submit", submitted);
    dialog.addEventListener("cancel", cancelled);
    dialog.showModal();
    byId("confirm-money").focus();
  });
}
