import { byId, h, labelCells, moneyMinor, onSignOut, reportError, requireSession, setUpChrome, t, tOr } from "./common.js";
import { seatTotals } from "./rounds.js";
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
  byId("balance").textContent = moneyMinor(me.balance);
  const answer = await server.myRounds(50);
  const rounds = answer.rounds ?? [];
  byId("history").querySelector("tbody").replaceChildren(
    ...rounds.map((round) => {
      const mine = new Set((round.seats ?? []).filter((seat) => seat.user === me.user).map((seat) => Number(seat.seat)));
      const finished = Array.isArray(round.events);
      const totals = finished ? seatTotals(round.events, mine) : null;
      return h(
        "tr",
        { dataset: { round: round.round } },
        h("th", { scope: "row" }, `#${round.round}`),
        h("td", {}, round.table ?? "–"),
        h("td", {}, round.game ? tOr(`game.${round.game}`, round.game) : "–"),
        h("td", {}, tOr(`status.${round.status}`, round.status ?? "")),
        h("td", { class: "amount" }, totals ? moneyMinor(totals.staked) : "–"),
        h("td", { class: "amount" }, totals ? moneyMinor(totals.returned) : "–"),
        h("td", {}, when(round.ended_at ?? round.started_at)),
        h("td", {}, finished
          ? h("span", {}, h("a", { href: `/recall/${round.round}` }, t("me.recall")), " · ",
            h("a", { href: `/recall/${round.round}#dispute-round`, class: "dispute-link" }, t("dispute.this_round")))
          : ""),
      );
    }),
  );
  labelCells(byId("history"));
  byId("history-empty").hidden = rounds.length > 0;
}

if (requireSession()) show().catch(reportError);
