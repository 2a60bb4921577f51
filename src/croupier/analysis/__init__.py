"""Exact game math over each profile's chance outcomes: house edge, hit frequency, strategy.

One module per concept: ``figures`` (what is reported for one wager), ``baccarat`` (finite-shoe
enumeration), ``three_card`` (21+3), ``dealer`` (the dealer's outcome probabilities),
``blackjack`` (basic strategy and the main bet), ``rule_effects``, ``charts``, ``report``.
"""
