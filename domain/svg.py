"""A few pure helpers the games' pictures share: escaped text, shapes, the document around them, and
which drawn elements a replay step changed.

Every picture is drawn from a view (what the API returns to the same viewer), so it can hold nothing
that viewer may not see. Text from users (player names) is escaped wherever it goes. Drawings use a
viewBox and no fixed size, so a page scales them to a phone's width; sizes are chosen for a viewBox about
400 units wide, where a 14-unit font reads as 12-13 px on a 360 px screen.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

import msgspec

# The one colour that says "changed in this step" in every game's picture (an orange that stays
# visible on the greens, blues and greys the games use), and its stroke width.
CHANGED_STROKE = "#f76707"
CHANGED_WIDTH = 4

# Only the highlight is a style rule (it must win over an element's own stroke); everything else is
# an attribute, so an element's own fill is never overridden.
_STYLE = ".changed{stroke:" + CHANGED_STROKE + ";stroke-width:" + str(CHANGED_WIDTH) + "}"
_FONT = "system-ui, -apple-system, Segoe UI, Roboto, DejaVu Sans, sans-serif"


def esc(value: object) -> str:
    """Text (or an attribute value) safe to put in SVG: &, <, > and both quotes escaped."""
    return escape(str(value), quote=True)


def shorten(words: str, limit: int) -> str:
    """Text cut to `limit` characters with an ellipsis, where a long name would run into its neighbours
    (the whole name stays in the element's aria-label)."""
    return words if len(words) <= limit else words[: limit - 1] + "…"


def to_data(view: Any) -> Any:
    """A view as plain JSON data (a struct or builtins alike), as the API sends it."""
    return msgspec.to_builtins(view, str_keys=True)


@functools.cache
def _attribute(key: str) -> str:
    # Keyword arguments name attributes with `_` for `-` (stroke_width) and a trailing `_` for
    # Python words (class_).
    return key.rstrip("_").replace("_", "-")


@functools.lru_cache(maxsize=4096)
def _escaped(value: str) -> str:
    # Attribute values are mostly the same few colours, anchors and classes in every picture.
    return escape(value, quote=True)


def _attrs(attrs: dict[str, object]) -> str:
    """Attributes from keyword arguments; None leaves one out. Numbers need no escaping (the common
    case, kept cheap); everything else is escaped."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        if type(value) is str:
            shown = _escaped(value)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            shown = f"{value:g}"
        else:
            shown = esc(value)
        out.append(f' {_attribute(key)}="{shown}"')
    return "".join(out)


def text(x: float, y: float, content: object, size: float = 14, **attrs: object) -> str:
    """A line of escaped text at (x, y) (the baseline); `anchor` is text-anchor (start, middle, end)."""
    anchor = attrs.pop("anchor", None)
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}"'
        + (f' text-anchor="{anchor}"' if anchor else "")
        + _attrs(attrs)
        + f">{esc(content)}</text>"
    )


def rect(x: float, y: float, width: float, height: float, **attrs: object) -> str:
    """A rectangle; pass `rx` for rounded corners, `fill`, `stroke`, `class_`..."""
    return f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}"{_attrs(attrs)}/>'


def circle(cx: float, cy: float, r: float, **attrs: object) -> str:
    return f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}"{_attrs(attrs)}/>'


def pick(name: str, **matches: object) -> dict[str, object]:
    """Attributes saying what tapping an element picks, for the recording page, which narrows the events
    it offers to those the pick matches: a field by name (`unit=3`), or a value anywhere (`any=[2, 10]`)."""
    return {"data_pick": json.dumps(matches, separators=(",", ":")), "data_pick_name": name}


def pick_attributes(name: str, **matches: object) -> str:
    """`pick` written out, for an element drawn as a string."""
    return _attrs(pick(name, **matches))


def group(label: str | None, body: Iterable[str], **attrs: object) -> str:
    """A group of elements; `label` becomes its aria-label (what a screen reader says for it)."""
    if label is not None:
        attrs = {"role": "group", "aria_label": label, **attrs}
    return f"<g{_attrs(attrs)}>{''.join(body)}</g>"


def document(width: float, height: float, title: str, body: Iterable[str], description: str = "") -> str:
    """A whole SVG document: a viewBox of width x height, a <title> (and <desc>), the body."""
    desc = f"<desc>{esc(description)}</desc>" if description else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" role="img" '
        f'font-family="{_FONT}" fill="#1b1b1b" aria-label="{esc(title)}">'
        f"<title>{esc(title)}</title>{desc}<style>{_STYLE}</style>"
        f'<rect width="100%" height="100%" fill="#ffffff"/>{"".join(body)}</svg>'
    )


class Changed:
    """Which drawn elements a replay step changed, from the changed paths (as `projections.diff` gives
    them: object keys and array indexes from the root of the view, as strings).

    `changed("convoys", "2")` is true when the step changed convoy 2 itself or anything inside it, or
    replaced something that holds it. The root path (the whole view added, at a replay's first step)
    highlights nothing: everything would be orange."""

    __slots__ = ("_exact", "_within")

    def __init__(self, paths: Sequence[Sequence[object]]) -> None:
        self._exact: set[tuple[str, ...]] = set()
        self._within: set[tuple[str, ...]] = set()
        for path in paths:
            key = tuple(str(part) for part in path)
            if not key:
                continue
            self._exact.add(key)
            for depth in range(1, len(key) + 1):
                self._within.add(key[:depth])

    def __call__(self, *element: object) -> bool:
        key = tuple(str(part) for part in element)
        if key in self._within:
            return True
        return any(key[:depth] in self._exact for depth in range(1, len(key)))

    def __bool__(self) -> bool:
        return bool(self._exact)


def changed_class(changed: bool) -> str | None:
    """The class that draws an element's outline in the "changed" colour, or None."""
    return "changed" if changed else None
