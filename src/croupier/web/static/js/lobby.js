import { byId, h, money, onSignOut, reportError, requireSession, setUpChrome, t, tOr } from "./common.js";
import { server } from "./server.js";
import { describeLimits, freeSeats } from "./tables.js";

onSignOut(server.signOut);
setUpChrome();

async function showBalance() {
  const me = await server.me();
  const balance = byId("balance");
  if (balance) balance.textContent = money(me.balance);
}

async function showTables() {
  const tables = await server.tables();
  const list = Array.isArray(tables) ? tables : (tables.tables ?? []);
  const body = byId("lobby-tables").querySelector("tbody");
  body.replaceChildren(
    ...list.map((table) =>
      h(
        "tr",
        { dataset: { tableId: table.id } },
        h("th", { scope: "row" }, table.name),
        h("td", {}, tOr(`game.${table.game}`, table.game)),
        h("td", {}, table.profile),
        h("td", {}, describeLimits(table)),
        h("td", {}, table.is_open === false ? t("lobby.closed") : String(freeSeats(table))),
        h(
          "td",
          {},
          table.is_open === false
            ? ""
            : h("a", { class: "button", href: `/table/${table.id}` }, t("lobby.open_table", { name: table.name })),
        ),
      ),
    ),
  );
  byId("lobby-empty").hidden = list.length > 0;
}

if (requireSession()) {
  Promise.all([showTables(), showBalance()]).catch(reportError);
}
