"""League standings over HTTP explain a tie in names and the league's own points, cycles included."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.service.api_support import Api
from tests.service.test_leagues_api import club, standings, three_games
from tests.service.test_projector_support import projection_api, wait_for_projector


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def test_a_three_way_cycle_is_told_with_names_and_the_criterion_that_separates_it(api: Api) -> None:
    token = club(api)
    _, position = three_games(api, token)
    wait_for_projector(api, position)
    body = standings(api, token)
    assert body["ties"] == [
        {
            "players": ["alain", "cleo", "bea"],
            "text": "Alain, Cleo and Bea have 3 points each. They beat each other once each: head-to-head does "
            "not separate them; score does: Alain 18, Cleo 16, Bea 14.",
        }
    ]
    assert body["scale"] == 1
    assert [(r["points"], r["points_exact"], r["tie_break_points"]["head_to_head"]) for r in body["rows"]] == [
        (3, 3, 1),
        (3, 3, 1),
        (3, 3, 1),
    ]
