"""Hand values of each game: blackjack totals, baccarat points, the poker evaluator."""
