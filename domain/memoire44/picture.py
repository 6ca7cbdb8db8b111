"""The battlefield of a Mémoire 44 game as an SVG picture, drawn from a view (G-2: the board is public,
hands are drawn as counts only).

The hex board with its terrain (a legend names the colours), bridges, obstacles and medal objectives;
each unit as a token of its side's colour, shaped by its kind (infantry round, armour square, artillery
a diamond) with its figures left; the battle still to resolve (the target that must retreat, the hex an
attacker may take); each side's medals, hand and the card in play at its own edge of the board.

The conditions of play are a banner under the title: the night's light level (M44-NT-1), the weather
(M44-WX-1, M44-WX-2) and the North African desert rules (M44-NA-1). A village, beach or bridge objective
shows the side controlling it by a flag of its colour (M44-DD-1 to M44-DD-3), and under the D-Day rules
each side's reserve is written below the board (M44-DD-8). The legend names every marker kind drawn.

What the last step changed is outlined: a unit that moved, a unit that lost figures (the battle's
target). The turn's latest move is drawn as a line from its start along its path, and its latest battle's
target hex is marked, both from the view (`last_move`, `last_battle`).

Its words (labels, legend, side names, the screen reader's labels) are messages of the game's catalogue, told
with the `words` the picture is given: the reader's language, as the narration takes it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.i18n import Arg, Message, Teller, english
from domain.memoire44.board import hex_name
from domain.memoire44.catalogue import FULL_DAY, UNIT_KINDS
from domain.memoire44.coordinates import edge_coordinates
from domain.memoire44.words import SECTIONS, TERRAIN_NAMES, _, listed
from domain.memoire44.words import card as card_name
from domain.memoire44.words import kind as kind_name
from domain.memoire44.words import side as side_name
from domain.svg import (
    Changed,
    changed_class,
    circle,
    document,
    esc,
    group,
    pick,
    pick_attributes,
    rect,
    shorten,
    text,
    to_data,
)

HEX_W = 60.0  # pointy-top hexes: a doubled column is half a hex
HALF_W = HEX_W / 2
RADIUS = HEX_W / math.sqrt(3)  # centre to corner
ROW_H = RADIUS * 1.5
MARGIN = 10.0
TITLE = 48.0  # the scenario, turn and status line
HEAD = 118.0  # room for a side's three lines above and below the board
FONT = 28  # about 12.5 px when the picture is 360 px wide
SMALL = 26

# The outline of a hex from its top corner, relative, so each hex costs one short string.
_HEX = (
    f"l{HALF_W:g} {RADIUS / 2:.2f}v{RADIUS:.2f}l{-HALF_W:g} {RADIUS / 2:.2f}"
    f"l{-HALF_W:g} {-RADIUS / 2:.2f}v{-RADIUS:.2f}z"
)

TERRAIN_FILL: dict[str, str] = {
    "countryside": "#e3ebc6",
    "forest": "#3f7f3a",
    "town": "#b5a48c",
    "church": "#a98e7a",
    "hedgerow": "#8fa64a",
    "hill": "#cfa969",
    "river": "#7fb3e0",
    "pond": "#7fb3e0",
    "ocean": "#4a86c5",
    "beach": "#f3dfa6",
    "road": "#d8c7a0",
}
SIDE_FILL = {"AXIS": "#46525e", "ALLIES": "#b8923a"}
SIDE_INK = {"AXIS": "#ffffff", "ALLIES": "#1b1b1b"}
CONTROLLED = ("village", "beach", "bridge")  # objectives with a control marker (M44-DD-1 to M44-DD-3)
BAND = 46.0  # one line of the conditions banner
NIGHT_FILL = "#1c2a4a"
# What each weather does, in the words of M44-WX-1 and M44-WX-2, and its name in the legend.
WEATHER_WORDS = {
    "snow": _("Snow: moves at most 2 hexes; battles only adjacent"),
    "fog": _("Fog: units battle only an enemy next to them"),
    "rain": _("Pouring rain: units battle only an enemy next to them"),
    "darkness": _("Darkness: units battle only an enemy next to them"),
}
WEATHER_NAMES = {
    "snow": _.pgettext("legend", "snow"),
    "fog": _.pgettext("legend", "fog"),
    "rain": _.pgettext("legend", "pouring rain"),
    "darkness": _.pgettext("legend", "darkness"),
}
WEATHER_FILL = {"snow": "#dbe4ee", "fog": "#ced4da", "rain": "#a5c3e0", "darkness": "#495057"}
DESERT_FILL = "#f0c27a"
OBSTACLE_NAMES: dict[str, Message] = {
    "sand": TERRAIN_NAMES["sandbags"],
    "sandbags": TERRAIN_NAMES["sandbags"],
    "wire": TERRAIN_NAMES["wire"],
    "bunker": TERRAIN_NAMES["bunker"],
    "hedgehog": _.pgettext("legend", "hedgehogs"),
}


# The medal objectives by the kind the scenario gives them (M44-6, M44-DD-1 to M44-DD-3).
OBJECTIVE_KINDS: dict[str, Message] = {
    "temporary": _.pgettext("objective", "temporary"),
    "majority": _.pgettext("objective", "majority"),
    "permanent": _.pgettext("objective", "permanent"),
    "village": _.pgettext("objective", "village"),
    "beach": _.pgettext("objective", "beach"),
    "bridge": _.pgettext("objective", "bridge"),
}


def _terrain(name: str) -> str | Message:
    return TERRAIN_NAMES.get(name, name)


def _words(told: Teller, value: Arg) -> str:
    """A name or a list of names (a message argument) in the reader's words."""
    return told(value) if isinstance(value, str | Message) else str(value)


def _against(sides: Sequence[Message]) -> str | Message:
    """The sides facing each other: "Axis (Alain) against Allies (Bea)"."""
    line: str | Message = sides[0] if sides else ""
    for side in sides[1:]:
        line = _("{first} against {then}", first=line, then=side)
    return line


def _centre(row: int, col: int) -> tuple[float, float]:
    return MARGIN + HALF_W * (col + 1), TITLE + HEAD + RADIUS + ROW_H * row


def _hexes(rows: int, cols: int) -> list[tuple[int, int]]:
    width = 2 * (cols - 1)
    return [(row, col) for row in range(rows) for col in range(row % 2, width + 1, 2)]


def _token(x: float, y: float, kind: str, side: str, changed: bool = False) -> str:
    fill = SIDE_FILL.get(side, "#868e96")
    mark = ' class="changed"' if changed else ""
    if kind == "armour":
        return rect(
            x - 21, y - 19, 42, 38, rx=6, fill=fill, stroke="#ffffff", stroke_width=2, class_=changed_class(changed)
        )
    if kind == "artillery":
        return (
            f'<path d="M{x:g} {y - 25:g}l24 25l-24 25l-24-25z" fill="{fill}" stroke="#ffffff" stroke-width="2"{mark}/>'
        )
    return circle(x, y, 22, fill=fill, stroke="#ffffff", stroke_width=2, class_=changed_class(changed))


def _obstacle(x: float, y: float, obstacle: str) -> str:
    """A small mark at the bottom of the hex (the token stays readable above it)."""
    y += RADIUS * 0.62
    if obstacle == "wire":
        return f'<path d="M{x - 18:g} {y:g}l6-6l6 6l6-6l6 6l6-6" fill="none" stroke="#212529" stroke-width="3"/>'
    if obstacle == "hedgehog":
        return f'<path d="M{x - 9:g} {y - 8:g}l18 12m0-12l-18 12" stroke="#212529" stroke-width="4" fill="none"/>'
    if obstacle == "bunker":
        return rect(x - 12, y - 10, 24, 12, fill="#6c757d", stroke="#212529", stroke_width=2)
    return f'<path d="M{x - 16:g} {y:g}a16 9 0 0 1 32 0z" fill="#9c6b3c" stroke="#4a3520" stroke-width="2"/>'


def _side_lines(data: dict[str, Any], camp: int, y: float, marks: Changed, told: Teller) -> str:
    sides = data.get("sides", ())
    if camp >= len(sides):
        return ""
    side = sides[camp]
    name = str(side.get("side", ""))
    hands = data.get("hands", ())
    count = next((h.get("count", 0) for h in hands if h.get("side") == name), 0)
    active = data.get("active") == name and not data.get("over")
    player = shorten(str(side.get("player", "")), 24)
    first = told(
        _("{side} · {player}  (to play)", side=side_name(name), player=player)
        if active
        else _("{side} · {player}", side=side_name(name), player=player)
    )
    second = told(
        _.ngettext(
            "{medals} of {victory} medals · {count} card in hand",
            "{medals} of {victory} medals · {count} cards in hand",
            int(count),
            medals=int(side.get("medals", 0)),
            victory=int(side.get("victory", 0)),
        )
    )
    body = [
        rect(MARGIN, y, 16 * 2, 32, rx=4, fill=SIDE_FILL.get(name, "#868e96")),
        text(MARGIN + 42, y + 26, first, FONT, font_weight="bold"),
        text(MARGIN + 42, y + 62, second, SMALL + 2, fill="#343a40"),
    ]
    changed = marks("sides", camp, "medals") or any(
        marks("hands", i) for i in range(len(hands)) if hands[i].get("side") == name
    )
    label = told(_("{side}, {player}: {line}", side=side_name(name), player=str(side.get("player", "")), line=second))
    third = []
    team = [t for t in data.get("teams", ()) if t.get("side") == name]
    if team:  # M44-OV-2: who commands what at a team table
        roles = [told(_role(t)) for t in team]
        third.append("; ".join(roles))
        label += f", {'; '.join(roles)}"
    if active and data.get("card"):
        playing = told(_("playing {card}", card=card_name(str(data["card"]))))
        third.append(playing)
        label += f", {playing}"
        changed = changed or marks("card")
    if third:
        body.append(text(MARGIN + 42, y + 96, shorten(" · ".join(third), 90), SMALL + 2, font_weight="bold"))
    if changed:
        body.insert(0, rect(MARGIN - 4, y - 4, 13 * HEX_W + 8, 110, rx=6, fill="#fff4e6", class_="changed"))
    return group(told(_("{line}, to play", line=label)) if active else label, body)


def _role(team: dict[str, Any]) -> Message:
    """A seat's role at a team table (M44-OV-2): "Bea commander+left", "Carl centre+right"."""
    parts: list[Arg] = [_.pgettext("role", "commander")] if team.get("commander") else []
    parts += [SECTIONS.get(s, s) for s in team.get("sections", ())]
    held: Arg = parts[0] if parts else ""
    for part in parts[1:]:
        held = _("{first}+{then}", first=held, then=part)
    return _("{player} {role}", player=str(team.get("player", "")), role=held)


def _planes(air: dict[str, Any], marks: Changed, told: Teller) -> str:
    """The planes on the board (M44-AIR-3), drawn above the ground units they may share a hex with, and
    the ammunition markers still to be rolled for (M44-AIR-6)."""
    parts: list[str] = []
    for index, plane in enumerate(air.get("planes", ())):
        where = plane.get("hex")
        if where is None:
            continue
        row, col = int(where[0]), int(where[1])
        x, y = _centre(row, col)
        y -= RADIUS * 0.55  # the top of the hex, so the ground unit's token stays readable
        side = str(plane.get("side", ""))
        fill = SIDE_FILL.get(side, "#868e96")
        moved = marks("air", "planes", index, "hex")
        mark = ' class="changed"' if moved else ""
        glyph = _plane_glyph(x, y, fill, mark)
        said = _(
            "{hex}: {side} plane, {plane}",
            hex=hex_name((row, col)),
            side=side_name(side),
            plane=str(plane.get("name", "")),
        )
        parts.append(group(told(_("{line}, moved", line=said) if moved else said), [glyph]))
    for where in air.get("markers", ()):
        x, y = _centre(int(where[0]), int(where[1]))
        parts.append(
            group(
                told(_("{hex}: ammunition marker", hex=hex_name((where[0], where[1])))),
                [_ammunition(x + HALF_W * 0.55, y + RADIUS * 0.45)],
            )
        )
    return group(told(_("Planes")), parts)


def _plane_glyph(x: float, y: float, fill: str, mark: str = "") -> str:
    """A plane seen from above, its nose at (x, y - 14)."""
    return (
        f'<path d="M{x:g} {y - 14:g}l4 10h14v6l-14 2l-2 8h5v5h-14v-5h5l-2-8l-14-2v-6h14z" fill="{fill}" '
        f'stroke="#ffffff" stroke-width="2"{mark}/>'
    )


def _ammunition(x: float, y: float) -> str:
    return circle(x, y, 8, fill="#e03131", stroke="#ffffff", stroke_width=2)


def _flag(x: float, y: float, side: str) -> str:
    """A control marker: a pennant of the side's colour on a pole standing at (x, y)."""
    return (
        f'<path d="M{x:g} {y:g}v-28" stroke="#212529" stroke-width="3"/>'
        f'<path d="M{x:g} {y - 28:g}l24 8l-24 8z" fill="{SIDE_FILL.get(side, "#868e96")}" stroke="#212529" '
        f'stroke-width="1.5"/>'
    )


def _control(data: dict[str, Any], told: Teller) -> tuple[str, set[str]]:
    """The control markers of village, beach and bridge objectives (M44-DD-1 to M44-DD-3): a flag of the
    controlling side's colour on each of the objective's hexes; and the sides drawn."""
    parts: list[str] = []
    sides: set[str] = set()
    held = data.get("held_by") or ()
    for index, objective in enumerate(data.get("objectives", ())):
        side = held[index] if index < len(held) else None
        kind = str(objective.get("kind", ""))
        if kind not in CONTROLLED or side is None:
            continue
        sides.add(str(side))
        for h in objective.get("hexes", ()):
            x, y = _centre(int(h[0]), int(h[1]))
            parts.append(
                group(
                    told(
                        _(
                            "{hex}: {objective} controlled by {side}",
                            hex=hex_name((h[0], h[1])),
                            objective=OBJECTIVE_KINDS.get(kind, kind),
                            side=side_name(str(side)),
                        )
                    ),
                    [_flag(x - 18, y + 4, side)],
                )
            )
    return group(told(_("Control markers")), parts), sides


def _conditions(data: dict[str, Any]) -> list[tuple[str, str, str, str | Message]]:
    """The conditions of play the banner shows, as (what, fill, ink, words): the night's light level
    (M44-NT-1), the weather (M44-WX-1, M44-WX-2) and the desert (M44-NA-1)."""
    expansions = data.get("expansions") or {}
    lines: list[tuple[str, str, str, str | Message]] = []
    light = data.get("visibility")
    if expansions.get("night") and light is not None:
        if int(light) >= FULL_DAY:
            day = _("Night attacks: full daylight (light {light} of {full})", light=FULL_DAY, full=FULL_DAY)
            lines.append(("night", "#fff3bf", "#1b1b1b", day))
        else:
            night = _.ngettext(
                "Night: light {count} of {full}, battles at most {count} hex away",
                "Night: light {count} of {full}, battles at most {count} hexes away",
                int(light),
                full=FULL_DAY,
            )
            lines.append(("night", NIGHT_FILL, "#ffffff", night))
    weather = str(expansions.get("weather") or "")
    if weather:
        ink = "#ffffff" if weather == "darkness" else "#1b1b1b"
        said: str | Message = WEATHER_WORDS.get(weather, weather)
        lines.append(("weather", WEATHER_FILL.get(weather, "#ced4da"), ink, said))
    if expansions.get("north_africa"):
        lines.append(("desert", DESERT_FILL, "#1b1b1b", _("Desert rules: armour may overrun one more hex")))
    return lines


def _banner(
    lines: list[tuple[str, str, str, str | Message]], y: float, width: float, marks: Changed, told: Teller
) -> str:
    parts = []
    for i, (what, fill, ink, said) in enumerate(lines):
        words = told(said)
        top = y + BAND * i
        changed = what == "night" and marks("visibility")
        parts.append(
            group(
                words,
                [
                    rect(
                        MARGIN,
                        top + 3,
                        width - 2 * MARGIN,
                        BAND - 6,
                        rx=8,
                        fill=fill,
                        stroke="#495057",
                        class_=changed_class(changed),
                    ),
                    text(MARGIN + 16, top + 32, words, SMALL, fill=ink, font_weight="bold"),
                ],
            )
        )
    return group(told(_("Conditions of play")), parts)


def _counted(kinds: Sequence[str]) -> Arg:
    """Units by kind, counted (`3 infantry, 1 armour`): a roll of six fits a phone's line so."""
    order = [*UNIT_KINDS, *(k for k in dict.fromkeys(kinds) if k not in UNIT_KINDS)]
    return listed([_figures(kinds.count(kind), kind) for kind in order if kind in kinds])


def _figures(count: int, kind: str) -> Message:
    return _("{count} {kind}", count=count, kind=kind_name(kind))


def _reserve(data: dict[str, Any], y: float, told: Teller) -> tuple[str, float]:
    """Each side's figures in reserve under the D-Day rules (M44-DD-8), and the units the active side's
    roll brought that are still to place (M44-DD-7); and the height written."""
    dday = data.get("dday") or {}
    lines: list[str] = []
    for entry in dday.get("reserve", ()):
        side = str(entry.get("side", ""))
        figures = entry.get("figures") or {}
        held = [_figures(int(figures[kind]), kind) for kind in UNIT_KINDS if kind in figures]
        words = listed(held) if held else _.pgettext("reserve", "none")
        said = [told(_("{side} reserve: {figures}", side=side_name(side), figures=words))]
        if side == data.get("active") and dday.get("reinforcements"):
            brought = _counted(dday["reinforcements"])
            said.append(told(_("{side} to place now: {units}", side=side_name(side), units=brought)))
        for line in said:
            lines.append(
                group(
                    line,
                    [
                        rect(MARGIN, y + 40 * len(lines), 28, 28, rx=4, fill=SIDE_FILL.get(side, "#868e96")),
                        text(MARGIN + 38, y + 40 * len(lines) + 23, shorten(line, 56), SMALL),
                    ],
                )
            )
    return group(told(_("D-Day reserve")), lines) if lines else "", 40.0 * len(lines)


def picture(view: Any, changed: Sequence[tuple[str, ...]] = (), words: Teller = english) -> str:
    """The battlefield as an SVG document, outlining what the `changed` paths name, its words told in
    `words` (the reader's language)."""
    told = words
    data = to_data(view)
    marks = Changed(changed)
    board = data.get("board", {})
    rows, cols = int(board.get("rows", 9)), int(board.get("cols", 13))
    width = MARGIN * 2 + HEX_W * cols
    board_bottom = TITLE + HEAD + RADIUS * 2 + ROW_H * (rows - 1)

    tiles, terrain_seen = _board(board, rows, cols, told)
    objectives_layer, objectives, obstacles_seen = _objectives_and_obstacles(data, told)
    body = [tiles, objectives_layer, _units(data, marks, told)]
    body.append(edge_coordinates(rows, cols, _centre, RADIUS))  # issue 29: the letters and numbers of the hexes
    air = data.get("air") or {}
    if air:
        body.append(_planes(air, marks, told))
    control, controlling = _control(data, told)
    if controlling:
        body.append(control)
    pending = data.get("pending") or {}
    body.append(_last_action(data, pending, told))
    if pending.get("hex"):
        body.append(_pending(pending, told))
    body.append(_side_lines(data, 0, TITLE + 6, marks, told))
    body.append(_side_lines(data, 1, board_bottom + 8, marks, told))

    conditions = _conditions(data)
    entries: list[tuple[Callable[[float, float], str], str]] = []
    entries += [
        (_swatch(TERRAIN_FILL.get(t, "#dee2e6")), told(_terrain(t))) for t in sorted(terrain_seen) if t != "countryside"
    ]
    entries += [(_swatch("#9c6b3c"), told(OBSTACLE_NAMES.get(o, o))) for o in sorted(obstacles_seen)]
    if objectives:
        entries.append((_swatch("#f2b705"), told(_.pgettext("legend", "medal objective"))))
    for side in sorted(controlling):
        entries.append((_marker(_flag, 4, 30, side), told(_("{side} control", side=side_name(side)))))
    for side in sorted({str(p.get("side", "")) for p in air.get("planes", ()) if p.get("hex") is not None}):
        fill = SIDE_FILL.get(side, "#868e96")
        entries.append((_marker(_plane_glyph, 14, 12, fill), told(_("{side} plane", side=side_name(side)))))
    if air.get("markers"):
        entries.append((_marker(_ammunition, 14, 14), told(_.pgettext("legend", "ammunition"))))
    weather = str((data.get("expansions") or {}).get("weather") or "")
    for what, fill, _ink, _line in conditions:
        legend_names: dict[str, str | Message] = {
            "night": _.pgettext("legend", "night light"),
            "desert": _.pgettext("legend", "desert rules"),
            **WEATHER_NAMES,
        }
        named = legend_names.get(what if what != "weather" else weather, weather)
        entries.append((_swatch(fill), told(named)))
    legend, ly = _legend(entries, width, board_bottom + HEAD + 6, told)
    body.append(legend)
    reserve, written = _reserve(data, ly + 62, told)
    body.append(reserve)
    height = ly + 62 + written

    scenario = data.get("scenario", {}).get("name", "")
    players = told(
        _against(
            [
                _("{side} ({player})", side=side_name(str(s.get("side", ""))), player=str(s.get("player", "")))
                for s in data.get("sides", ())
            ]
        )
    )
    status = told(_("Turn {turn}", turn=int(data.get("turn", 0))))
    if data.get("over"):
        winner = data.get("winner")
        status = told(_("Game over: {side} win", side=side_name(str(winner))) if winner else _("Game over"))
    heading = [text(MARGIN, 36, f"{shorten(str(scenario), 24)} · {status}", 30, font_weight="bold")]
    if marks("over") or marks("winner"):
        heading.insert(0, rect(MARGIN - 4, 4, width - 2 * MARGIN + 8, 44, rx=6, fill="#fff4e6", class_="changed"))
    if conditions:  # the banner goes under the title line, the rest of the picture below it
        body = [group(None, body, transform=f"translate(0 {BAND * len(conditions):g})")]
        body.insert(0, _banner(conditions, TITLE, width, marks, told))
        height += BAND * len(conditions)
        status += ". " + ". ".join(told(line) for _what, _fill, _ink, line in conditions)
    body.insert(0, group(status, heading))
    title = told(
        _("Mémoire 44, {scenario}: {players}. {status}.", scenario=str(scenario), players=players, status=status)
    )
    return document(width, height, title, body, description=status)


def _board(board: dict[str, Any], rows: int, cols: int, told: Teller) -> tuple[str, frozenset[str]]:
    """The hexes with their terrain and bridges, and the terrains drawn (for the legend)."""
    hexes = board.get("hexes", ())
    terrains = sorted({str(h["terrain"]) for h in hexes})
    named = tuple((terrain, told(_terrain(terrain))) for terrain in terrains)
    # A board is the same from one tap to the next (bench.recording: a third of the picture's work), so it
    # is drawn once for its hexes and the words it is told in.
    board_words = (told(_("Board")), told(_.pgettext("legend", "bridge")))
    return _drawn_board(msgspec.json.encode(hexes), rows, cols, board_words, named)


@functools.lru_cache(maxsize=64)
def _drawn_board(
    hexes: bytes, rows: int, cols: int, board_words: tuple[str, str], named: tuple[tuple[str, str], ...]
) -> tuple[str, frozenset[str]]:
    special = {(h["row"], h["col"]): h for h in msgspec.json.decode(hexes)}
    terrain_words = dict(named)
    board_label, bridge = board_words
    terrain_seen: set[str] = set()
    tiles: list[str] = []
    for row, col in _hexes(rows, cols):
        x, y = _centre(row, col)
        cell = special.get((row, col))
        terrain = str(cell["terrain"]) if cell else "countryside"
        terrain_seen.add(terrain)
        label = f' aria-label="{hex_name((row, col))} {esc(terrain_words[terrain])}"' if cell else ""
        tiles.append(
            f'<path class="hex" d="M{x:g} {y - RADIUS:.2f}{_HEX}" '
            f'fill="{TERRAIN_FILL.get(terrain, "#dee2e6")}" stroke="#6b705c" stroke-width="1.5"{label}'
            f"{pick_attributes(hex_name((row, col)), any=[row, col])}/>"
        )
        if cell and cell.get("bridge"):
            tiles.append(rect(x - 8, y - RADIUS * 0.8, 16, RADIUS * 1.6, fill="#7a5230", aria_label=bridge))
    return group(board_label, tiles), frozenset(terrain_seen)


def _objectives_and_obstacles(
    data: dict[str, Any], told: Teller
) -> tuple[str, dict[tuple[int, int], list[str]], set[str]]:
    """The medal objectives (with who scores or holds each) and the obstacles; the objective hexes and the
    obstacle kinds drawn (for the legend)."""
    marks_layer: list[str] = []
    objectives: dict[tuple[int, int], list[str]] = {}
    side_names = [str(s.get("side", "")) for s in data.get("sides", ())]
    held = data.get("held_by") or ()
    for index, objective in enumerate(data.get("objectives", ())):
        camp = int(objective.get("camp", 0))
        kind = str(objective.get("kind", ""))
        who = side_names[camp] if camp < len(side_names) else str(camp)
        named = OBJECTIVE_KINDS.get(kind, kind)
        scored = told(_("{objective} for {side}", objective=named, side=side_name(who)))
        if kind in CONTROLLED:  # its medals follow control, not the side the scenario names
            holder = held[index] if index < len(held) else None
            by = side_name(holder) if holder else _("neither side")
            scored = told(_("{objective} held by {side}", objective=named, side=by))
        for h in objective.get("hexes", ()):
            objectives.setdefault((h[0], h[1]), []).append(scored)
    for (row, col), kinds in objectives.items():
        x, y = _centre(row, col)
        marks_layer.append(
            group(
                told(_("{hex}: medal objective, {objectives}", hex=hex_name((row, col)), objectives=", ".join(kinds))),
                [
                    circle(x, y, RADIUS * 0.82, fill="none", stroke="#f2b705", stroke_width=4, stroke_dasharray="7 5"),
                    circle(x + HALF_W * 0.55, y - RADIUS * 0.55, 9, fill="#f2b705", stroke="#7a5c00", stroke_width=2),
                ],
            )
        )
    obstacles_seen: set[str] = set()
    for obstacle in data.get("obstacles", ()):
        x, y = _centre(int(obstacle["row"]), int(obstacle["col"]))
        kind = str(obstacle.get("obstacle", ""))
        obstacles_seen.add(kind)
        name = OBSTACLE_NAMES.get(kind, kind)
        said = told(_("{hex}: {obstacle}", hex=hex_name((obstacle["row"], obstacle["col"])), obstacle=name))
        marks_layer.append(group(said, [_obstacle(x, y, kind)]))
    return group(told(_("Objectives and obstacles")), marks_layer), objectives, obstacles_seen


def _units(data: dict[str, Any], marks: Changed, told: Teller) -> str:
    """Each unit on the board: its token, figures and badge, said in words with what changed."""
    units: list[str] = []
    for index, unit in enumerate(data.get("units", ())):
        where = unit.get("hex")
        if where is None:
            continue
        row, col = int(where[0]), int(where[1])
        x, y = _centre(row, col)
        side = str(unit.get("side", ""))
        kind = str(unit.get("kind", ""))
        figures = unit.get("figures", 0)
        hit = marks("units", index, "figures")
        moved = marks("units", index, "hex")
        parts = [_token(x, y, kind, side, hit or moved)]
        parts.append(text(x, y + 10, figures, 30, anchor="middle", font_weight="bold", fill=SIDE_INK.get(side, "#fff")))
        if unit.get("badge"):
            parts.append(circle(x - 19, y - 19, 7, fill="#f2b705", stroke="#212529"))
        said: list[Arg] = [
            _.ngettext(
                "{hex}: {side} {kind}, {count} figure",
                "{hex}: {side} {kind}, {count} figures",
                int(figures),
                hex=hex_name((row, col)),
                side=side_name(side),
                kind=kind_name(kind),
            )
        ]
        if unit.get("badge"):
            said.append(_("special forces"))
        if moved:
            said.append(_.pgettext("unit", "moved"))
        if hit:
            said.append(_.pgettext("unit", "hit"))
        here = pick(hex_name((row, col)), unit=unit.get("uid", index), any=[row, col])
        units.append(group(_words(told, listed(said)), parts, **here))
    return group(told(_("Units")), units)


def _pending(pending: dict[str, Any], told: Teller) -> str:
    """The hex a pending retreat or a ground to take is about, ringed."""
    x, y = _centre(int(pending["hex"][0]), int(pending["hex"][1]))
    name = hex_name((pending["hex"][0], pending["hex"][1]))
    if pending.get("kind") == "retreat":
        flags = int(pending.get("flags", 0))
        label = told(
            _.ngettext(
                "Battle target at {hex}: must retreat {count} hex",
                "Battle target at {hex}: must retreat {count} hexes",
                flags,
                hex=name,
            )
        )
        ring = circle(x, y, RADIUS * 0.9, fill="none", stroke="#e03131", stroke_width=5)
    else:
        label = told(_("Ground to take at {hex}", hex=name))
        ring = circle(x, y, RADIUS * 0.9, fill="none", stroke="#e03131", stroke_width=4, stroke_dasharray="8 6")
    return group(
        label,
        [
            ring,
            f'<path d="M{x - RADIUS:g} {y:g}h12m{2 * RADIUS - 24:g} 0h12'
            f'M{x:g} {y - RADIUS:g}v12m0 {2 * RADIUS - 24:g}v12" stroke="#e03131" '
            f'stroke-width="4"/>',
        ],
    )


def _legend(
    entries: Sequence[tuple[Callable[[float, float], str], str]], width: float, top: float, told: Teller
) -> tuple[str, float]:
    """The legend: its entries in three columns, then the unit shapes; and where the shapes' row starts."""
    legend: list[str] = []
    column_w = width / 3
    for i, (draw, label) in enumerate(entries):
        lx = MARGIN + column_w * (i % 3)
        ly = top + 40 * (i // 3)
        legend.append(draw(lx, ly))
        legend.append(text(lx + 36, ly + 23, label, SMALL))
    ly = top + 40 * ((len(entries) + 2) // 3)
    for i, kind in enumerate(("infantry", "armour", "artillery")):
        lx = MARGIN + column_w * i
        legend.append(_token(lx + 24, ly + 26, kind, ""))
        legend.append(text(lx + 56, ly + 34, _words(told, kind_name(kind)), SMALL))
    return group(told(_("Legend")), legend), ly


def _swatch(fill: str) -> Callable[[float, float], str]:
    """A legend entry's coloured square, drawn at (x, y)."""
    return lambda x, y: rect(x, y, 28, 28, rx=4, fill=fill, stroke="#495057")


def _marker(draw: Callable[..., str], dx: float, dy: float, *args: str) -> Callable[[float, float], str]:
    """A legend entry's marker, drawn as on the board at (x + dx, y + dy)."""
    return lambda x, y: draw(x + dx, y + dy, *args)


def _last_action(data: dict[str, Any], pending: dict[str, Any], told: Teller) -> str:
    """The turn's latest move (a line from its start hex along its path, a dot where it began) and the
    target of its latest battle (crossed), unless a pending battle already rings that hex."""
    parts: list[str] = []
    words: list[str] = []
    path = [(int(h[0]), int(h[1])) for h in data.get("last_move") or ()]
    if len(path) > 1:
        centres = [_centre(row, col) for row, col in path]
        line = " ".join(f"{x:g},{y:g}" for x, y in centres)
        parts.append(
            f'<polyline points="{line}" fill="none" stroke="#1864ab" stroke-width="6" '
            f'stroke-linecap="round" stroke-linejoin="round" stroke-dasharray="2 10"/>'
        )
        parts.append(circle(*centres[0], 7, fill="#1864ab"))
        route: Arg = hex_name(path[0])
        for h in path[1:]:
            route = _("{first} to {then}", first=route, then=hex_name(h))
        words.append(told(_("Last move: {path}", path=route)))
    target = data.get("last_battle")
    if target is not None:
        hex_ = (int(target[0]), int(target[1]))
        words.append(told(_("Last battle at {hex}", hex=hex_name(hex_))))
        if list(pending.get("hex") or ()) != list(hex_):
            x, y = _centre(*hex_)
            reach = RADIUS * 0.55
            parts.append(
                f'<path d="M{x - reach:g} {y - reach:g}L{x + reach:g} {y + reach:g}'
                f'M{x + reach:g} {y - reach:g}L{x - reach:g} {y + reach:g}" stroke="#e03131" '
                f'stroke-width="5" stroke-linecap="round" opacity="0.8"/>'
            )
    return group("; ".join(words) if words else None, parts)
