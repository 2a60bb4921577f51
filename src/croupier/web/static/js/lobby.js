import { byId, h, labelCells, moneyMinor, onSignOut, reportError, requireSession, session, setUpChrome, t, tOr } from "./common.js";
import { profilesByName, server } from "./server.js";
import { describeAllLimits, describeLimits, freeSeats } from "./tables.js";

onSignOut(server.signOut);
setUpChrome();

async function showBalance() {
  if (session.role !== "player") return;
  const me = await server.me();
  byId("balance").textContent = moneyMinor(me.balance);
}

async function showTables() {
  const [answer, profiles] = await Promise.all([server.tables(), profilesByName(true)]);
  const body = byId("lobby-tables").querySelector("tbody");
  body.replaceChildren(
    ...answer.tables.map((table) => {
      const profile = profiles.get(table.profile);
      return h(
        "tr",
        { dataset: { tableId: table.id, game: table.game } },
        h("th", { scope: "row" }, table.name),
        h("td", {}, tOr(`game.${table.game}`, table.game)),
        h("td", {}, profile ? h("span", { title: profile.title }, table.profile) : table.profile),
        h("td", { title: describeAllLimits(profile) }, describeLimits(profile)),
        h("td", { class: "free-seats" }, table.is_open ? `${freeSeats(table, profile)} / ${profile?.seats ?? "?"}` : t("lobby.closed")),
        h("td", {}, table.is_open ? h("a", { class: "button", href: `/table/${table.id}` }, t("lobby.open_table", { name: table.name })) : ""),
      );
    }),
  );
  labelCells(byId("lobby-tables"));
  byId("lobby-empty").hidden = answer.tables.length > 0;
}

const LOBBY_REFRESH_MS = 10_000;

if (requireSession()) {
  Promise.all([showTables(), showBalance()]).catch(reportError);
  // Seats fill and free up while the lobby is open.
  setInterval(() => showTables().catch(reportError), LOBBY_REFRESH_MS);
}
