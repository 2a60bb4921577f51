"""The defaults the commands print in their ``--help``, without the modules that own them.

``service.database`` imports Alembic and SQLAlchemy, ``server.rate_limits`` limits and
Starlette (a quarter of a second together); ``croupier backup --help`` or ``croupier audit
verify`` need neither for a default. Each value here is its owner's, and
``tests/unit/test_light_commands.py`` checks they stay equal.
"""

from __future__ import annotations

# croupier.service.database.DEFAULT_URL
DEFAULT_URL = "sqlite:///croupier.sqlite"
# croupier.server.rate_limits.DEFAULT_RATE_LIMIT and DEFAULT_TOKEN_RATE_LIMIT
DEFAULT_RATE_LIMIT = "10/minute"
DEFAULT_TOKEN_RATE_LIMIT = "30/minute"
