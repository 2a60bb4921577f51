"""``benchmarks/hhoppe_blackjack.py`` loads hhoppe/blackjack's simulator from his notebook's
script without running the rest of the notebook: imported whole, his snapshot 2108a04 stopped
at ``KeyError: 'bjstrat'`` on a machine without a network, before the benchmark timed
anything. A stand-in notebook in jupytext's percent format, with a failing cell after the one
that defines the simulator, stands for his."""

from __future__ import annotations

import importlib.util
import json
import pickle
import subprocess
import sys
import traceback
from pathlib import Path
from types import ModuleType

import pytest

DRIVER = Path(__file__).parents[2] / "benchmarks" / "hhoppe_blackjack.py"

NOTEBOOK = """\
# %% [markdown]
# # A notebook in the percent format

# %%
EFFORT = 2


def simulate(hands):
  return hands


# %%
def monte_carlo_house_edge_cpu(rules, strategy, num_hands, parallel=None, quiet=False):
  return 0.0, simulate(num_hands), 1.0


# %%
CALCULATORS = {}
CALCULATORS['bjstrat']  # line 19: the cell that needs the network
"""


def _driver() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hhoppe_driver", DRIVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delitem(sys.modules, "blackjack", raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    (tmp_path / "blackjack.py").write_text(NOTEBOOK, encoding="utf-8")
    return tmp_path


def test_imported_whole_the_notebook_fails_on_its_later_cell(folder: Path) -> None:
    sys.path.insert(0, str(folder))
    with pytest.raises(KeyError, match="bjstrat"):
        importlib.import_module("blackjack")


def test_the_cells_run_down_to_the_simulator_and_stop(folder: Path) -> None:
    blackjack = _driver().load_simulator(folder)
    assert blackjack.monte_carlo_house_edge_cpu(None, None, 7) == (0.0, 7, 1.0)
    assert blackjack.EFFORT == 2
    assert not hasattr(blackjack, "CALCULATORS")
    # A module registered under its name: what his code pickles by reference comes back.
    assert sys.modules["blackjack"] is blackjack
    assert pickle.loads(pickle.dumps(blackjack.simulate)) is blackjack.simulate


def test_his_line_numbers_are_kept(folder: Path) -> None:
    text = NOTEBOOK.replace("EFFORT = 2", "EFFORT = 1 / 0")
    (folder / "blackjack.py").write_text(text, encoding="utf-8")
    with pytest.raises(ZeroDivisionError) as error:
        _driver().load_simulator(folder)
    frame = traceback.extract_tb(error.value.__traceback__)[-1]
    assert (Path(frame.filename).name, frame.lineno) == ("blackjack.py", 5)


def test_a_notebook_without_the_simulator_is_refused(folder: Path) -> None:
    (folder / "blackjack.py").write_text("# %%\nEFFORT = 2\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no cell defines monte_carlo_house_edge_cpu"):
        _driver().load_simulator(folder)


SERVED_NOTEBOOK = """\
# %%
EFFORT = 2
CALLS = []


class Rules:
  def __init__(self, **rules):
    self.rules = rules

  def __str__(self):
    return f"Rules({self.rules})"


class Strategy:
  pass


# %%
def monte_carlo_house_edge_cpu(rules, strategy, num_hands, parallel=None, quiet=False):
  CALLS.append(num_hands)
  return 0.004, num_hands, 1.15
"""


def test_served_it_sets_up_once_then_plays_a_run_for_each_line_until_its_input_ends(
    folder: Path,
) -> None:
    # benchmarks/simulate.py times him beside each of its own runs through this protocol.
    (folder / "blackjack.py").write_text(SERVED_NOTEBOOK, encoding="utf-8")
    command = [sys.executable, str(DRIVER), "--hhoppe", str(folder), "--hands", "7", "--serve"]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    ready = json.loads(process.stdout.readline())
    assert ready["ready"] is True and ready["set_up_cpu_seconds"] >= 0
    records = []
    for _ in range(2):
        process.stdin.write("run\n")
        process.stdin.flush()
        records.append(json.loads(process.stdout.readline()))
    process.stdin.close()
    assert process.wait(timeout=30) == 0
    assert process.stdout.read() == ""  # no run after the input ended
    assert [record["hands"] for record in records] == [7, 7]
    assert records[0]["rules"] == "Rules({'hit_soft17': False, 'late_surrender': False})"
    assert records[0]["house_edge"] == 0.004 and records[0]["sd"] == 1.15
