import { byId, clearNotice, once, reportError, session, setUpChrome } from "./common.js";
import { server } from "./server.js";

setUpChrome();

function nextPage(fallback) {
  const next = new URLSearchParams(location.search).get("next");
  // Only a path on this site: never an open redirect.
  return next && next.startsWith("/") && !next.startsWith("//") ? next : fallback;
}

byId("sign-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearNotice();
  const form = event.currentTarget;
  const error = byId("form-error");
  error.hidden = true;
  const username = form.username.value.trim();
  try {
    // One press, one session (a second press meanwhile would open another).
    await once(form, async () => {
      const answer = await server.signIn(username, form.password.value);
      session.start(answer.token, "player", answer.username ?? username);
      const me = await server.me();
      session.start(answer.token, me.role, me.username);
      location.assign(nextPage("/"));
    });
  } catch (failure) {
    error.textContent = failure.detail ?? String(failure);
    error.hidden = false;
    form.password.focus();
  }
});

byId("operator-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  session.start(form.token.value.trim(), "operator", "operator");
  try {
    const me = await server.me();
    session.start(form.token.value.trim(), me.role ?? "operator", me.username ?? "operator");
    location.assign(nextPage("/operator"));
  } catch (failure) {
    session.end();
    reportError(failure);
  }
});
