"""The schema is whole for every reader of it: importing ``croupier.service.models`` alone, in
an interpreter of its own, gives every table the migrations create.

The staff's five tables were declared in ``service/staff_models`` and joined ``Base.metadata``
only when something imported that module: ``croupier audit verify`` (02e3e52) and ``croupier
backup`` (87831ca) each missed them in a process of their own, while the test process had
imported the module already and hid it. The comparison is with the alembic head, on a fresh
database, so a table added by a future migration but declared in a module nobody imports fails
here too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy import inspect

from croupier.audit.records import pending_metadata
from croupier.service.database import make_engine, upgrade

PRINT_TABLES = (
    "import json, sys; import croupier.service.models as models; "
    "json.dump(sorted(models.Base.metadata.tables), sys.stdout)"
)
# Schema but not ``Base``: alembic's own bookkeeping, and the audit chain's work queue (which no
# backup holds, see migrations/env.py).
NOT_IN_BASE = {"alembic_version", *pending_metadata.tables}


def test_importing_the_models_alone_gives_every_table_of_the_alembic_head(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'head.sqlite'}")
    upgrade(engine)
    head = set(inspect(engine).get_table_names()) - NOT_IN_BASE
    engine.dispose()
    done = subprocess.run(
        [sys.executable, "-c", PRINT_TABLES],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    declared = set(json.loads(done.stdout))
    assert declared == head
    assert (
        len(declared) == 25
    )  # 0012: players' limits and pauses; 0013: table_leases, serve_processes
    assert {
        "staff_roles",
        "dealer_assignments",
        "staff_actions",
        "disputes",
        "payout_corrections",
        "approvals",
    } <= declared
