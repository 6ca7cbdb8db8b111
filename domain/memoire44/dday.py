"""D-Day Landings reinforcements (M44-DD-6 to M44-DD-9): the scenario's reserve, entry tokens and landing
craft, and the reinforcement table a club imports.

After showing its command card a side rolls one die per command card it holds (its hand and the card just
played), two more for a Recon card, Their Finest Hour's own dice first; the reinforcement table says what
each face brings. The rules summary names the table without printing it, so a club imports it as the
`reinforcement_table` resource and a D-Day scenario without one is refused at set-up, naming the table.
Reinforcements are placed as moves, only with figures in the reserve: the Axis on its entry tokens, the
Allies in empty landing craft or on a beach they control. Figures lost go back to the reserve, except the
last figure of an eliminated unit, which is the enemy's medal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.i18n import Catalogue, Message
from domain.memoire44.board import Hex
from domain.memoire44.catalogue import FACE_NAMES, UNIT_KINDS, UNIT_TYPES
from domain.memoire44.imported import JsonTableKind, not_a_face, read_table, table_errors

_ = Catalogue("domain.memoire44")

RECON_EXTRA_DICE = 2  # M44-DD-6: two more dice when the card shown is a Recon card
MAX_UNITS_PER_FACE = 3


class DDay(msgspec.Struct, frozen=True, kw_only=True):
    """A D-Day scenario's reinforcement set-up: per camp, the figures in reserve by unit kind; the Axis
    entry tokens and the Allied landing craft, as hexes."""

    reserve: tuple[dict[str, int], dict[str, int]] = ({}, {})
    entry_tokens: tuple[Hex, ...] = ()
    landing_craft: tuple[Hex, ...] = ()


class ReinforcementTable(msgspec.Struct, frozen=True, kw_only=True):
    """The D-Day reinforcement table: per side (`ALLIES`, `AXIS`), per die face, the unit kinds that face
    brings (none for an empty list), with where the values come from."""

    source: str
    sides: dict[str, dict[str, tuple[str, ...]]]


def parse_reinforcement_table(content: Any) -> ReinforcementTable:
    """The table from its JSON form; ResourceError naming each bad row."""
    table, errors = read_table(content, ReinforcementTable, ReinforcementTableKind.what)
    for side in ("ALLIES", "AXIS"):
        rows = table.sides.get(side)
        if rows is None:
            errors.append({"field": f"sides.{side}", "message": _("each side has its rows")})
            continue
        for face in sorted(FACE_NAMES - set(rows)):
            errors.append({"field": f"sides.{side}.{face}", "message": _("every die face has a row")})
        for face, kinds in sorted(rows.items()):
            field = f"sides.{side}.{face}"
            if face not in FACE_NAMES:
                errors.append({"field": field, "message": not_a_face()})
            if len(kinds) > MAX_UNITS_PER_FACE or any(kind not in UNIT_KINDS for kind in kinds):
                errors.append(
                    {
                        "field": field,
                        "message": _("up to {most} of {kinds}", most=MAX_UNITS_PER_FACE, kinds=str(list(UNIT_KINDS))),
                    }
                )
    for side in sorted(set(table.sides) - {"ALLIES", "AXIS"}):
        errors.append({"field": f"sides.{side}", "message": _("sides are ALLIES and AXIS")})
    if errors:
        raise table_errors(ReinforcementTableKind.what, errors)
    return table


class ReinforcementTableKind(JsonTableKind):
    """The `reinforcement_table` resource kind: a JSON file of the D-Day reinforcement table. The project
    ships none: the rules summary does not print the table and no public source of its values was found."""

    name = "reinforcement_table"
    what = _("The reinforcement table")

    def check(self, content: Any) -> msgspec.Struct:
        return parse_reinforcement_table(content)


def parse_dday(raw: Any, sides: tuple[str, str], on_board: Any) -> tuple[DDay, list[tuple[str, Message]]]:
    """The `game_info.dday` block (reserve by side and kind, `entry_tokens`, `landing_craft` as [row, col]
    lists) and (field, message) for each error; `on_board(hex)` says whether a hex is on the board."""
    errors: list[tuple[str, Message]] = []
    if not isinstance(raw, Mapping):
        return DDay(), [("game_info.dday", _("must be an object: reserve, entry_tokens, landing_craft"))]
    reserve: list[dict[str, int]] = [{}, {}]
    given = raw.get("reserve") or {}
    if not isinstance(given, Mapping):
        errors.append(("game_info.dday.reserve", _("must give the figures in reserve per side and unit kind")))
        given = {}
    for side, kinds in given.items():
        field = f"game_info.dday.reserve.{side}"
        if side not in sides or not isinstance(kinds, Mapping):
            errors.append((field, _("must be one of {sides}, with figures per unit kind", sides=str(list(sides)))))
            continue
        for kind, figures in kinds.items():
            if kind not in UNIT_KINDS or not isinstance(figures, int) or isinstance(figures, bool) or figures < 0:
                errors.append(
                    (f"{field}.{kind}", _("figures (0 or more) of a unit kind: {kinds}", kinds=str(list(UNIT_KINDS))))
                )
                continue
            reserve[sides.index(side)][kind] = figures
    hexes: dict[str, tuple[Hex, ...]] = {}
    for name in ("entry_tokens", "landing_craft"):
        found: list[Hex] = []
        for index, item in enumerate(raw.get(name) or []):
            if (
                not isinstance(item, list | tuple)
                or len(item) != 2
                or not all(isinstance(x, int) for x in item)
                or not on_board((item[0], item[1]))
            ):
                errors.append(
                    (f"game_info.dday.{name}[{index}]", _("{item} is not a hex of the board", item=repr(item)))
                )
                continue
            found.append((item[0], item[1]))
        hexes[name] = tuple(found)
    for name in sorted(set(raw) - {"reserve", "entry_tokens", "landing_craft"}):
        errors.append((f"game_info.dday.{name}", _("unknown; known: reserve, entry_tokens, landing_craft")))
    dday = DDay(
        reserve=(reserve[0], reserve[1]), entry_tokens=hexes["entry_tokens"], landing_craft=hexes["landing_craft"]
    )
    return dday, errors


def reinforcements_for(table: ReinforcementTable, side: str, faces: tuple[str, ...]) -> tuple[str, ...]:
    """The unit kinds a reinforcement roll brings, face by face (M44-DD-6)."""
    rows = table.sides[side]
    return tuple(kind for face in faces for kind in rows[face])


def returned_to_reserve(before: int, after: int) -> int:
    """Figures a unit's loss sends back to the reserve (M44-DD-9): all but the last of an eliminated
    unit, which becomes the enemy's medal."""
    lost = before - after
    return lost - 1 if after == 0 and lost > 0 else max(lost, 0)


def full_strength(kind: str) -> int:
    """The figures a reinforcement unit is placed with: a full unit of its kind (M44-DD-8)."""
    return UNIT_TYPES[kind].figures
