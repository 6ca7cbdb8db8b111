"""The 75 VP series (AS-16)."""

from __future__ import annotations

from domain.atlantic_storm import RULESET
from domain.ruleset import Player, PlayerResult, Result, SeriesGame, Setup


def game(scores: dict[str, int]) -> SeriesGame:
    players = tuple(Player(player_id=pid, name=pid.title(), seat=i) for i, pid in enumerate(scores))
    results = tuple(PlayerResult(seat=i, score=s) for i, s in enumerate(scores.values()))
    return SeriesGame(
        setup=Setup(players=players, variant="basic"), result=Result(finished=True, score_unit="vp", players=results)
    )


def test_totals_carry_over_and_the_highest_total_deals_the_next_game():
    status = RULESET.series_status([game({"ann": 30, "bob": 20, "cy": 25}), game({"ann": 10, "bob": 30, "cy": 12})])
    assert status.totals == {"ann": 40, "bob": 50, "cy": 37}
    assert not status.finished
    assert status.next_dealer == "bob"


def test_when_two_players_pass_75_in_the_same_game_the_highest_total_wins():
    games = [game({"ann": 40, "bob": 38, "cy": 20}), game({"ann": 36, "bob": 45, "cy": 30})]
    status = RULESET.series_status(games)
    assert status.totals == {"ann": 76, "bob": 83, "cy": 50}
    assert status.finished
    assert status.winners == ("bob",)


def test_a_tie_at_the_top_past_75_is_decided_by_another_game():
    # Gap reading (series.py): equal highest totals at 75 or more do not end the series.
    games = [game({"ann": 40, "bob": 38}), game({"ann": 40, "bob": 42})]
    status = RULESET.series_status(games)
    assert status.totals == {"ann": 80, "bob": 80}
    assert not status.finished
    assert status.next_dealer == "ann"  # equal totals: the one seated first in the latest game
    status = RULESET.series_status([*games, game({"ann": 5, "bob": 9})])
    assert status.finished and status.winners == ("bob",)


def test_nobody_reaching_75_leaves_the_series_open():
    status = RULESET.series_status([game({"ann": 74, "bob": 10})])
    assert not status.finished and status.winners == ()
