"""The house's reports: the regulator's daily report (``reports.daily``), each wager's return
to player (``reports.returns``), cut by the house's gaming day (``croupier.gaming_day``, below
the service, which cuts a player's limits by the same day).

Read-only over the service's records: nothing here writes to the database.
"""
