"""From a `Setup` to the first state: the scenario the set-up embeds, and which seat commands which side."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import msgspec
from msgspec.structs import replace

from domain.i18n import Message
from domain.memoire44.air import parse_air_pack
from domain.memoire44.battlefield import control_zone, recount
from domain.memoire44.board import BoardSpec
from domain.memoire44.catalogue import NIGHT_START, OBSTACLES
from domain.memoire44.combat import DEAL_PER_GENERAL, DEAL_PER_PLAYER, parse_combat_deck
from domain.memoire44.dday import parse_reinforcement_table
from domain.memoire44.overlord import MAX_GENERALS, Roles, parse_initiative_table, team_roles
from domain.memoire44.rules.air import initial_air
from domain.memoire44.scenario import Scenario, unit_nation
from domain.memoire44.state import Hand, State, Unit
from domain.memoire44.words import _
from domain.ruleset import TEAM_TABLE_ONLY, Player, ResourceError, RuleError, Setup

T = TypeVar("T")


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """Set-up options. A team table is an Overlord game of more than two players, each with `Player.team`
    0 or 1 (M44-OV-2)."""

    sides: Annotated[
        tuple[str, str] | None,
        msgspec.Meta(
            description="The sides the first and the second seat command, or team 0 and team 1 at a team table "
            "(blank: the scenario's order)."
        ),
    ] = None
    roles: Annotated[
        tuple[str, ...] | None,
        msgspec.Meta(
            description="At a team table, each seat's role in seat order: commander, or the sections it commands "
            "(left, centre+right, commander+centre; M44-OV-2).",
            extra_json_schema={TEAM_TABLE_ONLY: True},
        ),
    ] = None


OPTION_WORDS = {
    "sides": (
        _("Sides"),
        _(
            "The sides the first and the second seat command, or team 0 and team 1 at a team table "
            "(blank: the scenario's order)."
        ),
    ),
    "roles": (
        _("Roles"),
        _(
            "At a team table, each seat's role in seat order: commander, or the sections it commands "
            "(left, centre+right, commander+centre; M44-OV-2)."
        ),
    ),
}
"""The start form's label and hint of each option, in the reader's language (the schema keeps English)."""


def options_of(setup: Setup) -> Options:
    try:
        return msgspec.convert(setup.options, Options)
    except msgspec.ValidationError as error:
        raise RuleError("M44-6", "bad_options", _("Set-up options: {error}.", error=str(error))) from None


def scenario_of(setup: Setup) -> tuple[str, Scenario]:
    """The scenario id and parsed scenario the set-up embeds (`Setup.resources["scenario"]`)."""
    ref = setup.resources.get("scenario")
    if ref is None:
        raise RuleError("M44-6", "no_scenario", _("A Mémoire 44 game is set up with a scenario."))
    try:
        return ref.resource_id, msgspec.convert(ref.content, Scenario)
    except msgspec.ValidationError as error:
        raise RuleError("M44-6", "bad_scenario", _("The scenario cannot be read: {error}.", error=str(error))) from None


def team_sides(setup: Setup) -> tuple[str, str]:
    """The side seat 0 and seat 1 command, or at a team table team 0 and team 1."""
    scenario = scenario_of(setup)[1]
    sides = options_of(setup).sides or scenario.sides
    if sorted(sides) != sorted(scenario.sides):
        raise RuleError(
            "M44-6",
            "bad_sides",
            _("The seats command {first} and {second}.", first=scenario.sides[0], second=scenario.sides[1]),
            sides=list(sides),
        )
    return sides


def club_table(setup: Setup, kind: str, rule: str, what: Message, needed_for: Message, parse: Callable[[Any], T]) -> T:
    """A table the rules summary names without printing it, which the set-up embeds as the club resource
    `kind` (the combat deck, M44-CC-1; the D-Day reinforcement table, M44-DD-6; the air pack, M44-AIR-1);
    refused, naming it, when missing or bad."""
    ref = setup.resources.get(kind)
    if ref is None:
        raise RuleError(
            rule,
            f"missing_{kind}",
            _(
                "The scenario plays with {needed_for}, but {what} is missing: import it as the game's {kind} "
                "resource (the rules summary does not print it).",
                needed_for=needed_for,
                what=what,
                kind=kind,
            ),
            missing=kind,
        )
    try:
        return parse(ref.content)
    except ResourceError as error:
        raise RuleError(rule, f"bad_{kind}", error.message) from None


def seat_sides(setup: Setup) -> tuple[str, ...]:
    """The side each seat commands (at a team table, its team's side)."""
    sides = team_sides(setup)
    players = sorted(setup.players, key=lambda p: p.seat)
    if len(players) <= 2:
        return sides
    return tuple(sides[p.team] if p.team in (0, 1) else "" for p in players)


def initial(setup: Setup) -> State:
    """The board, units and objectives of the scenario, both hands still to be drawn (M44-6)."""
    scenario_id, scenario = scenario_of(setup)
    players = sorted(setup.players, key=lambda p: p.seat)
    seats = [p.seat for p in players]
    if seats != list(range(len(seats))) or not 2 <= len(seats) <= 2 * (MAX_GENERALS + 1):
        raise RuleError(
            "M44-6",
            "two_players",
            _("Mémoire 44 is played by two players (seats 0 and 1), or by two teams of two to four (M44-OV-2)."),
            seats=seats,
        )
    seat_camp, roles = _table(setup, scenario, players)
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
        players=tuple(p.name for p in players),
        seat_camp=seat_camp,
        hand_limit=hand_limit,
        victory=scenario.victory,
        objectives=scenario.objectives,
        zones=tuple(control_zone(board, o.hexes) for o in scenario.objectives),
        units=units,
        occupant={u.hex: u.uid for u in units if u.hex is not None},
        obstacles={(h.row, h.col): h.obstacle for h in scenario.hexes if h.obstacle in OBSTACLES},
        hands=(Hand(), Hand()),
        active=scenario.starting,
        draws_due=hand_limit,
        expansions=scenario.expansions,
        visibility=NIGHT_START if scenario.expansions.night else 0,
    )
    state = _with_teams(state, setup, roles, len(players))
    state = _with_combat_cards(state, setup, roles, seats)
    state = _with_dday(state, setup, scenario)
    air = initial_air(
        scenario,
        lambda: club_table(setup, "air_pack", "M44-AIR-1", _("the air pack"), _("the air rules"), parse_air_pack),
    )
    return recount(replace(state, air=air))


def _table(setup: Setup, scenario: Scenario, players: list[Player]) -> tuple[tuple[int, ...], Roles | None]:
    """Which camp each seat commands, and at a team table who commands what (M44-OV-2)."""
    sides = team_sides(setup)
    team_camp = (scenario.sides.index(sides[0]), scenario.sides.index(sides[1]))
    if len(players) == 2:
        if scenario.expansions.marines:
            # M44-OV-9: the rules summary gives the Marines rule for Overlord team tables only.
            raise RuleError(
                "M44-OV-9",
                "marines_two_players",
                _("The US Marines rule is recorded at Overlord team tables only (the rules summary gives no other)."),
            )
        return team_camp, None
    roles = team_roles([p.team for p in players], options_of(setup).roles, team_camp)
    if scenario.expansions.dday:
        # M44-DD-6: the summary rolls one die per card the side holds, which a team table splits.
        raise RuleError(
            "M44-DD-6",
            "dday_teams",
            _(
                "The D-Day reinforcements are recorded at two-player tables only: the rules summary counts the "
                "cards one player holds, which an Overlord team table splits between commander and generals."
            ),
        )
    return tuple(team_camp[p.team or 0] for p in players), roles


def _with_teams(state: State, setup: Setup, roles: Roles | None, seats: int) -> State:
    """An Overlord team table's roles and its initiative table, when the club imported one (M44-OV-7)."""
    if roles is None:
        return state
    table = setup.resources.get("initiative_table")
    initiative_table = None
    if table is not None:
        try:
            initiative_table = parse_initiative_table(table.content)
        except ResourceError as error:
            raise RuleError("M44-OV-7", "bad_initiative_table", error.message) from None
    return replace(
        state,
        commanders=roles.commanders,
        commands=roles.commands,
        given=tuple(Hand() for _seat in range(seats)),
        initiative_table=initiative_table,
        teams=True,
    )


def _with_combat_cards(state: State, setup: Setup, roles: Roles | None, seats: list[int]) -> State:
    """The combat deck and the deal: two each, or one to each general at a team table (M44-CC-1)."""
    if not state.expansions.combat_cards:
        return state
    deck = club_table(setup, "combat_deck", "M44-CC-1", _("the combat card deck"), _("combat cards"), parse_combat_deck)
    deal = tuple(
        DEAL_PER_PLAYER if roles is None else DEAL_PER_GENERAL if roles.commands[seat] else 0 for seat in seats
    )
    return replace(state, combat_deck=deck, combat_hands=tuple(Hand() for _seat in seats), combat_due=deal)


def _with_dday(state: State, setup: Setup, scenario: Scenario) -> State:
    """The D-Day reinforcements' reserve and table (M44-DD-6 to M44-DD-9)."""
    dday = scenario.dday
    if not scenario.expansions.dday or dday is None:
        return state
    table = club_table(
        setup,
        "reinforcement_table",
        "M44-DD-6",
        _("the reinforcement table"),
        _("the D-Day reinforcements"),
        parse_reinforcement_table,
    )
    return replace(state, dday=dday, reinforcement_table=table, reserve=dday.reserve)
