"""The hex coordinates on the board's edges (issue 29): every button and narration line names hexes
("H7"), so the picture writes each column's letter in the first and last rows and each row's number at
the left and right ends, where a scorekeeper looks for them.

A module of its own so the picture calls it in one line: the letters follow `board.hex_name` (column
letter from the left, row number from the top) and never depend on the view.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from domain.memoire44.board import hex_name
from domain.svg import group, text

SIZE = 20  # about 9 px when the picture is 360 px wide; readable in the page's bigger picture
# A white halo keeps a coordinate legible over a unit's token; taps go through to the hex beneath.
STYLE = {"fill": "#343a40", "stroke": "#ffffff", "stroke_width": 4, "paint_order": "stroke", "pointer_events": "none"}


# The same board's coordinates on every picture of it: drawn once.
@functools.lru_cache(maxsize=16)
def edge_coordinates(rows: int, cols: int, centre: Callable[[int, int], tuple[float, float]], radius: float) -> str:
    """Column letters inside the hexes of the top and bottom rows, row numbers at the row's two ends
    (in the half-hex left free by a shorter row, else inside its end hex)."""
    width = 2 * (cols - 1)
    marks: list[str] = []
    for row in {0, rows - 1}:
        for col in range(row % 2, width + 1, 2):
            x, y = centre(row, col)
            dy = -radius * 0.5 if row == 0 else radius * 0.5 + SIZE * 0.7
            marks.append(text(x, y + dy, hex_name((row, col))[0], SIZE, anchor="middle", **STYLE))
    for row in range(rows):
        number = hex_name((row, 0))[1:]
        first, last = row % 2, width - row % 2
        for col, side in ((first, -1), (last, 1)):
            x, y = centre(row, col)
            # A shorter row leaves half a hex free beside its end hex: the number goes there.
            at = x + side * (radius * 0.87 + 14) if row % 2 else x + side * radius * 0.55
            marks.append(text(at, y + SIZE * 0.35, number, SIZE, anchor="middle", **STYLE))
    return group(None, marks, class_="coordinates", aria_hidden="true")
