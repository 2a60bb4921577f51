import { byId, h, money, onSignOut, reportError, requireSession, setUpChrome, t, tOr } from "./common.js";
import { server } from "./server.js";

onSignOut(server.signOut);
setUpChrome();

function when(seconds) {
  if (!seconds) return "–";
  return new Intl.DateTimeFormat(document.documentElement.lang, {
    dateStyle: "short",
    timeStyle: "medium",
  }).format(new Date(seconds * 1000));
}

async function show() {
  const me = await server.me();
  byId("balance").textContent = money(me.balance);
  const answer = await server.myRounds();
  const rounds = Array.isArray(answer) ? answer : (answer.rounds ?? []);
  byId("history").querySelector("tbody").replaceChildren(
    ...rounds.map((round) =>
      h(
        "tr",
        {},
        h("th", { scope: "row" }, `#${round.id ?? round.round}`),
        h("td", {}, round.table_name ?? round.table ?? ""),
        h("td", {}, tOr(`game.${round.game}`, round.game ?? "")),
        h("td", {}, tOr(`status.${round.status}`, round.status ?? "")),
        h("td", {}, money(round.staked)),
        h("td", {}, money(round.returned)),
        h("td", {}, when(round.ended_at ?? round.created_at)),
        h("td", {}, h("a", { href: `/recall/${round.id ?? round.round}` }, t("me.recall"))),
      ),
    ),
  );
  byId("history-empty").hidden = rounds.length > 0;
}

if (requireSession()) show().catch(reportError);
