"""Hand arithmetic of each game: pure functions over cards, shared by engines and analysis."""
