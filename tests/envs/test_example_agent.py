"""examples/learn_basic_strategy.py: the tabular agent trains and its chart is a chart that
``croupier analyze --strategy-file`` reads (the full run is the example itself)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from croupier.analysis.blackjack import Strategy

EXAMPLE = Path(__file__).parents[2] / "examples" / "learn_basic_strategy.py"


@pytest.mark.slow
def test_the_agent_trains_and_its_chart_is_evaluated():
    spec = importlib.util.spec_from_file_location("learn_basic_strategy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    agent, curve = module.train(200, [200], seed=7)
    chart = agent.chart()
    assert Strategy.from_json(chart.as_json(), surrender=False) == chart
    [(rounds, edge, regret)] = curve
    assert rounds == 200 and regret >= 0
    assert edge > module.house_edge(None)  # 200 rounds do not make the optimal chart
