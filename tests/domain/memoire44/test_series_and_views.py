"""Two-game matches (sides swapped, medals summed), views (G-2) and narration."""

import random

from domain.memoire44 import RULESET
from domain.memoire44.events import CardPlayed, UnitsOrdered
from domain.ruleset import PlayerResult, Result, SeriesGame, Viewer

from .harness import RandomTable, setup_for
from .tables import ALLIES, hexagon, table


def _game(sides, seed, scenario="hedgerow_lane"):
    setup = setup_for(scenario, sides=sides)
    state = RandomTable(random.Random(seed), setup).play()
    return SeriesGame(setup=setup, result=RULESET.result(state, Viewer.public()))


def test_a_two_game_match_with_sides_swapped_sums_medals_per_player():
    first, second = _game(("AXIS", "ALLIES"), 1), _game(("ALLIES", "AXIS"), 2)
    halfway = RULESET.series_status([first])
    assert not halfway.finished and halfway.winners == ()
    status = RULESET.series_status([first, second])
    expected = {
        pid: sum(
            next(p.score for p in g.result.players if p.seat == seat)
            for g in (first, second)
            for seat in (0, 1)
            if g.setup.players[seat].player_id == pid
        )
        for pid in ("p-alain", "p-bea")
    }
    assert status.totals == expected
    assert status.finished
    best = max(expected.values())
    assert status.winners == tuple(sorted(p for p, s in expected.items() if s == best))
    assert "swapped" not in status.note


def test_a_match_on_the_overlord_scenario_with_its_expansion_rules_is_scored_the_same_way():
    first, second = _game(("AXIS", "ALLIES"), 3, "meuse_line"), _game(("ALLIES", "AXIS"), 4, "meuse_line")
    status = RULESET.series_status([first, second])
    assert status.finished and status.note == ""
    assert sum(status.totals.values()) == sum(p.score for g in (first, second) for p in g.result.players)
    # Each game was won by the side that reached the scenario's 7 medals (M44-OV-1 board, M44-BL-1 rules).
    assert all(max(p.score for p in g.result.players) >= 7 for g in (first, second))


def _scored(sides, alain, bea):
    setup = setup_for("hedgerow_lane", sides=sides)
    result = Result(
        finished=True, score_unit="medal", players=(PlayerResult(seat=0, score=alain), PlayerResult(seat=1, score=bea))
    )
    return SeriesGame(setup=setup, result=result)


def test_equal_medal_totals_are_a_drawn_match_with_both_players_winners():
    status = RULESET.series_status([_scored(("AXIS", "ALLIES"), 4, 2), _scored(("ALLIES", "AXIS"), 2, 4)])
    assert status.totals == {"p-alain": 6, "p-bea": 6}
    assert status.winners == ("p-alain", "p-bea")
    assert "drawn" in status.note


def test_a_second_game_without_swapping_sides_is_noted():
    status = RULESET.series_status([_scored(("AXIS", "ALLIES"), 4, 3), _scored(("AXIS", "ALLIES"), 1, 4)])
    assert status.winners == ("p-bea",)
    assert "not played with sides swapped" in status.note


def test_the_seats_command_the_sides_the_set_up_names():
    state = RULESET.initial(setup_for("hedgerow_lane", sides=("ALLIES", "AXIS")))
    assert state.seat_camp == (1, 0)
    assert state.sides[state.seat_camp[0]] == "ALLIES"


def _two_units_and_a_wood():
    return table(
        [hexagon(6, 12, unit="infus"), hexagon(4, 12, "woods"), hexagon(0, 0, unit="infger")],
        axis=("barrage",),
        allies=("attack_centre", "ambush"),
    )


def test_hands_are_hidden_in_the_public_view_and_the_board_is_public():
    game = _two_units_and_a_wood()
    public = RULESET.view(game.state, Viewer.public())
    assert [h["count"] for h in public["hands"]] == [4, 4]
    assert all("known" not in h for h in public["hands"])
    assert {"row": 4, "col": 12, "terrain": "forest", "bridge": False} in public["board"]["hexes"]
    assert len(public["units"]) == 2
    bea = RULESET.view(game.state, Viewer.of_seat(ALLIES))
    assert bea["hands"][1]["known"] == ["attack_centre", "ambush"] and "known" not in bea["hands"][0]
    full = RULESET.view(game.state, Viewer.full())
    assert full["hands"][0]["known"] == ["barrage"] and full["hands"][0]["unknown"] == 3


def test_a_played_card_is_narrated_with_the_units_it_orders():
    game = table([hexagon(6, 12, unit="infus"), hexagon(0, 0, unit="infger")], allies=("attack_centre",))
    before = game.state
    after = game.accept(CardPlayed(seat=ALLIES, card="attack_centre"))
    line = RULESET.narrate(before, CardPlayed(seat=ALLIES, card="attack_centre"), after, Viewer.full())
    assert line.text == "Allies (Bea) play Attack Centre, ordering 3 units."
    assert line.seat == ALLIES and line.chapters == (("turn", 1),)
    ordered = UnitsOrdered(seat=ALLIES, units=(0,))
    line = RULESET.narrate(after, ordered, game.accept(ordered), Viewer.full())
    assert line.text == "Allies (Bea) order 1 unit: infantry at G7."


def test_the_views_hexes_are_named_as_on_the_board_and_nothing_else_is():
    game = _two_units_and_a_wood()
    view = RULESET.view(game.state, Viewer.full())
    words = RULESET.value_words
    assert [words(("units", str(n), "hex"), u["hex"]) for n, u in enumerate(view["units"])] == ["G7", "A1"]
    assert words(("last_move",), [[6, 12], [5, 11]]) == "G7, F6"
    assert words(("last_move", "1"), [5, 11]) == "F6"
    # Pairs of numbers that are not hexes keep their plain words.
    assert len(view["hand_limits"]) == 2
    assert words(("hand_limits",), view["hand_limits"]) is None
    assert words(("units", "0", "figures"), 4) is None
    assert words(("hex",), "G7") is None
