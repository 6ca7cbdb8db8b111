"""G-2: what the public, a seat and the record see of a round."""

from __future__ import annotations

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.events import ConvoyPlaced, RadarPlayed
from domain.ruleset import Viewer
from tests.domain.milles_nautiques.scene import Scene


def team_table() -> Scene:
    """Alain (0) and Claire (2) against Bea (1) and Damien (3). Alain lays a 10,000 (convoy 1), Bea a
    20,000 (convoy 2), Claire a 5,000 (convoy 3) at the port end; Damien's radar detects convoy 3."""
    scene = Scene(players=4, teams=True, hands=(("convoy_10000", "alert"), (), (), ()))
    scene.turn(ConvoyPlaced(seat=0, position=0, card="convoy_10000"))
    scene.turn(ConvoyPlaced(seat=1, position=0, card="convoy_20000"))
    scene.turn(ConvoyPlaced(seat=2, position=0, card="convoy_5000"))
    return scene.turn(RadarPlayed(seat=3, convoy=3))


def cards(view: dict) -> list:
    return [convoy["card"] for convoy in view["convoys"]]


def test_the_public_view_hides_hands_and_the_tonnage_of_undetected_convoys():
    view = RULESET.view(team_table().state, Viewer.public())
    assert cards(view) == [None, None, "convoy_5000"]
    assert all("hand" not in player for player in view["players"])
    assert [player["hand_size"] for player in view["players"]] == [6, 6, 6, 6]


def test_a_seat_sees_its_own_hand_and_its_teams_convoys_only():
    state = team_table().state
    claire = RULESET.view(state, Viewer.of_seat(2))
    assert cards(claire) == ["convoy_10000", None, "convoy_5000"]  # her partner's, not Bea's
    assert [("hand" in player) for player in claire["players"]] == [False, False, True, False]
    bea = RULESET.view(state, Viewer.of_seat(1))
    assert cards(bea) == [None, "convoy_20000", "convoy_5000"]


def test_the_full_view_shows_everything_the_record_knows():
    view = RULESET.view(team_table().state, Viewer.full())
    assert cards(view) == ["convoy_10000", "convoy_20000", "convoy_5000"]
    alain = view["players"][0]["hand"]
    assert alain["known"] == ["alert"] and alain["unknown"] == 5


def test_a_convoy_laid_face_down_is_unknown_even_to_the_full_view_until_revealed():
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0))
    assert cards(RULESET.view(scene.state, Viewer.full())) == [None]


def test_views_show_rows_scores_and_the_discard_to_everyone():
    view = RULESET.view(team_table().state, Viewer.public())
    assert [side["row"] for side in view["sides"]] == [[3, 1], [2]]
    assert view["sides"][0]["name"] == "Alain and Claire"
    assert view["sides"][0]["score"] == {"convoy": 0, "capture": 0, "round_bonus": 0, "slowness_bonus": 0}
    assert view["stock"] == 106 - 24 - 4
