// What the table page shows beside the round: the rules panel, how much of the shoe is dealt,
// and baccarat's roads. table.js calls ``drawTableInfo`` each time the felt is drawn or a card
// turns up; counts and roads wait for the felt to have dealt its cards out, so they never
// tell a card before the felt shows it.

import { drawShoeMeter, drawShoeRoads } from "./roads.js";
import { drawRulesPanel } from "./rules_panel.js";

export function drawTableInfo(tableId, table, round, view, dealtOut) {
  drawRulesPanel(tableId, round?.id ?? null, view);
  drawShoeMeter(table?.shoe_cards ?? null, dealtOut);
  drawShoeRoads(tableId, table?.game, table?.shoe, round?.id, dealtOut);
}
