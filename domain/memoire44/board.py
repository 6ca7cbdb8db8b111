"""The hex board (M44-1): doubled-column coordinates, neighbours, distance, sections, line of sight.

A hex is `(row, col)` as the scenario editor numbers it: row 0 is the edge of the scenario's player 1,
columns are doubled (even rows use even columns, odd rows odd ones), so neighbours are (row, col ± 2)
and (row ± 1, col ± 1). The standard board is 9 rows of 13 and 12 hexes (columns 0–24), the
Breakthrough board 17 rows of the same width, the Overlord board 9 rows of 26 and 25 hexes (columns 0–50).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import msgspec

from domain.memoire44.catalogue import SECTIONS, TERRAINS, Terrain

Hex = tuple[int, int]

_STEPS: tuple[Hex, ...] = ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))

# Board types by the `.m44` `board.type`: rows and hexes in a wide row (M44-1 standard, M44-BT-1
# Breakthrough, M44-OV-1 Overlord).
BOARD_SIZES: dict[str, tuple[int, int]] = {"STANDARD": (9, 13), "BRKTHRU": (17, 13), "OVERLORD": (9, 26)}


def distance(a: Hex, b: Hex) -> int:
    """Hexes between two hexes, counting the target (adjacent = 1)."""
    rows = abs(a[0] - b[0])
    cols = abs(a[1] - b[1])
    return rows + max(0, (cols - rows) // 2)


def hex_name(hex_: Hex) -> str:
    """A hex as a club member reads it off the board: column letter from the left, row from the top."""
    return f"{chr(ord('A') + hex_[1] // 2)}{hex_[0] + 1}"


def _cube(hex_: Hex) -> tuple[float, float, float]:
    x = (hex_[1] - hex_[0]) / 2
    z = float(hex_[0])
    return x, -x - z, z


def _round(x: float, y: float, z: float) -> Hex:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return int(rz), int(2 * rx + rz)


def sight_line(a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
    """The hexes a line from centre to centre crosses, strictly between `a` and `b`. Each step is a
    pair: the same hex twice, or the two hexes whose shared edge the line runs along (both must be
    blocked to block the line)."""
    n = distance(a, b)
    ax, ay, az = _cube(a)
    bx, by, bz = _cube(b)
    steps: list[tuple[Hex, Hex]] = []
    eps = 1e-6
    for i in range(1, n):
        t = i / n
        x, y, z = ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t
        steps.append((_round(x + eps, y + eps, z - 2 * eps), _round(x - eps, y - eps, z + 2 * eps)))
    return steps


class Board:
    """The fixed board of a scenario: which hexes exist, their terrain and bridges, and the hill groups
    (contiguous hills form one hill for line of sight, M44-4). Obstacles and units live in the state,
    since they change. Built once per game; equal when built from the same hexes."""

    __slots__ = ("_key", "bridges", "cols", "hexes", "hill_group", "rows", "terrain", "width")

    def __init__(self, board_type: str, terrain: dict[Hex, str], bridges: frozenset[Hex]) -> None:
        self.rows, self.cols = BOARD_SIZES[board_type]
        self.width = 2 * (self.cols - 1)
        self.hexes: frozenset[Hex] = frozenset(
            (row, col) for row in range(self.rows) for col in range(row % 2, self.width + 1, 2)
        )
        self.terrain: dict[Hex, Terrain] = {hex_: TERRAINS[terrain.get(hex_, "")] for hex_ in self.hexes}
        self.bridges = bridges
        self.hill_group: dict[Hex, int] = {}
        for start in sorted(h for h, t in self.terrain.items() if t.hill):
            if start in self.hill_group:
                continue
            todo = [start]
            while todo:
                hex_ = todo.pop()
                if hex_ in self.hill_group:
                    continue
                self.hill_group[hex_] = start[0] * 100 + start[1]
                todo.extend(n for n in self.neighbours(hex_) if self.terrain[n].hill)
        self._key = (board_type, tuple(sorted(terrain.items())), tuple(sorted(bridges)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def neighbours(self, hex_: Hex) -> Iterator[Hex]:
        """The hexes on the board next to `hex_`."""
        row, col = hex_
        for dr, dc in _STEPS:
            other = (row + dr, col + dc)
            if other in self.hexes:
                yield other

    def sections(self, hex_: Hex, camp: int) -> tuple[str, ...]:
        """The sections `hex_` is in, seen from `camp`'s edge (camp 0 sits at row 0, camp 1 at the last
        row). A hex the dotted line cuts is in both sections (M44-1). Every board is cut in thirds of its
        width (M44-BT-1, M44-OV-1)."""
        col = hex_[1] if camp == 1 else self.width - hex_[1]
        third = self.width / 3
        found: list[str] = []
        if col <= third:
            found.append(SECTIONS[0])
        if third <= col <= 2 * third:
            found.append(SECTIONS[1])
        if col >= 2 * third:
            found.append(SECTIONS[2])
        return tuple(found)

    def passable(self, hex_: Hex) -> bool:
        """Whether a unit may ever stand in `hex_` (rivers and ponds only at a bridge, M44-4)."""
        return not self.terrain[hex_].impassable or hex_ in self.bridges

    def blocks_sight(self, hex_: Hex, a: Hex, b: Hex) -> bool:
        """Whether the terrain of `hex_` blocks a line from `a` to `b` (a hill does not block a line
        between two hexes of the same hill, M44-4)."""
        terrain = self.terrain[hex_]
        if not terrain.blocks_sight:
            return False
        if terrain.hill:
            group = self.hill_group[hex_]
            return not (self.hill_group.get(a) == group and self.hill_group.get(b) == group)
        return True

    def to_builtins(self) -> dict[str, Any]:
        """The board as JSON-able data for views."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "hexes": [
                {"row": h[0], "col": h[1], "terrain": t.name, "bridge": h in self.bridges}
                for h, t in sorted(self.terrain.items())
                if t.name != "countryside" or h in self.bridges
            ],
        }


class BoardSpec(msgspec.Struct, frozen=True, array_like=True, cache_hash=True):
    """What a `Board` is built from. The state keeps this (so a state encodes, for replay snapshots)
    and builds the board from it once per process."""

    board_type: str
    terrain: tuple[tuple[Hex, str], ...]
    bridges: tuple[Hex, ...]


@functools.lru_cache(maxsize=64)
def _built(spec: BoardSpec) -> Board:
    return Board(spec.board_type, dict(spec.terrain), frozenset(spec.bridges))


_BY_IDENTITY: dict[int, tuple[BoardSpec, Board]] = {}


def board_from(spec: BoardSpec) -> Board:
    """The board a spec describes (built once, then shared: boards never change during a game).

    Every state of a game holds the same spec object, so it is found by identity first: hashing a spec's
    terrain on each look-up cost more than a Mémoire 44 event's own rules. The entry keeps its spec alive,
    so an id is never mistaken for another spec's."""
    known = _BY_IDENTITY.get(id(spec))
    if known is not None and known[0] is spec:
        return known[1]
    board = _built(spec)
    if len(_BY_IDENTITY) >= 256:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[id(spec)] = (spec, board)
    return board
