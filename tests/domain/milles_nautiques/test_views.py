"""G-2: what the public, a seat and the record see of a round."""

from __future__ import annotations

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.events import ConvoyPlaced, MilesPlayed, RadarPlayed
from domain.ruleset import Viewer
from tests.domain.milles_nautiques.harness import Scene


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


def alain_in_port_beside(card: str) -> Scene:
    """Alain lays `card` (convoy 1, named to the record, never detected) and sails it 200 miles, then
    brings a 2,500 (convoy 2) into port: he has the right to score (MN-15), and convoy 1 counts."""
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card=card)).skip()
    scene.turn(ConvoyPlaced(seat=0, position=1, card="convoy_2500")).skip()
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_200")).skip()
    for _ in range(2):
        scene.turn(MilesPlayed(seat=0, convoy=2, card="miles_2000")).skip()
    assert scene.state.phase == "draw" and scene.convoy(2).status == "arrived"
    return scene


def test_the_public_score_and_result_do_not_tell_a_face_down_convoys_tonnage():
    # G-2: a 5,000 and a 20,000 laid face down look the same to the public and to the opponent, score
    # included (the 2,500 in port is face down too: the public cannot tell it from the trawler, MN-20).
    # The record and their owner count them.
    small, large = alain_in_port_beside("convoy_5000").state, alain_in_port_beside("convoy_20000").state
    for viewer in (Viewer.public(), Viewer.of_seat(1), Viewer.of_seat(7)):
        assert RULESET.view(small, viewer) == RULESET.view(large, viewer)
    assert RULESET.result(small, Viewer.public()) == RULESET.result(large, Viewer.public())
    assert RULESET.view(large, Viewer.public())["sides"][0]["score"]["convoy"] == 0
    assert RULESET.view(large, Viewer.full())["sides"][0]["score"]["convoy"] == 5 + 8  # 20,000 at 200 miles
    assert RULESET.view(large, Viewer.of_seat(0))["sides"][0]["score"]["convoy"] == 5 + 8
    assert RULESET.view(small, Viewer.of_seat(0))["sides"][0]["score"]["convoy"] == 5 + 2


def test_the_convoys_the_public_has_seen_count_in_the_public_score():
    # Bea's radars detect both of Alain's convoys; his 2,500 arrives. MN-21: the detected 2,500 in port
    # scores as a 5,000 (5 points), the detected 5,000 at 0 miles as a 10,000 (1 point).
    scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card="convoy_2500")).turn(RadarPlayed(seat=1, convoy=1))
    scene.turn(ConvoyPlaced(seat=0, position=1, card="convoy_5000")).turn(RadarPlayed(seat=1, convoy=2))
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_2000")).skip()
    scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_2000"))
    assert scene.state.phase == "draw"
    assert RULESET.view(scene.state, Viewer.public())["sides"][0]["score"]["convoy"] == 10 + 2
    assert RULESET.result(scene.state, Viewer.public()).players[0].breakdown["convoy"] == 10 + 2


def test_a_face_down_trawler_in_port_looks_like_any_convoy_in_port_to_the_public():
    # MN-20: whether a face-down convoy in port gives the right to score is not told either.
    def table(card: str) -> Scene:
        scene = Scene().turn(ConvoyPlaced(seat=0, position=0, card=card)).skip()
        scene.turn(ConvoyPlaced(seat=0, position=1, card="convoy_10000")).skip()
        for _ in range(2):
            scene.turn(MilesPlayed(seat=0, convoy=1, card="miles_2000")).skip()
        return scene

    trawler, real = table("trawler").state, table("convoy_5000").state
    assert RULESET.view(trawler, Viewer.public()) == RULESET.view(real, Viewer.public())
    assert RULESET.result(trawler, Viewer.public()) == RULESET.result(real, Viewer.public())
    assert RULESET.view(real, Viewer.full())["sides"][0]["score"]["convoy"] == 10 + 2
