"""Terminal tables, one module per game (``croupier play``)."""
