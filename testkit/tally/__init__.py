"""A tiny ruleset that exists only for testing and measuring the generic machinery (store, API, fold,
replays): the tests and the benches serve it beside the real games.

Tally, written for these tests: players take turns in seat order reporting a die face; each face
adds to the roller's score; the first to reach the target wins. Rule ids are T-n.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.ruleset import (
    Event,
    Narration,
    PlayerResult,
    ReportedResult,
    Result,
    RuleError,
    Ruleset,
    SeriesGame,
    SeriesStatus,
    Setup,
    Viewer,
    checked_report,
    player_totals,
)


class Options(msgspec.Struct, frozen=True, kw_only=True):
    target: int = 10


class Rolled(Event, frozen=True, kw_only=True, tag="tally.rolled"):
    seat: int
    face: int


class Noted(Event, frozen=True, kw_only=True, tag="tally.noted"):
    seat: int
    text: str


TallyEvent = Rolled | Noted


class State(msgspec.Struct, frozen=True, kw_only=True):
    target: int
    scores: tuple[int, ...]
    to_play: int = 0
    turn: int = 1
    winner: int | None = None


def initial(setup: Setup) -> State:
    options = msgspec.convert(setup.options, Options)
    if len(setup.players) < 1:
        raise RuleError("T-0", "no_players", "Tally needs at least one player.")
    return State(target=options.target, scores=(0,) * len(setup.players))


def validate(state: State, event: Any) -> None:
    if state.winner is not None:
        raise RuleError("T-3", "game_over", "The game is over.")
    if isinstance(event, Rolled):
        if event.seat != state.to_play:
            raise RuleError(
                "T-1",
                "not_your_turn",
                f"It is seat {state.to_play}'s turn.",
                seat=event.seat,
                to_play=state.to_play,
            )
        if not 1 <= event.face <= 6:
            raise RuleError("T-2", "bad_face", "A die face is 1 to 6.", face=event.face)


def evolve(state: State, event: Any) -> State:
    if isinstance(event, Noted):
        return state
    scores = list(state.scores)
    scores[event.seat] += event.face
    winner = event.seat if scores[event.seat] >= state.target else None
    return msgspec.structs.replace(
        state,
        scores=tuple(scores),
        to_play=(state.to_play + 1) % len(scores),
        turn=state.turn + 1,
        winner=winner,
    )


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    data = msgspec.to_builtins(state)
    if viewer.kind != "full":
        data.pop("turn")
    return data


def result(state: State, viewer: Viewer) -> Result:
    order = sorted(set(state.scores), reverse=True)
    players = tuple(
        PlayerResult(seat=seat, score=score, placement=order.index(score) + 1, breakdown={"dice": score})
        for seat, score in enumerate(state.scores)
    )
    return Result(
        finished=state.winner is not None,
        score_unit="pip",
        players=players,
        winners=(state.winner,) if state.winner is not None else (),
    )


def reported_result(setup: Setup, report: ReportedResult) -> Result:
    """A game of Tally recorded by its result only: pips from none to the target plus a last roll's
    five over it; equal pips share a place."""
    state = initial(setup)
    return checked_report(setup, report, score_unit="pip", highest=state.target + 5, ties_split=False)


def legal_events(state: State, seat: int) -> list[Any] | None:
    if state.winner is not None or seat != state.to_play:
        return []
    return [Rolled(seat=seat, face=face) for face in range(1, 7)]


def narrate(before: State, event: Any, after: State, viewer: Viewer) -> Narration:
    if isinstance(event, Noted):
        # A note is the seat's own (the test ruleset's hidden information): only its seat and the
        # full record read its text.
        text = f"Seat {event.seat} notes: {event.text}" if viewer.sees(event.seat) else f"Seat {event.seat} notes"
        return Narration(text=text, seat=event.seat, chapters=(("turn", before.turn),))
    return Narration(text=f"Seat {event.seat} rolls a {event.face}", seat=event.seat, chapters=(("turn", before.turn),))


def series_status(games: Sequence[SeriesGame]) -> SeriesStatus:
    totals = player_totals(games)
    best = max(totals.values(), default=0)
    finished = best >= 30
    winners = tuple(sorted(p for p, s in totals.items() if s == best)) if finished else ()
    return SeriesStatus(totals=totals, finished=finished, winners=winners)


RULESET: Ruleset[State, TallyEvent] = Ruleset(
    name="tally",
    version="1.0.0",
    title="Tally (test ruleset)",
    event_type=TallyEvent,
    state_type=State,
    resource_kinds={},
    initial=initial,
    validate=validate,
    evolve=evolve,
    view=view,
    result=result,
    legal_events=legal_events,
    narrate=narrate,
    series_status=series_status,
    reported_result=reported_result,
)
