"""R19 as the operator runs it: ``croupier backup`` and ``croupier restore``, each in an
interpreter of its own. Their tables are the models' metadata, which held the staff's five
tables (roles, dealer assignments, staff actions, disputes, payout corrections) only once
something had imported ``service.staff_models``: the commands never did, so a PostgreSQL
backup left them out ("... rows in 15 tables") and its restore lost every role, dispute and
correction; the R15 chain then named rows that were not there. The tests of R19 run the
commands in the test process, where the server had imported that module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from server_support import OPERATOR_TOKEN, Api, Table

from croupier.audit.verify import verify_database
from croupier.service.backup import differences, tables

COMMAND = "import sys; from croupier.cli.main import main; sys.argv[0] = 'croupier'; main()"
STAFF_TABLES = {
    "staff_roles",
    "dealer_assignments",
    "staff_actions",
    "disputes",
    "payout_corrections",
}


def _croupier(*arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", COMMAND, *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_backup_made_and_restored_by_the_commands_keeps_the_staffs_tables(
    api: Api, database_url: str, tmp_path: Path
) -> None:
    assert {table.name for table in tables()} >= STAFF_TABLES  # this process knows them
    dana = api.player("dana")
    granted = api.post("/operator/staff", OPERATOR_TOKEN, {"username": "dana", "role": "dealer"})
    assert granted.status_code == 201, granted.text
    table = Table(api, "dragon-six-peru-2016", ["ann"])
    assigned = api.post(
        f"/operator/tables/{table.id}/dealers", OPERATOR_TOKEN, {"username": "dana"}
    )
    assert assigned.status_code == 200, assigned.text
    round_id = table.play_round()
    filed = api.post(f"/rounds/{round_id}/disputes", table.tokens["ann"], {"text": "paid short"})
    assert filed.status_code == 201, filed.text
    proposed = api.post(
        f"/rounds/{round_id}/corrections",
        dana,
        {"username": "ann", "amount": 100, "reason": "the coup paid short"},
    )
    assert proposed.status_code == 201, proposed.text
    saved = tmp_path / "croupier.backup"
    said = _croupier("backup", "--database", database_url, str(saved))
    assert f"in {len(tables())} tables" in said, said
    restored = f"sqlite:///{tmp_path / 'restored.sqlite'}"
    _croupier("restore", str(saved), "--database", restored)
    assert differences(database_url, restored) == []
    assert verify_database(restored).is_intact
