// The pace of the deal on the live felt: the felt is drawn whole from each view the server
// pushes, and the cards new since the last drawing are turned up one after another, a short
// beat apart, as a dealer deals them, while the cards already seen stay still. Until its
// cards are all down, a hand keeps its total to itself, and the felt its results.
// Which cards are new is all this decides: what they are is the engine's view.

// The numbers are the server's (service/pace.py, rendered on the page): its decision clock
// allows for the drawing they time, so the clock starts when the cards asked about are down.
const BEAT_MS = Number(document.body.dataset.dealBeatMs); // between two cards: long enough to read each one
const LONGEST_MS = Number(document.body.dataset.dealLongestMs); // a deal of many boxes goes faster rather than longer

const due = new Map(); // "round|place" -> when that card shows (performance.now() time)
const turning = new Set(); // "round|place" of cards turned face up where a back lay
const lying = new Map(); // "round|where:index" -> the card last drawn there ("back": face down)
let queueEnd = 0;
let shownRound = null;
let timer = null;
let afterwards = () => {};

/** Where a card's place sorts when a deal lays many at once: round by round (the first card
 * of each box, then the house's, then the second...), the board last; otherwise in the order
 * of the felt, the boxes before the house. */
function order(cards, isDeal) {
  const house = { player: 0, banker: 1, dealer: 2, board: 3 };
  const rank = (card) => {
    const [where, index] = card.dataset.place.split(":");
    const inHouse = where in house;
    const group = inHouse ? 100 + house[where] : Number(where.split("-")[1]);
    if (!isDeal) return [inHouse ? 1 : 0, group, Number(index)];
    return [where === "board" ? 1 : 0, Number(index), group];
  };
  return [...cards].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

/** After each drawing of ``felt``: time the cards it shows for the first time. ``round`` is
 * the round drawn; on a page's first drawing (``still``) every card is already down. ``then``
 * runs now and each time a card turns up. */
export function paceDeal(felt, round, { still = false, then = () => {} } = {}) {
  afterwards = then;
  if (round !== shownRound) {
    for (const known of [due, turning, lying]) {
      for (const key of known.keys()) if (!key.startsWith(`${round}|`)) known.delete(key);
    }
    shownRound = round;
  }
  const now = performance.now();
  const cards = [...felt.querySelectorAll(".card[data-place]")];
  const fresh = cards.filter((card) => !due.has(`${round}|${card.dataset.place}`));
  const isDeal = fresh.length > 1 && fresh.length === cards.length;
  const beat = Math.min(BEAT_MS, LONGEST_MS / Math.max(1, fresh.length));
  let at = Math.max(now, queueEnd + beat);
  for (const card of order(fresh, isDeal)) {
    due.set(`${round}|${card.dataset.place}`, still ? 0 : at);
    if (!still) {
      queueEnd = at;
      at += beat;
    }
  }
  for (const card of cards) {
    const key = `${round}|${card.dataset.place}`;
    const [where, index, code] = card.dataset.place.split(":");
    const spot = `${round}|${where}:${index}`;
    if (fresh.includes(card) && lying.get(spot) === "back" && code !== "back") turning.add(key);
    lying.set(spot, code);
    card.dataset.due = String(due.get(key));
    card.classList.toggle("turning", turning.has(key));
  }
  reveal(felt);
}

/** Whether every card on the felt is down. */
export function dealtOut(felt) {
  return felt.querySelector(".card.pending") === null;
}

function reveal(felt) {
  clearTimeout(timer);
  const now = performance.now();
  let next = Infinity;
  for (const card of felt.querySelectorAll(".card[data-due]")) {
    const at = Number(card.dataset.due);
    const waiting = at > now;
    card.classList.toggle("pending", waiting);
    card.classList.toggle("dealt", !waiting && now - at < 300); // just turned up: it slides in
    if (waiting) next = Math.min(next, at);
  }
  for (const holder of felt.querySelectorAll(".hand, .side")) {
    holder.classList.toggle("dealing", holder.querySelector(".card.pending") !== null);
  }
  felt.classList.toggle("dealing", next !== Infinity);
  if (next !== Infinity) timer = setTimeout(() => reveal(felt), next - now + 5);
  afterwards();
}
