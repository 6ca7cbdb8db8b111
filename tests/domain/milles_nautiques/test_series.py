"""MN-17, MN-19: the game of rounds to 200 points, and who deals next."""

from __future__ import annotations

import pytest

from domain.milles_nautiques import RULESET
from domain.ruleset import PlayerResult, Result, RuleError, SeriesGame
from testkit.players.milles_nautiques import make_setup


def round_of(scores: tuple[int, ...], dealer: int, teams: bool = False, finished: bool = True) -> SeriesGame:
    """A finished round with these half-point scores by seat, dealt by `dealer`."""
    setup = make_setup(len(scores), teams=teams, dealer=dealer)
    return SeriesGame(
        setup=setup,
        result=Result(
            finished=finished,
            score_unit="half_point",
            players=tuple(PlayerResult(seat=seat, score=score) for seat, score in enumerate(scores)),
        ),
    )


def test_a_tie_past_two_hundred_points_needs_another_round():
    # Alain and Bea both reach 200 points (400 half-points) in round 3: level, so a fourth round.
    games = [round_of((150, 100), dealer=1), round_of((100, 150), dealer=0), round_of((150, 150), dealer=1)]
    status = RULESET.series_status(games)
    assert status.totals == {"p1": 400, "p2": 400}
    assert not status.finished and status.winners == ()
    assert "another round" in status.note
    assert status.next_dealer == "p1"  # MN-19: round 3 was dealt by Bea (seat 1); the deal passes left
    games.append(round_of((0, 30), dealer=0))
    status = RULESET.series_status(games)
    assert status.finished and status.winners == ("p2",)
    assert status.totals == {"p1": 400, "p2": 430}


def test_below_two_hundred_points_the_game_goes_on_and_the_deal_passes_to_the_left():
    status = RULESET.series_status([round_of((100, 20, 60), dealer=2)])
    assert not status.finished
    assert status.next_dealer == "p1"
    status = RULESET.series_status([round_of((100, 20, 60), dealer=0)])
    assert status.next_dealer == "p2"


def test_the_highest_total_wins_when_one_side_passes_two_hundred():
    status = RULESET.series_status([round_of((300, 0), 1), round_of((120, 90), 0)])
    assert status.finished and status.winners == ("p1",)


def test_team_scores_are_carried_once_per_team():
    games = [round_of((200, 10, 200, 10), dealer=3, teams=True), round_of((220, 0, 220, 0), 0, teams=True)]
    status = RULESET.series_status(games)
    assert status.totals == {"p1+p3": 420, "p2+p4": 10}
    assert status.winners == ("p1+p3",)


def test_a_void_round_adds_nothing():
    status = RULESET.series_status([round_of((0, 0), 1), round_of((40, 10), 0)])
    assert status.totals == {"p1": 40, "p2": 10}


def test_rounds_with_other_players_or_unfinished_or_after_the_win_are_refused():
    with pytest.raises(RuleError) as error:
        RULESET.series_status([round_of((10, 0), 1), round_of((10, 0, 0), 0)])
    assert (error.value.rule_id, error.value.code) == ("MN-17", "different_players")
    with pytest.raises(RuleError) as error:
        RULESET.series_status([round_of((10, 0), 1, finished=False)])
    assert error.value.code == "round_not_finished"
    with pytest.raises(RuleError) as error:
        RULESET.series_status([round_of((400, 0), 1), round_of((10, 0), 0)])
    assert error.value.code == "game_over"


def test_no_round_yet_is_a_game_not_started():
    status = RULESET.series_status([])
    assert status.totals == {} and not status.finished
