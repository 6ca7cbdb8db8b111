"""Result-only games (G-6): a game played at the table and recorded by its result alone. The checks every
game shares (`checked_report`), each game's own (`Ruleset.reported_result`), and the fold: the report is
the game's result, no other event follows it, a correction voids it and another is reported."""

from __future__ import annotations

import pytest

from domain.atlantic_storm import RULESET as ATLANTIC_STORM
from domain.memoire44 import RULESET as MEMOIRE44
from domain.milles_nautiques import RULESET as MILLES_NAUTIQUES
from domain.record import Correction, GameStarted, ResultReported, fold, start
from domain.registry import load
from domain.ruleset import PlayerResult, ReportedResult, RuleError, Viewer, checked_report
from projections.replay import replay
from testkit.players.memoire44 import setup_for, team_setup_for
from testkit.players.milles_nautiques import make_setup
from testkit.tally import RULESET as TALLY
from testkit.tally import Rolled
from tests.domain.atlantic_storm.harness import make_setup as storm_setup
from tests.domain.test_record import SETUP

RESULT_ONLY = GameStarted(ruleset="tally", ruleset_version="1.0.0", setup=SETUP, result_only=True)


def report(*scores: int, placements: tuple[int, ...] | None = None) -> ReportedResult:
    return ReportedResult(
        players=tuple(
            PlayerResult(seat=seat, score=score, placement=placements[seat] if placements else None)
            for seat, score in enumerate(scores)
        )
    )


def refused(check: object, code: str) -> RuleError:
    with pytest.raises(RuleError) as error:
        check()  # type: ignore[operator]
    assert error.value.rule_id == "G-6" and error.value.code == code, error.value.message
    return error.value


def test_placements_follow_the_scores_when_the_table_gives_none() -> None:
    result = checked_report(SETUP, report(7, 12), score_unit="pip")
    assert result.finished and result.winners == (1,)
    assert [(p.seat, p.score, p.placement) for p in result.players] == [(0, 7, 2), (1, 12, 1)]
    tied = checked_report(SETUP, report(9, 9), score_unit="pip")
    assert tied.winners == (0, 1) and {p.placement for p in tied.players} == {1}


def test_a_report_is_checked_for_seats_bounds_and_placements() -> None:
    refused(lambda: checked_report(SETUP, report(3), score_unit="pip"), "reported_seats")
    refused(lambda: checked_report(SETUP, report(3, 4, 5), score_unit="pip"), "reported_seats")
    refused(lambda: checked_report(SETUP, report(-1, 4), score_unit="pip"), "score_out_of_bounds")
    refused(lambda: checked_report(SETUP, report(1, 40), score_unit="pip", highest=15), "score_out_of_bounds")
    partial = ReportedResult(players=(PlayerResult(seat=0, score=3, placement=1), PlayerResult(seat=1, score=4)))
    refused(lambda: checked_report(SETUP, partial, score_unit="pip"), "placements_partial")
    error = refused(
        lambda: checked_report(SETUP, report(3, 10, placements=(1, 2)), score_unit="pip"), "placements_inconsistent"
    )
    assert error.message == "Seat 2 scored more than seat 1 but is not placed above it."
    refused(lambda: checked_report(SETUP, report(3, 3, placements=(1, 3)), score_unit="pip"), "placements_inconsistent")
    refused(
        lambda: checked_report(SETUP, report(3, 3, placements=(1, 2)), score_unit="pip", ties_split=False),
        "placements_inconsistent",
    )
    # Where the game's tie-breaks split equal scores, the table's places stand.
    split = checked_report(SETUP, report(3, 3, placements=(2, 1)), score_unit="pip")
    assert split.winners == (1,)


def test_each_game_checks_a_report_by_its_own_rules() -> None:
    two = make_setup(2)
    assert MILLES_NAUTIQUES.reported_result is not None
    assert MILLES_NAUTIQUES.reported_result(two, report(80, 45)).score_unit == "half_point"
    refused(lambda: MILLES_NAUTIQUES.reported_result(two, report(40, 40, placements=(1, 2))), "placements_inconsistent")
    teams = make_setup(4, teams=True)
    partner = next(p.seat for p in teams.players if p.team == teams.players[0].team and p.seat != 0)
    scores = [50, 30, 50, 30] if partner == 2 else [50, 50, 30, 30]
    assert MILLES_NAUTIQUES.reported_result(teams, report(*scores)).winners == tuple(
        seat for seat, score in enumerate(scores) if score == 50
    )
    apart = list(scores)
    apart[partner] -= 2
    refused(lambda: MILLES_NAUTIQUES.reported_result(teams, report(*apart)), "partners_apart")

    battle = setup_for("pointe_du_verrier")
    assert MEMOIRE44.reported_result is not None
    assert MEMOIRE44.reported_result(battle, report(6, 3)).winners == (0,)
    refused(lambda: MEMOIRE44.reported_result(battle, report(60, 3)), "score_out_of_bounds")
    overlord = team_setup_for("meuse_line")
    camps = [p.team for p in sorted(overlord.players, key=lambda p: p.seat)]
    medals = [5 if camp == camps[0] else 2 for camp in camps]
    assert MEMOIRE44.reported_result(overlord, report(*medals)).winners == tuple(
        seat for seat, camp in enumerate(camps) if camp == camps[0]
    )
    medals[0] -= 1
    refused(lambda: MEMOIRE44.reported_result(overlord, report(*medals)), "partners_apart")

    table = storm_setup(["Alain", "Bea", "Chloe"])
    assert ATLANTIC_STORM.reported_result is not None
    # AS-13: equal VP placed apart by convoy VP, as the table says.
    assert ATLANTIC_STORM.reported_result(table, report(9, 9, 4, placements=(2, 1, 3))).winners == (1,)
    refused(
        lambda: ATLANTIC_STORM.reported_result(table, report(9, 9, 4, placements=(1, 2, 2))), "placements_inconsistent"
    )


def test_every_served_game_takes_result_only_games() -> None:
    assert all(ruleset.reported_result is not None for ruleset in load(["testkit.tally"]))


def test_a_result_only_game_takes_its_report_and_nothing_else_and_a_correction_voids_it() -> None:
    folded = start(TALLY, RESULT_ONLY)
    assert not folded.result(Viewer.public()).finished
    refused(lambda: folded.check(Rolled(seat=0, face=3)), "result_only")
    refused(lambda: folded.check(ResultReported(result=report(3, 99))), "score_out_of_bounds")
    folded = folded.accept(ResultReported(result=report(12, 4)))
    assert folded.result(Viewer.public()).winners == (0,) and folded.result(Viewer.full()).finished
    refused(lambda: folded.check(ResultReported(result=report(4, 12))), "result_reported")
    folded = folded.accept(Correction(voids=1, reason="scores swapped"))
    assert not folded.result(Viewer.public()).finished
    folded = folded.accept(ResultReported(result=report(4, 12)))
    assert folded.result(Viewer.public()).winners == (1,)
    events = [
        RESULT_ONLY,
        ResultReported(result=report(12, 4)),
        Correction(voids=1),
        ResultReported(result=report(4, 12)),
    ]
    assert fold(TALLY, events).result(Viewer.public()) == folded.result(Viewer.public())
    told = replay(TALLY, events, Viewer.public())
    assert (
        told.steps[3].text
        == "Result reported, the game not recorded event by event: Bea 12 (place 1) and Alain 4 (place 2)."
    )
    assert told.steps[1].voided


def test_a_game_recorded_event_by_event_takes_no_report() -> None:
    folded = start(TALLY, GameStarted(ruleset="tally", ruleset_version="1.0.0", setup=SETUP))
    refused(lambda: folded.check(ResultReported(result=report(12, 4))), "not_result_only")
