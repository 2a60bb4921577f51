// A round rebuilt from its record, event by event, in the shape the felt draws: the recall
// page steps through it, and the table page shows the last round's end while bets are open.

const BOARD_PURPOSES = new Set(["board"]);

function blackjackTotal(cards) {
  let sum = 0;
  let aces = 0;
  for (const code of cards) {
    const rank = code[0];
    if (rank === "A") { sum += 1; aces += 1; }
    else if ("TJQK".includes(rank)) sum += 10;
    else sum += Number(rank);
  }
  return aces && sum + 10 <= 21 ? sum + 10 : sum;
}

function baccaratTotal(cards) {
  let sum = 0;
  for (const code of cards) {
    const rank = code[0];
    sum += rank === "A" ? 1 : "TJQK".includes(rank) ? 0 : Number(rank);
  }
  return sum % 10;
}

/** The round after the first `count` events, in the shape the felt draws. */
export function replay(record, count) {
  const table = { game: null, dealer: [], dealerHidden: 0, board: [], player: [], banker: [], burns: 0, boxes: new Map(), winner: null };
  let splitFrom = null;
  const box = (seat) => {
    if (!table.boxes.has(seat)) table.boxes.set(seat, { seat, bets: {}, hands: new Map(), results: {} });
    return table.boxes.get(seat);
  };
  const hand = (seat, number) => {
    const owner = box(seat);
    const key = number ?? 0;
    if (!owner.hands.has(key)) owner.hands.set(key, { hand: key, cards: [], bet: null, result: null, payout: null });
    return owner.hands.get(key);
  };
  for (const event of record.slice(0, count)) {
    switch (event.kind) {
      case "RoundStarted":
        table.game = event.game;
        break;
      case "Split": {
        // Hand `hand` became two: its second card and a bet of `amount` went to `new_hand`.
        const source = hand(event.seat, event.hand);
        const target = hand(event.seat, event.new_hand);
        target.cards.push(source.cards.pop());
        target.bet = Number(event.amount);
        break;
      }
      case "Doubled": {
        const target = hand(event.seat, event.hand);
        target.bet = (Number(target.bet) || Number(box(event.seat).bets.main) || 0) + Number(event.amount);
        break;
      }
      case "BetsReturned":
        // Every bet of the seat given back before the deal: the round went on without it.
        table.boxes.delete(event.seat);
        break;
      case "BetPlaced": {
        const owner = box(event.seat);
        // Records written before the operation records (Split, Doubled) put a split's or a
        // double's stake in a BetPlaced on the hand, after a Decided naming the split.
        if ((event.wager === "split" || event.wager === "double") && event.hand !== undefined) {
          const target = hand(event.seat, event.hand);
          if (event.wager === "split" && splitFrom) {
            const source = hand(splitFrom.seat, splitFrom.hand);
            target.cards.push(source.cards.pop());
            target.bet = Number(event.amount);
            splitFrom = null;
          } else {
            target.bet = (Number(target.bet) || Number(owner.bets.main) || 0) + Number(event.amount);
          }
        } else if (Number(event.amount) === 0) {
          delete owner.bets[event.wager];
        } else {
          owner.bets[event.wager] = event.amount;
        }
        break;
      }
      case "Decided": // an old record's decision: only a split needs remembering
        if (String(event.action).split(" ")[0] === "split") splitFrom = { seat: event.seat, hand: event.hand };
        break;
      case "CardDrawn":
        if (event.purpose === "burn") table.burns += 1;
        // Blackjack: the hole card is dealt face down and shown when the dealer turns it.
        else if (event.purpose === "hole") table.dealerHidden = 1;
        // Casino Hold'em: the dealer's two cards stay face down until the reveal.
        else if (event.purpose === "dealer" && table.game === "casino-holdem") table.dealerHidden += 1;
        else if (event.purpose === "dealer") table.dealer.push(event.card);
        else if (BOARD_PURPOSES.has(event.purpose)) table.board.push(event.card);
        else if (event.seat === undefined || event.seat === null) {
          if (event.purpose === "player") table.player.push(event.card);
          else if (event.purpose === "banker") table.banker.push(event.card);
        } else {
          const target = hand(event.seat, event.hand);
          // A blackjack hand carries its own stake (splits, doubles); other games bet by zone.
          if (target.bet === null && table.game === "blackjack") target.bet = box(event.seat).bets.main ?? null;
          target.cards.push(event.card);
        }
        break;
      case "Settled": {
        const owner = box(event.seat);
        if (event.hand !== undefined && event.hand !== null && owner.hands.has(event.hand) && event.wager === "main") {
          const target = owner.hands.get(event.hand);
          target.result = event.result;
          target.payout = event.payout;
        } else {
          owner.results[event.hand ? `${event.wager} ${event.hand}` : event.wager] = { result: event.result, payout: event.payout, bet: event.stake };
        }
        break;
      }
      case "DealerRevealed":
        table.dealer = [...event.cards];
        table.dealerHidden = 0;
        table.dealerHand = event.hand;
        table.dealerQualifies = event.qualifies;
        break;
      case "HoleCardRevealed":
        table.dealer.push(event.card);
        table.dealerHidden = 0;
        break;
      default:
        if (event.winner) table.winner = event.winner;
    }
  }
  const isBaccarat = table.game === "baccarat";
  const view = {
    boxes: [...table.boxes.values()].map((owner) => ({
      seat: owner.seat,
      bets: owner.bets,
      hands: [...owner.hands.values()].map((one) => ({
        ...one,
        total: table.game === "blackjack" ? blackjackTotal(one.cards) : null,
      })),
      results: Object.keys(owner.results).length ? owner.results : null,
    })),
  };
  if (isBaccarat) {
    view.player = { cards: table.player, total: baccaratTotal(table.player) };
    view.banker = { cards: table.banker, total: baccaratTotal(table.banker) };
    if (table.winner) view.winner = table.winner;
  } else {
    view.dealer = {
      cards: table.dealer,
      hidden: table.dealerHidden,
      total: table.game === "blackjack" && table.dealer.length ? blackjackTotal(table.dealer) : null,
      hand: table.dealerHand ?? null,
      qualifies: table.dealerQualifies ?? null,
    };
    if (table.board.length || table.game === "casino-holdem") view.board = table.board;
  }
  return view;
}

