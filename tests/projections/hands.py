"""Hands, a second tiny test ruleset for the projection tests: hidden information, teams and
nested chapters, which tally lacks. Written for these tests; rule ids are H-n.

A deck holds six copies each of cards a, b and c. In seat order, a player draws one card (the record
may know it or not, G-2) and then plays one from hand face up. A round is two turns per player; the
game ends after two rounds. A played `a` scores 2, a `b` 1, a `c` 0; teammates score together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from domain.ruleset import (
    Event,
    Narration,
    Player,
    PlayerResult,
    Result,
    RuleError,
    Ruleset,
    SeriesGame,
    SeriesStatus,
    Setup,
    Viewer,
    player_totals,
)

CARDS = ("a", "b", "c")
COPIES = 6
POINTS = {"a": 2, "b": 1, "c": 0}
ROUNDS = 2
TURNS_PER_PLAYER = 2


class Drew(Event, kw_only=True, tag="hands.drew"):
    seat: int
    card: str | None = None


class Played(Event, kw_only=True, tag="hands.played"):
    seat: int
    card: str


HandsEvent = Drew | Played


class Hand(msgspec.Struct, frozen=True, kw_only=True):
    known: tuple[str, ...] = ()
    unknown: int = 0


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: tuple[Player, ...]
    hands: tuple[Hand, ...]
    played: tuple[tuple[str, ...], ...]
    to_play: int = 0
    phase: Literal["draw", "play", "over"] = "draw"
    round: int = 1
    turn: int = 1


def _seen(state: State, card: str) -> int:
    return sum(h.known.count(card) for h in state.hands) + sum(p.count(card) for p in state.played)


def _side(player: Player) -> int:
    return player.team if player.team is not None else player.seat


def initial(setup: Setup) -> State:
    count = len(setup.players)
    return State(players=setup.players, hands=(Hand(),) * count, played=((),) * count)


def validate(state: State, event: Any) -> None:
    if state.phase == "over":
        raise RuleError("H-3", "game_over", "The game is over.")
    if event.seat != state.to_play:
        raise RuleError("H-1", "not_your_turn", f"It is seat {state.to_play}'s turn.")
    wanted = "draw" if isinstance(event, Drew) else "play"
    if state.phase != wanted:
        raise RuleError("H-1", "wrong_phase", f"The player must {state.phase} now.")
    if event.card is not None and event.card not in CARDS:
        raise RuleError("H-2", "no_such_card", f"There is no card {event.card}.")
    hand = state.hands[event.seat]
    if isinstance(event, Drew) and event.card is not None and _seen(state, event.card) >= COPIES:
        raise RuleError("H-2", "too_many_copies", f"Every {event.card} is already known elsewhere.")
    if isinstance(event, Played) and event.card not in hand.known:
        if hand.unknown == 0:
            raise RuleError("H-2", "not_in_hand", f"{event.card} is not in that hand.")
        if _seen(state, event.card) >= COPIES:
            raise RuleError("H-2", "too_many_copies", f"Every {event.card} is already known elsewhere.")


def evolve(state: State, event: Any) -> State:
    hands = list(state.hands)
    hand = hands[event.seat]
    if isinstance(event, Drew):
        if event.card is None:
            hands[event.seat] = Hand(known=hand.known, unknown=hand.unknown + 1)
        else:
            hands[event.seat] = Hand(known=(*hand.known, event.card), unknown=hand.unknown)
        return msgspec.structs.replace(state, hands=tuple(hands), phase="play")
    if event.card in hand.known:
        known = list(hand.known)
        known.remove(event.card)
        hands[event.seat] = Hand(known=tuple(known), unknown=hand.unknown)
    else:
        hands[event.seat] = Hand(known=hand.known, unknown=hand.unknown - 1)
    played = list(state.played)
    played[event.seat] = (*played[event.seat], event.card)
    count = len(state.players)
    turn, round_ = state.turn + 1, state.round
    if turn > count * TURNS_PER_PLAYER:
        turn, round_ = 1, round_ + 1
    return msgspec.structs.replace(
        state,
        hands=tuple(hands),
        played=tuple(played),
        to_play=(event.seat + 1) % count,
        turn=turn,
        round=round_,
        phase="over" if round_ > ROUNDS else "draw",
    )


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    data = msgspec.to_builtins(state)
    if viewer.kind == "full":
        return data
    data["hands"] = [
        hand if viewer.kind == "seat" and viewer.seat == seat else {"size": len(hand["known"]) + hand["unknown"]}
        for seat, hand in enumerate(data["hands"])
    ]
    return data


def result(state: State, viewer: Viewer) -> Result:
    sides: dict[int, int] = {}
    for player in state.players:
        score = sum(POINTS[card] for card in state.played[player.seat])
        sides[_side(player)] = sides.get(_side(player), 0) + score
    totals = sorted(set(sides.values()), reverse=True)
    players = tuple(
        PlayerResult(seat=p.seat, score=sides[_side(p)], placement=totals.index(sides[_side(p)]) + 1)
        for p in state.players
    )
    over = state.phase == "over"
    return Result(
        finished=over,
        score_unit="point",
        players=players,
        winners=tuple(p.seat for p in players if p.placement == 1) if over else (),
    )


def legal_events(state: State, seat: int) -> list[Any] | None:
    if state.phase == "over" or seat != state.to_play:
        return []
    if state.phase == "draw":
        return [Drew(seat=seat)]
    hand = state.hands[seat]
    cards = set(hand.known) | ({c for c in CARDS if _seen(state, c) < COPIES} if hand.unknown else set())
    return [Played(seat=seat, card=card) for card in sorted(cards)]


def narrate(before: State, event: Any, after: State, viewer: Viewer) -> Narration:
    name = before.players[event.seat].name
    if isinstance(event, Drew):
        text = f"{name} draws {event.card}" if event.card and viewer.sees(event.seat) else f"{name} draws a card"
    else:
        text = f"{name} plays {event.card}"
    chapters = (("round", before.round), ("turn", before.turn))
    return Narration(text=text, seat=event.seat, chapters=chapters)


def series_status(games: Sequence[SeriesGame]) -> SeriesStatus:
    totals = player_totals(games)
    return SeriesStatus(totals=totals, finished=False)


RULESET: Ruleset[State, HandsEvent] = Ruleset(
    name="hands",
    version="1.0.0",
    title="Hands",
    event_type=HandsEvent,
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
)
