"""The house's reports: the regulator's daily report (``reports.daily``), each wager's return
to player (``reports.returns``) and the gaming day they are cut by (``reports.gaming_day``).

Read-only over the service's records: nothing here writes to the database.
"""
