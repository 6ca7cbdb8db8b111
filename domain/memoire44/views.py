"""What each viewer sees (G-2): the board, units, medals and discards are public; a hand's cards are
seen by its own seat and in the full record, everyone else sees how many cards it holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.memoire44.battlefield import commissar_camp, objective_holder
from domain.memoire44.board import hex_name
from domain.memoire44.events import AirCardDrawn, CardCommitted, CardDrawn, CardsGiven, CombatCardDrawn, Memoire44Event
from domain.memoire44.rules.base import pile_size
from domain.memoire44.state import State
from domain.ruleset import Viewer


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The state as `viewer` may see it, as JSON-able data."""
    hands = []
    commissar = commissar_camp(state)
    for camp, hand in enumerate(state.hands):
        seat = state.seat_of(camp)
        entry: dict[str, Any] = {"side": state.sides[camp], "seat": seat, "count": hand.size}
        # A side's cards are seen by its own seats: at a team table the whole team (M44-OV-3).
        sees = viewer.kind == "full" or (
            viewer.kind == "seat" and viewer.seat is not None and _camp_of(state, viewer.seat) == camp
        )
        if sees:
            entry["known"] = list(hand.known)
            entry["unknown"] = hand.unknown
        if camp == commissar:
            # M44-RU-1: the cards under the commissar token are as hidden as the hand (G-2).
            entry["under_token"] = {"count": len(state.token)} | ({"cards": list(state.token)} if sees else {})
        hands.append(entry)
    view = {
        "scenario": {"id": state.scenario_id, "name": state.scenario_name},
        "board": state.board.to_builtins(),
        "sides": [
            {
                "side": state.sides[camp],
                "seat": state.seat_of(camp),
                "player": state.players[state.seat_of(camp)],
                "medals": state.medals[camp],
                "victory": state.victory[camp],
            }
            for camp in (0, 1)
        ],
        "units": [msgspec.to_builtins(u) | {"side": state.sides[u.camp]} for u in state.units],
        "obstacles": [{"row": h[0], "col": h[1], "obstacle": o} for h, o in sorted(state.obstacles.items())],
        "objectives": msgspec.to_builtins(state.objectives),
        # Per objective, the side holding its medals now (for a village, beach or bridge: its control marker).
        "held_by": [
            None if (h := objective_holder(state, i)) is None else state.sides[h] for i in range(len(state.objectives))
        ],
        "hands": hands,
        "discard": list(state.discard),
        "draw_pile": pile_size(state),
        "turn": state.turn,
        "active": state.sides[state.active],
        "phase": state.phase,
        "card": state.card,
        "orders": msgspec.to_builtins(state.orders),
        "pending": msgspec.to_builtins(state.pending),
        "winner": None if state.winner is None else state.sides[state.winner],
        "over": state.over,
        "expansions": msgspec.to_builtins(state.expansions),
        "hand_limits": list(state.hand_limit),
        "visibility": state.visibility if state.expansions.night else None,
        "cards_to_take": state.cards_to_take,
        "last_move": [list(h) for h in state.last_move],
        "last_battle": None if state.last_battle is None else list(state.last_battle),
    }
    if state.teams:
        view["teams"] = _teams(state, viewer)
    if state.combat_deck is not None:
        view["combat"] = _combat(state, viewer)
    if state.air is not None:
        view["air"] = _air(state, viewer)
    if state.dday is not None:
        view["dday"] = _dday(state)
    return view


def _air(state: State, viewer: Viewer) -> dict[str, Any]:
    """The air rules (M44-AIR-1 to M44-AIR-15): planes and markers are public; a side's air combat cards
    are seen by its own seats, their count by everyone (G-2), as is the number of its Air Sortie cards."""
    air = state.air
    assert air is not None
    hands = []
    for camp, hand in enumerate(air.hands):
        entry: dict[str, Any] = {"side": state.sides[camp], "count": hand.size, "may_draw": air.due[camp]}
        if air.sorties is not None:  # M44-AIR-15: alike cards, so their number is public
            entry["air_sorties"] = air.sorties[camp]
        if viewer.kind == "full" or (
            viewer.kind == "seat" and viewer.seat is not None and _camp_of(state, viewer.seat) == camp
        ):
            entry["known"] = list(hand.known)
            entry["unknown"] = hand.unknown
        hands.append(entry)
    return {
        "superiority": state.sides[air.superiority],
        "planes": [
            {
                "plane": p.plane,
                "name": air.pack.planes[p.plane].name,
                "symbol": air.pack.planes[p.plane].symbol,
                "side": state.sides[p.camp],
                "hex": None if p.hex is None else list(p.hex),
                "lost": p.lost,
                "grounded": p.grounded,
            }
            for p in air.planes
        ],
        "hands": hands,
        "discard": list(air.discard),
        "markers": [list(h) for h in air.markers],
        "medals": list(air.kills),
        "bomb": air.bomb,
        "bombed": [{"objective": index, "side": state.sides[camp]} for index, camp in air.bombed],
    }


def _dday(state: State) -> dict[str, Any]:
    """D-Day (M44-DD-6 to M44-DD-9), all public: the figures in reserve per side, where reinforcements
    enter, and the units this turn's roll brought that are still to place."""
    assert state.dday is not None
    return {
        "reserve": [
            {"side": state.sides[camp], "figures": dict(reserve)} for camp, reserve in enumerate(state.reserve)
        ],
        "entry_tokens": [list(h) for h in state.dday.entry_tokens],
        "landing_craft": [list(h) for h in state.dday.landing_craft],
        "reinforcements": list(state.reinforcements),
        "rolled": state.reinforced,
    }


def _combat(state: State, viewer: Viewer) -> dict[str, Any]:
    """Combat cards (M44-CC-1): each seat's cards seen by that seat only (G-2), the count by everyone."""
    hands = []
    for seat, hand in enumerate(state.combat_hands):
        entry: dict[str, Any] = {"seat": seat, "count": hand.size, "may_draw": state.combat_due[seat]}
        if viewer.kind == "full" or (viewer.kind == "seat" and viewer.seat == seat):
            entry["known"] = list(hand.known)
            entry["unknown"] = hand.unknown
        hands.append(entry)
    return {
        "hands": hands,
        "discard": list(state.combat_discard),
        "helped_units": list(state.combat_helped),
        "boosts": [list(b) for b in state.combat_boosts],
    }


def _camp_of(state: State, seat: int) -> int | None:
    return state.seat_camp[seat] if 0 <= seat < len(state.seat_camp) else None


def _teams(state: State, viewer: Viewer) -> list[dict[str, Any]]:
    """Who commands what at an Overlord team table (M44-OV-2), the cards handed to each general this turn
    (how many for everyone, which only for the general's own side, G-2), and what each has played."""
    seats = []
    for seat, camp in enumerate(state.seat_camp):
        given = state.given[seat]
        entry: dict[str, Any] = {
            "seat": seat,
            "player": state.players[seat],
            "side": state.sides[camp],
            "commander": state.commanders[camp] == seat,
            "sections": list(state.commands[seat]),
            "given": given.size,
            "initiative": seat in state.initiative,
        }
        if viewer.kind == "full" or (
            viewer.kind == "seat" and viewer.seat is not None and _camp_of(state, viewer.seat) == camp
        ):
            entry["given_cards"] = list(given.known)
        seats.append(entry)
    return seats


HEX_FIELDS = frozenset({"hex", "last_move", "last_battle", "markers", "entry_tokens", "landing_craft"})
"""The view's fields holding a hex, or a list of hexes, as [row, column]."""


def value_words(path: Sequence[str], value: Any) -> str | None:
    """A hex, or a list of hexes, as the board names them (`C4`; `C4, D5`), where the view keeps
    [row, column] (M44-1); None for anything else."""
    keys = [key for key in path if not key.isdigit()]
    if not keys or keys[-1] not in HEX_FIELDS:
        return None
    if _is_hex(value):
        return hex_name((value[0], value[1]))
    if isinstance(value, list | tuple) and value and all(_is_hex(v) for v in value):
        return ", ".join(hex_name((v[0], v[1])) for v in value)
    return None


def _is_hex(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value)


def known(state: State, event: Memoire44Event, after: State, viewer: Viewer) -> tuple[Memoire44Event, ...]:
    """`event` as `viewer` knew it (`Ruleset.known`; a step shows nothing more): a command, air or combat
    card drawn, committed or handed is None unless the viewer's side holds it (a side's seats share one
    hand, M44-OV-3)."""
    if viewer.kind == "full":
        return (event,)
    mine = _camp_of(state, viewer.seat) if viewer.kind == "seat" and viewer.seat is not None else None

    def hidden(seat: int) -> bool:
        return mine is None or _camp_of(state, seat) != mine

    if isinstance(event, CardDrawn | CardCommitted | AirCardDrawn | CombatCardDrawn):
        return (
            (msgspec.structs.replace(event, card=None),) if event.card is not None and hidden(event.seat) else (event,)
        )
    if isinstance(event, CardsGiven) and hidden(event.seat):
        return (
            msgspec.structs.replace(event, gifts=tuple(msgspec.structs.replace(g, card=None) for g in event.gifts)),
        )
    return (event,)
