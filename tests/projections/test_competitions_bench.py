"""The competitions benchmark still runs (small sizes): it pairs, seats and rates what it says. Never a
timing: speed targets live in bench/."""

from __future__ import annotations

import json

import pytest

from bench import competitions


def test_the_competitions_benchmark_pairs_seats_and_rates_its_small_field(capsys: pytest.CaptureFixture[str]) -> None:
    assert competitions.main(["--smoke", "--repeat", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["swiss_round"]["players"] == 20 and out["swiss_round"]["relaxed"] == []
    assert out["tables_round"]["tables"] == 4  # 15 players at tables of 3 to 5: 4, 4, 4, 3
    assert out["rating_rebuild"]["games"] == 200 and out["rating_rebuild"]["players"] == 30
    assert out["rating_rebuild"]["history_points"] > 400
