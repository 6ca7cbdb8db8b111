"""Small tables for rule tests: a scenario built hex by hex, hands dealt with known cards."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.events import CardDrawn
from domain.memoire44.state import State
from domain.record import Folded, GameStarted, start
from domain.ruleset import Player, RuleError, Setup
from tests.domain.memoire44.harness import scenario_ref, with_resource

KIND = RULESET.resource_kinds["scenario"]
AXIS, ALLIES = 0, 1  # seats: Alain commands the Axis (player 1, row 0), Bea the Allies


def hexagon(
    row: int,
    col: int,
    terrain: str = "",
    unit: str = "",
    obstacle: str = "",
    bridge: bool = False,
    tags: tuple[str, ...] = (),
    figures: int | None = None,
) -> dict[str, Any]:
    """One `.m44` hexagon entry."""
    entry: dict[str, Any] = {"row": row, "col": col}
    if terrain:
        entry["terrain"] = {"name": terrain}
    if unit:
        entry["unit"] = {"name": unit} | ({"nbr_units": figures} if figures else {})
    if obstacle:
        entry["obstacle"] = {"name": obstacle, "orientation": 1}
    if bridge:
        entry["rect_terrain"] = {"name": "bridge", "orientation": 1}
    if tags:
        entry["tags"] = [{"name": t} for t in tags]
    return entry


def m44(hexagons: list[dict[str, Any]], board_type: str = "STANDARD", **game_info: Any) -> bytes:
    """A `.m44` file: Axis player 1, Allies player 2, 4 cards and 4 medals each unless told."""
    info = {
        "starting": "PLAYER2",
        "side_player1": "AXIS",
        "side_player2": "ALLIES",
        "cards_player1": 4,
        "cards_player2": 4,
        "victory_player1": 4,
        "victory_player2": 4,
    } | game_info
    return msgspec.json.encode(
        {
            "meta_data": {"name": "Test"},
            "game_info": info,
            "board": {"type": board_type, "face": "COUNTRY", "hexagons": hexagons},
        }
    )


def setup_from(data: bytes, scenario_id: str = "test") -> Setup:
    ref = scenario_ref(scenario_id, data)
    return Setup(
        players=(Player(player_id="p-alain", name="Alain", seat=0), Player(player_id="p-bea", name="Bea", seat=1)),
        resources={"scenario": ref},
    )


class Table:
    """A game folded event by event through the record's accept path (validate, then evolve)."""

    def __init__(self, setup: Setup) -> None:
        self.started = GameStarted(ruleset=RULESET.name, ruleset_version=RULESET.version, setup=setup)
        self.folded: Folded = start(RULESET, self.started)
        self.events: list[Any] = [self.started]

    @property
    def state(self) -> State:
        return self.folded.state  # type: ignore[no-any-return]

    def accept(self, *events: Any) -> State:
        for event in events:
            self.folded = self.folded.accept(event)
            self.events.append(event)
        return self.state

    def refused(self, event: Any) -> RuleError:
        with pytest.raises(RuleError) as error:
            self.folded.check(event)
        return error.value


def table(
    hexagons: list[dict[str, Any]],
    axis: tuple[str, ...] = (),
    allies: tuple[str, ...] = (),
    resources: dict[str, dict[str, Any]] | None = None,
    **game_info: Any,
) -> Table:
    """A table with the given hexagons and club `resources` (kind -> JSON content), opening hands dealt:
    the named cards first, then face-down ones up to the hand size."""
    merged: dict[tuple[int, int], dict[str, Any]] = {}
    for entry in hexagons:  # a hex named twice (terrain, then a unit) is one hexagon
        merged.setdefault((entry["row"], entry["col"]), {}).update(entry)
    data = m44(list(merged.values()), **game_info)
    setup = setup_from(data)
    for kind, content in (resources or {}).items():
        setup = with_resource(setup, kind, content)
    game = Table(setup)
    for seat, cards in ((AXIS, axis), (ALLIES, allies)):
        camp = game.state.seat_camp[seat]
        for card in cards:
            game.accept(CardDrawn(seat=seat, card=card))
        for _ in range(game.state.hand_limit[camp] - len(cards)):
            game.accept(CardDrawn(seat=seat))
    return game
