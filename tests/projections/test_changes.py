"""Corrections re-derive everything: a finished game's result changed by a correction (G-3) changes
the standings and the campaign, and the change lists say what changed, old and new."""

from __future__ import annotations

from typing import Any

from domain.record import Correction, fold
from domain.ruleset import Setup, Viewer
from projections.campaigns import Campaign, CampaignGame, campaign_status
from projections.changes import campaign_changes, standings_changes
from projections.diff import Change
from projections.standings import LeagueGame, Scoring, standings
from testkit.tally import RULESET, Rolled
from tests.projections.games import duel_setup, tally_stream
from tests.projections.leagues import at, league

ALAIN, BEA, CARLA = ("p1", "Alain"), ("p2", "Bea"), ("p3", "Carla")
SETUP_A = duel_setup(ALAIN, BEA)
# Alain 6, Bea 5, Alain 5: Alain reaches 10 first and wins.
GAME_A = tally_stream(SETUP_A, Rolled(seat=0, face=6), Rolled(seat=1, face=5), Rolled(seat=0, face=5))
# The scorekeeper misread Alain's last die (a 2): voided (G-3), then Alain 2 and Bea 5: Bea wins.
CORRECTED_A = [*GAME_A, Correction(voids=1, reason="it was a 2"), Rolled(seat=0, face=2), Rolled(seat=1, face=5)]
SETUP_B = duel_setup(CARLA, BEA)
# Carla beats Bea.
GAME_B = tally_stream(SETUP_B, Rolled(seat=0, face=6), Rolled(seat=1, face=1), Rolled(seat=0, face=6))
LEAGUE = league(("p1", "p2", "p3"), Scoring(win_draw_loss=(3, 1, 0)), ("points", "head_to_head"))


def _league_game(game_id: str, setup: Setup, stream: list[Any], day: int) -> LeagueGame:
    result = RULESET.result(fold(RULESET, stream).state, Viewer.public())
    return LeagueGame(game_id=game_id, finished_at=at(day), players=setup.players, result=result)


def _changes_of(row_changes: Any, key: str) -> tuple[Change, ...]:
    return next(row.changes for row in row_changes if row.key == key)


def test_a_correction_that_changes_a_finished_games_result_changes_the_standings_and_says_so():
    """Before: Alain 3 (beat Bea), Carla 3 (beat Bea), Bea 0; Alain and Carla never met: tied, rank 1.
    After the correction of game A: Bea 3 (beat Alain), Carla 3, Alain 0; Carla beat Bea, so Carla
    is above Bea on head-to-head (2 to 0): Carla 1, Bea 2, Alain 3."""
    before = standings(LEAGUE, [_league_game("A", SETUP_A, GAME_A, 1), _league_game("B", SETUP_B, GAME_B, 2)])
    after = standings(LEAGUE, [_league_game("A", SETUP_A, CORRECTED_A, 1), _league_game("B", SETUP_B, GAME_B, 2)])
    table = [(r.rank, r.player_id, r.points) for r in before.rows]
    assert table == [(1, "p1", 3), (1, "p3", 3), (3, "p2", 0)]
    table = [(r.rank, r.player_id, r.points) for r in after.rows]
    assert table == [(1, "p3", 3), (2, "p2", 3), (3, "p1", 0)]

    changes = standings_changes(before, after, "A")
    assert changes.changed
    assert Change(path=("entries", "p1", "outcome"), op="changed", old="win", new="loss") in changes.game
    assert Change(path=("entries", "p1", "points"), op="changed", old=3, new=0) in changes.game
    assert Change(path=("entries", "p2", "points"), op="changed", old=0, new=3) in changes.game
    assert {row.key for row in changes.rows} == {"p1", "p2", "p3"}
    alain = _changes_of(changes.rows, "p1")
    assert Change(path=("rank",), op="changed", old=1, new=3) in alain
    assert Change(path=("points",), op="changed", old=3, new=0) in alain
    assert Change(path=("tie_breaks", "points"), op="changed", old=3, new=0) in alain
    bea = _changes_of(changes.rows, "p2")
    assert Change(path=("rank",), op="changed", old=3, new=2) in bea
    assert Change(path=("wins",), op="changed", old=0, new=1) in bea
    # Carla keeps rank 1. Bea was below her on points (3 to 0); Bea is still next below her, now
    # level on points and behind on head-to-head.
    carla = _changes_of(changes.rows, "p3")
    assert not any(c.path == ("rank",) for c in carla)
    assert Change(path=("separated_from_next_by",), op="changed", old="points", new="head_to_head") in carla
    # Alain, first row before, was tied with Carla; now last, with no row below.
    assert Change(path=("separated_from_next_by",), op="changed", old="tied", new=None) in alain
    assert Change(path=("tie_breaks", "head_to_head"), op="changed", old=0, new=2) in carla


def test_a_correction_that_reopens_a_finished_game_takes_it_out_of_the_standings():
    reopened = [*GAME_A, Correction(voids=1, reason="not yet")]
    before = standings(LEAGUE, [_league_game("A", SETUP_A, GAME_A, 1)])
    after = standings(LEAGUE, [_league_game("A", SETUP_A, reopened, 1)])
    changes = standings_changes(before, after, "A")
    assert Change(path=("counted",), op="changed", old=True, new=False) in changes.game
    assert Change(path=("note",), op="changed", old="", new="not finished") in changes.game
    assert Change(path=("played",), op="changed", old=1, new=0) in _changes_of(changes.rows, "p1")


def test_recomputing_unchanged_standings_lists_no_change():
    games = [_league_game("A", SETUP_A, GAME_A, 1), _league_game("B", SETUP_B, GAME_B, 2)]
    changes = standings_changes(standings(LEAGUE, games), standings(LEAGUE, games), "A")
    assert not changes.changed
    assert changes.rows == () and changes.game == ()


def test_a_correction_changes_the_campaign_totals_from_that_game_on():
    """Game A scored Alain 11, Bea 5; corrected, Alain 8, Bea 10. A second game, Bea 12 to Alain 2,
    follows. Totals after A: 11/5 -> 8/10; after the second game: 13/17 -> 10/22."""
    campaign = Campaign(campaign_id="winter", ruleset="tally", players=("p1", "p2"))
    second_setup = duel_setup(BEA, ALAIN)
    second = tally_stream(second_setup, Rolled(seat=0, face=6), Rolled(seat=1, face=2), Rolled(seat=0, face=6))

    def status(stream: list[Any]) -> Any:
        games = [
            CampaignGame(
                game_id="A", setup=SETUP_A, result=RULESET.result(fold(RULESET, stream).state, Viewer.public())
            ),
            CampaignGame(
                game_id="second",
                setup=second_setup,
                result=RULESET.result(fold(RULESET, second).state, Viewer.public()),
            ),
        ]
        return campaign_status(RULESET, campaign, games)

    changes = campaign_changes(status(GAME_A), status(CORRECTED_A), "A")
    assert changes.changed
    first = _changes_of(changes.steps, "A")
    assert Change(path=("status", "totals", "p1"), op="changed", old=11, new=8) in first
    assert Change(path=("status", "totals", "p2"), op="changed", old=5, new=10) in first
    assert Change(path=("totals", "p2"), op="changed", old=17, new=22) in changes.status
    assert Change(path=("totals", "p1"), op="changed", old=13, new=10) in changes.status
