"""From a `Setup` to the first state: the scenario the set-up embeds, and which seat commands which side."""

from __future__ import annotations

import msgspec

from domain.memoire44.board import BoardSpec
from domain.memoire44.catalogue import OBSTACLES
from domain.memoire44.rules import recount
from domain.memoire44.scenario import Scenario, unit_nation
from domain.memoire44.state import Hand, State, Unit
from domain.ruleset import RuleError, Setup


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """`sides`: the side seat 0 and seat 1 command (default: seat 0 the scenario's player 1)."""

    sides: tuple[str, str] | None = None


def scenario_of(setup: Setup) -> tuple[str, Scenario]:
    """The scenario id and parsed scenario the set-up embeds (`Setup.resources["scenario"]`)."""
    ref = setup.resources.get("scenario")
    if ref is None:
        raise RuleError("M44-6", "no_scenario", "A Mémoire 44 game is set up with a scenario.")
    try:
        return ref.resource_id, msgspec.convert(ref.content, Scenario)
    except msgspec.ValidationError as error:
        raise RuleError("M44-6", "bad_scenario", f"The scenario cannot be read: {error}.") from None


def seat_sides(setup: Setup) -> tuple[str, str]:
    """The side each seat commands."""
    _, scenario = scenario_of(setup)
    try:
        options = msgspec.convert(setup.options, Options)
    except msgspec.ValidationError as error:
        raise RuleError("M44-6", "bad_options", f"Set-up options: {error}.") from None
    sides = options.sides or scenario.sides
    if sorted(sides) != sorted(scenario.sides):
        raise RuleError(
            "M44-6",
            "bad_sides",
            f"The seats command {scenario.sides[0]} and {scenario.sides[1]}.",
            sides=list(sides),
        )
    return sides


def initial(setup: Setup) -> State:
    """The board, units and objectives of the scenario, both hands still to be drawn (M44-6)."""
    scenario_id, scenario = scenario_of(setup)
    seats = sorted(p.seat for p in setup.players)
    if len(seats) > 2:
        # M44-OV-2: an Overlord table of a commander and generals per side is not recorded yet.
        raise RuleError(
            "M44-OV-2",
            "teams_not_supported",
            "Team play (a commander-in-chief and generals per side) is not recorded yet; seat two players.",
            seats=seats,
        )
    if seats != [0, 1]:
        raise RuleError("M44-6", "two_players", "Mémoire 44 is played by two players, seats 0 and 1.", seats=seats)
    sides = seat_sides(setup)
    names = {p.seat: p.name for p in setup.players}
    board = BoardSpec(
        scenario.board_type,
        tuple(sorted(((h.row, h.col), h.terrain) for h in scenario.hexes)),
        tuple(sorted((h.row, h.col) for h in scenario.hexes if h.bridge)),
    )
    units = tuple(
        Unit(
            uid=i,
            camp=u.camp,
            kind=u.kind,
            size=u.figures,
            figures=u.figures,
            hex=(u.row, u.col),
            badge=u.badge,
            nation=unit_nation(u.name),
        )
        for i, u in enumerate(scenario.units)
    )
    hand_limit = scenario.hand
    if scenario.expansions.italy_high_command and "AXIS" in scenario.sides:
        # M44-IT-1: the Italian side starts with six command cards whatever the scenario says.
        axis = scenario.sides.index("AXIS")
        hand_limit = (6, hand_limit[1]) if axis == 0 else (hand_limit[0], 6)
    state = State(
        board_spec=board,
        scenario_id=scenario_id,
        scenario_name=scenario.name,
        sides=scenario.sides,
        players=(names[0], names[1]),
        seat_camp=tuple(scenario.sides.index(side) for side in sides),
        hand_limit=hand_limit,
        victory=scenario.victory,
        objectives=scenario.objectives,
        units=units,
        occupant={u.hex: u.uid for u in units if u.hex is not None},
        obstacles={(h.row, h.col): h.obstacle for h in scenario.hexes if h.obstacle in OBSTACLES},
        hands=(Hand(), Hand()),
        active=scenario.starting,
        draws_due=hand_limit,
        expansions=scenario.expansions,
        visibility=1 if scenario.expansions.night else 0,
    )
    return recount(state)
