"""Mémoire 44 results: medals per seat (M44-6), split into eliminations, objectives and special awards."""

from __future__ import annotations

from domain.memoire44.battlefield import eliminations, objective_medals
from domain.memoire44.state import State
from domain.ruleset import PlayerResult, Result, Viewer

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
