"""``benchmarks/hhoppe_blackjack.py`` loads hhoppe/blackjack's simulator from his notebook's
script without running the rest of the notebook: imported whole, his snapshot 2108a04 stopped
at ``KeyError: 'bjstrat'`` on a machine without a network, before the benchmark timed
anything. A stand-in notebook in jupytext's percent format, with a failing cell after the one
that defines the simulator, stands for his."""

from __future__ import annotations

import importlib.util
import pickle
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
