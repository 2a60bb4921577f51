"""The service's defaults that a command prints in its ``--help``, in a module that imports
nothing: ``service.database`` itself loads SQLAlchemy and Alembic, which ``croupier backup
--help`` or ``croupier audit verify --help`` need not pay for."""

DEFAULT_URL = "sqlite:///croupier.sqlite"
"""The database ``croupier serve`` and the other database commands use when given none: an
SQLite file in the working directory."""
