"""Mémoire 44 results: medals per seat (M44-6), split into eliminations, objectives and special awards."""

from __future__ import annotations

from domain.i18n import Catalogue
from domain.memoire44.battlefield import eliminations, objective_medals
from domain.memoire44.setup import initial
from domain.memoire44.state import State
from domain.ruleset import PlayerResult, ReportedResult, Result, RuleError, Setup, Viewer, checked_report

_ = Catalogue("domain.memoire44")

SCORE_UNIT = "medal"


def result(state: State, viewer: Viewer) -> Result:
    """Finished when a side reached its medal count or the table ended the game; the winner places 1.
    Medals are won in the open, so every viewer reads the same result."""
    held = objective_medals(state)
    kills = eliminations(state)
    players = []
    for seat, camp in enumerate(state.seat_camp):
        if state.winner is not None:
            placement = 1 if camp == state.winner else 2
        else:
            placement = 1 if state.medals[camp] >= state.medals[1 - camp] else 2
        players.append(
            PlayerResult(
                seat=seat,
                score=state.medals[camp],
                placement=placement,
                breakdown={"eliminations": kills[camp], "objectives": held[camp], "special": state.special[camp]},
            )
        )
    # A side wins: at an Overlord team table every seat of it (M44-OV-2).
    winners = tuple(s for s, c in enumerate(state.seat_camp) if c == state.winner) if state.winner is not None else ()
    return Result(finished=state.over, score_unit=SCORE_UNIT, players=tuple(players), winners=winners)


def reported_result(setup: Setup, report: ReportedResult) -> Result:
    """A battle recorded by its result only (G-6): each seat's medals, from none to the count that wins
    its camp the battle; the seats of one camp share their medals and their place (M44-OV-2)."""
    state = initial(setup)
    result = checked_report(setup, report, score_unit=SCORE_UNIT, highest=max(state.victory))
    for seat, camp in enumerate(state.seat_camp):
        mine = result.players[seat]
        ally = next(p for s, p in enumerate(result.players) if state.seat_camp[s] == camp)
        if (mine.score, mine.placement) != (ally.score, ally.placement):
            raise RuleError(
                "G-6", "partners_apart", _("The seats of one camp share their medals and their place."), camp=camp
            )
    return result
