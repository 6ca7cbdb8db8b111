"""Overlord team play (M44-OV-2 to M44-OV-7): who commands what at a team table, and the initiative
table a club imports.

Each side has a commander-in-chief and up to three field generals (`Player.team` says the side, the
set-up's `roles` what each seat commands). The commander holds the side's command cards and hands some
to his generals; a general plays the cards he was given in the sections he commands. A general given no
card may take the initiative: one die, read on the Overlord initiative table, which the rules summary
names but does not print, so a club imports it as a resource (`initiative_table`) and a game that takes
the initiative without one is refused, naming the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from domain.i18n import Arg, Message
from domain.memoire44.catalogue import CARDS, FACE_NAMES, SECTIONS, UNIT_KINDS
from domain.memoire44.imported import JsonTableKind, not_a_face, read_table, table_errors
from domain.memoire44.words import _, listed, section
from domain.ruleset import RuleError

COMMANDER = "commander"
MAX_GENERALS = 3  # M44-OV-2
MAX_GIFTS = 3  # M44-OV-3: the commander hands out one to three cards a turn
MAX_PER_GENERAL = 2
COMMANDER_DRAWS = 2  # M44-OV-4


class Initiative(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the initiative table: the units a general may order in his own sections for a face
    (none if 0), of the kinds listed (any kind if empty)."""

    orders: int
    kinds: tuple[str, ...] = ()
    text: str = ""


class InitiativeTable(msgspec.Struct, frozen=True, kw_only=True):
    """The Overlord initiative table, by die face, with where its values come from."""

    source: str
    faces: dict[str, Initiative]


def parse_initiative_table(content: Any) -> InitiativeTable:
    """The table from its JSON form; ResourceError naming each bad row."""
    table, errors = read_table(content, InitiativeTable, InitiativeTableKind.what)
    for face in sorted(FACE_NAMES - set(table.faces)):
        errors.append({"field": f"faces.{face}", "message": _("every die face has a row")})
    for face, row in sorted(table.faces.items()):
        if face not in FACE_NAMES:
            errors.append({"field": f"faces.{face}", "message": not_a_face()})
        if not 0 <= row.orders <= 4:
            errors.append({"field": f"faces.{face}.orders", "message": _("orders 0 to {most} units", most=4)})
        for kind in row.kinds:
            if kind not in UNIT_KINDS:
                errors.append(
                    {"field": f"faces.{face}.kinds", "message": _("unknown unit kind {kind}", kind=repr(kind))}
                )
    if errors:
        raise table_errors(InitiativeTableKind.what, errors)
    return table


class InitiativeTableKind(JsonTableKind):
    """The `initiative_table` resource kind: a JSON file of the Overlord initiative table. The project
    ships none: the rules summary does not print the table and no public source of its values was found."""

    name = "initiative_table"
    what = _("The initiative table")

    def check(self, content: Any) -> msgspec.Struct:
        return parse_initiative_table(content)


class Roles(msgspec.Struct, frozen=True, kw_only=True):
    """A team table: per camp the commander-in-chief's seat, per seat the sections it commands."""

    commanders: tuple[int, int]
    commands: tuple[tuple[str, ...], ...]


def _refuse(message: Message, **details: Any) -> RuleError:
    return RuleError("M44-OV-2", "team_setup", message, **details)


def team_roles(teams: Sequence[int | None], roles: Sequence[str] | None, team_camp: tuple[int, int]) -> Roles:
    """Check a team table (M44-OV-2): each seat on team 0 or 1; per team one commander-in-chief and one
    to three generals; each of the side's three sections commanded by exactly one seat of it. A role is
    `commander`, a section (`left`), sections joined by `+` (`left+centre`), or `commander+centre` for a
    commander-in-chief who also commands a section."""
    seats = len(teams)
    if roles is None or len(roles) != seats:
        raise _refuse(_("A team table gives each seat a role (commander, or the sections it commands)."), seats=seats)
    commanders: list[int | None] = [None, None]
    commands: list[tuple[str, ...]] = []
    per_team: list[list[int]] = [[], []]
    for seat, (team, role) in enumerate(zip(teams, roles, strict=True)):
        if team not in (0, 1):
            raise _refuse(_("At a team table every player is on team 0 or team 1."), seat=seat, team=team)
        camp = team_camp[team]
        parts = role.split("+")
        if COMMANDER in parts:
            if commanders[camp] is not None:
                raise _refuse(_("A side has one commander-in-chief."), seat=seat)
            commanders[camp] = seat
            parts.remove(COMMANDER)
        elif not parts or parts == [""]:
            raise _refuse(_("Each seat commands something."), seat=seat)
        if any(p not in SECTIONS for p in parts) or len(set(parts)) != len(parts):
            raise _refuse(
                _("Role {role}: sections are {sections}.", role=repr(role), sections=", ".join(SECTIONS)),
                seat=seat,
                role=role,
            )
        commands.append(tuple(parts))
        per_team[camp].append(seat)
    for camp, members in enumerate(per_team):
        commander = commanders[camp]
        if commander is None:
            raise _refuse(_("Each side has a commander-in-chief."), side=camp)
        generals = [s for s in members if commands[s] and s != commander]
        if not 1 <= len(generals) <= MAX_GENERALS:
            raise _refuse(_("Each side has one to three field generals besides its commander."), side=camp)
        held = sorted(s for seat in members for s in commands[seat])
        if held != sorted(SECTIONS):
            missing = [s for s in SECTIONS if s not in held]
            twice = sorted({s for s in held if held.count(s) > 1})
            found: list[Arg] = []
            if missing:
                found.append(_("uncovered: {sections}", sections=listed([section(s) for s in missing])))
            if twice:
                found.append(_("twice: {sections}", sections=listed([section(s) for s in twice])))
            what = listed(found, sep="; ")
            raise _refuse(
                _("Each section of a side is commanded by exactly one of its players ({what}).", what=what),
                side=camp,
                held=held,
            )
    assert commanders[0] is not None and commanders[1] is not None
    return Roles(commanders=(commanders[0], commanders[1]), commands=tuple(commands))


def gifts_fit(own: tuple[str, ...], cards: Sequence[str | None], sections_of: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether a general commanding `own` can play each of `cards` in a section of its own, one card per
    section (M44-OV-5): a section card in a section it names, any other card anywhere he commands (a card
    still face down, None, anywhere). `sections_of` gives a section card's sections."""
    options = [[s for s in own if card is None or card not in sections_of or s in sections_of[card]] for card in cards]
    return any(len(set(choice)) == len(choice) for choice in _choices(options))


def general_takes(
    own: tuple[str, ...], cards: Sequence[str | None], sections_of: Mapping[str, tuple[str, ...]]
) -> bool:
    """Whether a general commanding `own` may be handed `cards` in one turn (M44-OV-3): at most two, only
    one when it is a tactic card, and each playable in a section of his own (M44-OV-5)."""
    tactic = any(card is not None and CARDS[card].kind == "tactic" for card in cards)
    return len(cards) <= MAX_PER_GENERAL and not (tactic and len(cards) > 1) and gifts_fit(own, cards, sections_of)


def _choices(options: list[list[str]]) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = [()]
    for choice in options:
        found = [(*f, s) for f in found for s in choice]
    return found
