import { byId, clearNotice, once, session, setUpChrome } from "./common.js";
import { server } from "./server.js";

setUpChrome();

byId("sign-up-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearNotice();
  const form = event.currentTarget;
  const error = byId("form-error");
  error.hidden = true;
  const username = form.username.value.trim();
  const password = form.password.value;
  try {
    // One press, one account: a second press meanwhile would be refused as a name taken.
    await once(form, async () => {
      await server.signUp(username, password);
      const answer = await server.signIn(username, password);
      session.start(answer.token, "player", answer.username ?? username);
      const me = await server.me();
      session.start(answer.token, me.role, me.username);
      location.assign("/");
    });
  } catch (failure) {
    error.textContent = failure.detail ?? String(failure);
    error.hidden = false;
  }
});
