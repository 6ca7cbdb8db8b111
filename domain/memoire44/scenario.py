"""Scenarios as data, and the import of the scenario editor's `.m44` JSON files.

A `.m44` file holds `meta_data`, `game_info` (`starting`, `cards_player1/2`, `victory_player1/2`,
`side_player1/2`), `board` (`type`, `face`, `hexagons`: `{row, col, terrain, rect_terrain, obstacle,
unit{name, nbr_units, badge}, tags}` in doubled columns) and `text`. Player 1 sits at row 0.
Objective medals come from the hexes' `medalN` tags (the token's colour names the side that scores it:
`medal1` Allied, `medal2` Axis: a gap reading) as temporary objectives, or from an optional
`game_info.objectives` list naming the kind (temporary, majority, permanent, as the seed defines them;
village, beach, bridge as its D-Day rules control them). With `dday_rules` on, `game_info.dday` gives the
figures in reserve per side and unit kind, the Axis entry tokens and the Allied landing craft.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

import msgspec

from domain.i18n import Catalogue, Message
from domain.memoire44.board import BOARD_SIZES, Hex
from domain.memoire44.catalogue import BRIDGES, NATIONS, OBSTACLES, TERRAINS, UNIT_PREFIXES, UNIT_TYPES
from domain.memoire44.dday import DDay, parse_dday
from domain.memoire44.expansions import BASE, Expansions, parse_options
from domain.memoire44.imported import read_json
from domain.ruleset import ResourceError, ResourceErrors

_ = Catalogue("domain.memoire44")

# The seed's three objective medals, and the D-Day control of villages, beaches and bridges (M44-DD-1 to 3).
OBJECTIVE_KINDS: tuple[str, ...] = ("temporary", "majority", "permanent", "village", "beach", "bridge")
# Gap reading (the rule texts are silent): the colour of a `medalN` tag's token names the side scoring it.
MEDAL_TAGS: dict[str, str] = {
    "medal1": "ALLIES",
    "medal2": "AXIS",
    "medal4": "ALLIES",
    "medal5": "ALLIES",
    "medal6": "AXIS",
    "medal7": "AXIS",
    "medal8": "ALLIES",
    "medal9": "ALLIES",
}
STARTING: dict[str, int] = {"PLAYER1": 0, "PLAYER2": 1}

Bad = Callable[[int | None, str, "str | Message"], None]
"""Records one error of the file: the hexagon's index (None for the game info), the field, what is wrong."""


class ScenarioHex(msgspec.Struct, frozen=True, kw_only=True):
    """A hex that is not plain countryside: its terrain, obstacle and bridge (editor names)."""

    row: int
    col: int
    terrain: str = ""
    obstacle: str = ""
    bridge: bool = False


class ScenarioUnit(msgspec.Struct, frozen=True, kw_only=True):
    """A unit at the start: where, which kind, which camp (0 = player 1, at row 0), how many figures."""

    row: int
    col: int
    kind: str
    camp: int
    figures: int
    name: str
    badge: str = ""


class Objective(msgspec.Struct, frozen=True, kw_only=True):
    """Medal objective hexes (seed: temporary, majority, permanent; D-Day: village, beach, bridge).
    `camp` is the side that scores it; for a village, the side holding it at the start (its medal goes
    to whoever controls it, M44-DD-1); for a beach, the assaulting side (M44-DD-2); a bridge's medal
    goes to whichever side controls it, whatever `camp` says (M44-DD-3)."""

    camp: int
    kind: str
    hexes: tuple[Hex, ...]
    medals: int = 1


class Scenario(msgspec.Struct, frozen=True, kw_only=True):
    """A parsed scenario, JSON-able: what `initial()` sets the game up from."""

    name: str
    board_type: str
    face: str
    sides: tuple[str, str]
    hand: tuple[int, int]
    victory: tuple[int, int]
    starting: int
    hexes: tuple[ScenarioHex, ...]
    units: tuple[ScenarioUnit, ...]
    objectives: tuple[Objective, ...] = ()
    special_rules: str = ""
    expansions: Expansions = BASE
    dday: DDay | None = None  # the D-Day reserve, entry tokens and landing craft (M44-DD-6 to M44-DD-9)


def _name(entry: Any) -> str:
    if isinstance(entry, Mapping):
        return str(entry.get("name") or "")
    return str(entry or "")


def unit_nation(name: str) -> str:
    """The nation suffix of an editor unit name (`infita` -> `ita`), or "" if it has none."""
    for prefix in UNIT_PREFIXES:
        if name.startswith(prefix):
            return name[len(prefix) :].lstrip("0123456789")
    return ""


def _unit(name: str, sides: tuple[str, str]) -> tuple[str, int] | Message:
    """(kind, camp) for an editor unit name such as `infger` or `tank2us`, or an error message."""
    for prefix, kind in UNIT_PREFIXES.items():
        if name.startswith(prefix):
            nation = unit_nation(name)
            side = NATIONS.get(nation)
            if side is None:
                return _("unit {name} names no known nation", name=repr(name))
            if side not in sides:
                return _("unit {name} is {side}, which no player commands here", name=repr(name), side=side)
            return kind, sides.index(side)
    return _("unknown unit {name}", name=repr(name))


def parse_m44(data: bytes) -> Scenario:
    """Parse and validate a `.m44` file; raises ResourceError listing every bad hexagon."""
    raw = read_json(data, _("The scenario file"))
    if not isinstance(raw, dict) or not isinstance(raw.get("board"), dict):
        raise ResourceError(_("A scenario file needs a `board` object."))
    info = raw.get("game_info") or {}
    board = raw["board"]
    errors = ResourceErrors()

    def bad(index: int | None, field: str, message: str | Message) -> None:
        errors.append({"hexagon": index, "field": field, "message": message})

    board_type = str(board.get("type") or "STANDARD").upper()
    if board_type not in BOARD_SIZES:
        raise ResourceError(
            _(
                "Board type {board} is not supported (only {boards}).",
                board=repr(board_type),
                boards=str(sorted(BOARD_SIZES)),
            )
        )
    rows, cols = BOARD_SIZES[board_type]
    sides = (str(info.get("side_player1", "AXIS")), str(info.get("side_player2", "ALLIES")))
    if len(set(sides)) != 2 or not set(sides) <= {"AXIS", "ALLIES"}:
        bad(None, "game_info.side_player1", _("sides must be AXIS and ALLIES, not {sides}", sides=str(sides)))
    numbers = _numbers(info, bad)
    expansions, refused = parse_options(info.get("options"))
    for field, message in refused:
        bad(None, field, message)
    starting = STARTING.get(str(info.get("starting", "PLAYER1")))
    if starting is None:
        bad(None, "game_info.starting", _("must be PLAYER1 or PLAYER2, not {value}", value=repr(info.get("starting"))))
        starting = 0

    hexes, units, tagged = _hexagons(board.get("hexagons") or [], board_type, sides, bad)
    objectives = _objectives(tagged, info.get("objectives") or [], bad)
    dday = _dday(info, expansions, sides, (rows, cols), bad)
    if errors:
        raise ResourceError(_("The scenario has {count} error(s).", count=errors.total), errors)

    text = raw.get("text") or {}
    english = text.get("en") if isinstance(text, dict) else None
    english = english if isinstance(english, dict) else {}
    name = str(english.get("name") or (raw.get("meta_data") or {}).get("name") or "Untitled scenario")
    rules = "\n\n".join(str(english[key]) for key in ("description", "rules", "victory") if english.get(key))
    return Scenario(
        name=name,
        board_type=board_type,
        face=str(board.get("face") or "COUNTRY"),
        sides=sides,
        hand=(numbers["cards_player1"], numbers["cards_player2"]),
        victory=(numbers["victory_player1"], numbers["victory_player2"]),
        starting=starting,
        hexes=tuple(hexes),
        units=tuple(units),
        objectives=tuple(objectives),
        special_rules=rules,
        expansions=expansions,
        dday=dday,
    )


def _numbers(info: dict[str, Any], bad: Bad) -> dict[str, int]:
    """The hand sizes and the medals to win, each a positive whole number (4 unless the file says)."""
    numbers: dict[str, int] = {}
    for field in ("cards_player1", "cards_player2", "victory_player1", "victory_player2"):
        value = info.get(field, 4)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            bad(None, f"game_info.{field}", _("must be a positive whole number, not {value}", value=repr(value)))
            value = 4
        numbers[field] = value
    return numbers


def _dday(
    info: dict[str, Any],
    expansions: Expansions,
    sides: tuple[str, str],
    size: tuple[int, int],
    bad: Bad,
) -> DDay | None:
    """M44-DD-6 to M44-DD-9: the reinforcements need the reserve and where reinforcements enter."""
    if not expansions.dday and info.get("dday") is None:
        return None
    if not expansions.dday:
        bad(None, "game_info.dday", _("is read only with the option dday_rules turned on"))
        return None
    if info.get("dday") is None:
        bad(None, "game_info.dday", _("the D-Day rules need the reserve, entry tokens and landing craft"))
        return None
    rows, cols = size
    dday, refused = parse_dday(
        info["dday"],
        sides,
        lambda h: 0 <= h[0] < rows and 0 <= h[1] <= 2 * (cols - 1) and h[1] % 2 == h[0] % 2,
    )
    for field, message in refused:
        bad(None, field, message)
    return dday


def _hexagons(
    items: list[Any], board_type: str, sides: tuple[str, str], bad: Bad
) -> tuple[list[ScenarioHex], list[ScenarioUnit], dict[int, list[Hex]]]:
    """The board's hexagons: special terrain and obstacles, units, and the medal-tagged hexes per camp.
    Each bad one is reported through `bad` and left out."""
    rows, cols = BOARD_SIZES[board_type]
    hexes: list[ScenarioHex] = []
    units: list[ScenarioUnit] = []
    tagged: dict[int, list[Hex]] = {0: [], 1: []}
    seen: set[Hex] = set()
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            bad(index, "hexagon", _("must be an object"))
            continue
        row, col = item.get("row"), item.get("col")
        if not (
            isinstance(row, int)
            and isinstance(col, int)
            and 0 <= row < rows
            and 0 <= col <= 2 * (cols - 1)
            and col % 2 == row % 2
        ):
            bad(
                index,
                "row",
                _(
                    "({row}, {col}) is not a hex of the {board} board (doubled columns)",
                    row=str(row),
                    col=str(col),
                    board=board_type,
                ),
            )
            continue
        if (row, col) in seen:
            bad(index, "row", _("hex ({row}, {col}) is listed twice", row=str(row), col=str(col)))
            continue
        seen.add((row, col))
        terrain = _name(item.get("terrain"))
        if terrain not in TERRAINS:
            bad(index, "terrain", _("unknown terrain {terrain}", terrain=repr(terrain)))
            terrain = ""
        rect = _name(item.get("rect_terrain"))
        if rect and rect not in BRIDGES:
            bad(index, "rect_terrain", _("unknown terrain {terrain}", terrain=repr(rect)))
        obstacle = _name(item.get("obstacle"))
        if obstacle and obstacle not in OBSTACLES:
            bad(index, "obstacle", _("unknown obstacle {obstacle}", obstacle=repr(obstacle)))
            obstacle = ""
        if terrain or obstacle or rect in BRIDGES:
            hexes.append(ScenarioHex(row=row, col=col, terrain=terrain, obstacle=obstacle, bridge=rect in BRIDGES))
        unit = item.get("unit")
        if unit:
            found = _unit(_name(unit), sides)
            if isinstance(found, Message):
                bad(index, "unit", found)
            else:
                kind, camp = found
                figures = unit.get("nbr_units") if isinstance(unit, dict) else None
                if figures in (None, ""):
                    figures = UNIT_TYPES[kind].figures
                if not isinstance(figures, int) or not 1 <= figures <= 6:
                    bad(index, "unit", _("nbr_units must be 1 to 6, not {figures}", figures=repr(figures)))
                else:
                    badge = str(unit.get("badge") or "") if isinstance(unit, dict) else ""
                    units.append(
                        ScenarioUnit(
                            row=row,
                            col=col,
                            kind=kind,
                            camp=camp,
                            figures=figures,
                            name=_name(unit),
                            badge=badge,
                        )
                    )
        for tag in item.get("tags") or []:
            side = MEDAL_TAGS.get(_name(tag))
            if side in sides:
                tagged[sides.index(side)].append((row, col))

    return hexes, units, tagged


def _objectives(tagged: dict[int, list[Hex]], entries: list[Any], bad: Bad) -> list[Objective]:
    """The medal objectives: a temporary one per tagged hex, then those the game info lists."""
    objectives = [Objective(camp=camp, kind="temporary", hexes=(hex_,)) for camp in (0, 1) for hex_ in tagged[camp]]
    for index, entry in enumerate(entries):
        try:
            objective = msgspec.convert(entry, Objective)
        except msgspec.ValidationError as error:
            bad(None, f"game_info.objectives[{index}]", str(error))
            continue
        if objective.kind not in OBJECTIVE_KINDS or objective.camp not in (0, 1) or not objective.hexes:
            bad(
                None,
                f"game_info.objectives[{index}]",
                _("kind must be one of {kinds}, camp 0 or 1, with at least one hex", kinds=str(OBJECTIVE_KINDS)),
            )
            continue
        objectives.append(objective)
    return objectives


def content_hash(data: bytes) -> str:
    """The hash a ResourceRef records for an imported file."""
    return hashlib.sha256(data).hexdigest()


class ScenarioKind:
    """The `scenario` resource kind: `.m44` files, parsed to a JSON-able `Scenario`."""

    name = "scenario"
    media_types: tuple[str, ...] = ("application/json", "application/x-m44")

    def parse(self, data: bytes) -> Any:
        """Parse and validate an imported `.m44` file; returns the scenario as JSON-able data."""
        return msgspec.json.decode(msgspec.json.encode(parse_m44(data)))

    def builtin(self) -> Mapping[str, bytes]:
        """The scenarios this project ships (written for it), by id (the file name without `.m44`)."""
        folder = resources.files("domain.memoire44") / "scenarios"
        return {
            entry.name.removesuffix(".m44"): entry.read_bytes()
            for entry in sorted(folder.iterdir(), key=lambda e: e.name)
            if entry.name.endswith(".m44")
        }
