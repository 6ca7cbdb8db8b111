"""HTML the templates cannot say simply: a game's view as a readable list (for a game without a picture),
scores in the units people read, and the campaign's plot of cumulative totals (SVG)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from markupsafe import Markup, escape

from domain.ruleset import SeriesStatus, ValueWords

Path = tuple[str, ...]

_UNITS = {"half_point": ("point", 2), "vp": ("VP", 1), "medal": ("medal", 1), "pip": ("pip", 1)}
"""Score unit -> (the word people read, how many stored units make one): Milles Nautiques keeps
half-points as integers; people read points (54, 26.5)."""

# Distinct on white and for common colour blindness (Okabe-Ito).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")


def points(value: int | None, unit: str) -> str:
    """A score as people read it: `points(109, "half_point")` -> "54.5"."""
    if value is None:
        return "—"
    _, per = _UNITS.get(unit, (unit, 1))
    whole, rest = divmod(value, per)
    return str(whole) if not rest else f"{value / per:g}"


def unit_word(unit: str, plural: bool = True) -> str:
    word, _ = _UNITS.get(unit, (unit.replace("_", " "), 1))
    return f"{word}s" if plural and word not in ("VP",) else word


def _label(key: Any) -> str:
    return str(key).replace("_", " ")


def _scalar(value: Any) -> str:
    if value is None:
        return "—"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list, tuple))


def state_html(view: Any, changed: Sequence[Path]) -> Markup:
    """A view as nested lists a person can read, every changed path marked (class `changed`)."""
    data = msgspec.to_builtins(view, str_keys=True)
    marks = {tuple(path) for path in changed}
    return Markup('<div class="state">') + _node(data, (), marks) + Markup("</div>")


def _node(value: Any, path: Path, marks: set[Path]) -> Markup:
    if isinstance(value, dict):
        if not value:
            return Markup('<span class="none">none</span>')
        items = [(str(k), v) for k, v in value.items()]
        return _items(items, path, marks, "dl")
    if isinstance(value, (list, tuple)):
        if all(_is_scalar(v) for v in value):
            if not value:
                return Markup('<span class="none">none</span>')
            parts = [
                Markup('<mark class="changed">{}</mark>').format(_scalar(v))
                if (*path, str(i)) in marks
                else escape(_scalar(v))
                for i, v in enumerate(value)
            ]
            return Markup(", ").join(parts)
        return _items([(str(i), v) for i, v in enumerate(value)], path, marks, "ol")
    return escape(_scalar(value))


def _items(items: list[tuple[str, Any]], path: Path, marks: set[Path], kind: str) -> Markup:
    out = [Markup(f"<{kind}>")]
    for key, value in items:
        here = (*path, key)
        changed = Markup(' class="changed"') if here in marks else Markup("")
        inner = _node(value, here, marks)
        if kind == "dl":
            out.append(Markup("<div{}><dt>{}</dt><dd>{}</dd></div>").format(changed, _label(key), inner))
        else:
            out.append(Markup("<li{}>{}</li>").format(changed, inner))
    out.append(Markup(f"</{kind}>"))
    return Markup("").join(out)


Change = tuple[Sequence[Any], str, Any, Any]
"""One change of a step, as `projections.diff` gives it: (path, op, old, new)."""


def change_lines(view: Any, changes: Sequence[Change], value_words: ValueWords | None = None) -> list[str]:
    """What a step changed, as lines a club reads, each said once (the row and column of a hex that
    moved are one line, the cards added to a hand too). `view` is the view after the step: it names the
    items the paths point into; `value_words` are the game's words for its values, where it has some."""
    data = msgspec.to_builtins(view, str_keys=True)
    lines: dict[str, list[str]] = {}  # a line, or a list's words before what was added to it
    for path, op, old, new in changes:
        line = change_text([str(p) for p in path], op, old, new, data, value_words)
        where, _, added = line.rpartition(": ")
        if op == "added" and added.endswith(" added") and where:  # the cards dealt to a hand: one line
            lines.setdefault(f"{where}: ", []).append(added.removesuffix(" added"))
        else:
            lines.setdefault(line, [])
    return [f"{line}{', '.join(items)} added" if items else line for line, items in lines.items()]


def change_text(
    path: Sequence[str], op: str, old: Any, new: Any, view: Any = None, value_words: ValueWords | None = None
) -> str:
    """One line of "what changed", in words rather than the view's keys: `unit 4 (Axis infantry)
    figures: 4 → 3`. An item of a list is named by its number (from 1) and, where the view has them, its
    name, player or side and kind; a change inside a list of plain values (a hex, a discard pile) is said
    of the list as a whole."""

    def said(at: Sequence[str], value: Any) -> str:
        return (value_words(at, value) if value_words else None) or _words(value)

    words: list[str] = []
    here: Any = view
    last = len(path) - 1
    for depth, key in enumerate(path):
        if isinstance(here, list | tuple) and key.isdigit():
            changed = (new if op == "added" else old) if depth == last else None
            if all(_plain(v) for v in (*here, changed)):  # a list of plain values is one thing to a reader
                where = " ".join(words) or "the table"
                if depth == last and op == "added":
                    return f"{where}: {said(path, new)} added"
                if depth == last and op == "removed":
                    return f"{where}: {said(path, old)} removed"
                return f"{where}: now {said(path[:depth], here)}"
            index = int(key)
            item = here[index] if index < len(here) else old if depth == last else None
            words.append(_item(words.pop() if words else "item", index, item))
            here = item
            continue
        item = here.get(key) if isinstance(here, dict) else None
        if item is None and depth == last:
            item = new if new is not None else old
        words.append(_label(key) + (f" ({item['name']})" if isinstance(item, dict) and item.get("name") else ""))
        here = item
    where = " ".join(words) or "the table"
    if op == "added":
        return f"{where}: added" if not _plain(new) else f"{where}: {said(path, new)} (new)"
    if op == "removed":
        return f"{where}: removed"
    if _plain(old) and _plain(new):
        return f"{where}: {said(path, old)} → {said(path, new)}"
    return f"{where}: changed"


def _item(collection: str, index: int, item: Any) -> str:
    """An item of a list: `unit 4 (Axis infantry)`, `player 1 (Alain)`, `convoy 3`."""
    one = collection[:-1] if collection.endswith("s") and not collection.endswith("ss") else collection
    if not isinstance(item, dict):
        return f"{one} {index + 1}"
    number = item.get("number", index + 1)
    name = item.get("name") or item.get("player")
    if not name:
        side = item.get("side")
        name = " ".join(
            str(part) for part in (side.title() if isinstance(side, str) else None, item.get("kind")) if part
        )
    return f"{one} {number}" + (f" ({name})" if name else "")


def _plain(value: Any) -> bool:
    """A scalar, or a list of plain values (a hex, a path of hexes, a pile of card names)."""
    return _is_scalar(value) or (isinstance(value, list | tuple) and all(_plain(v) for v in value))


def _words(value: Any) -> str:
    """A plain value as words: names without their underscores, a side's capitals as a name (`AXIS` is
    Axis; a hex such as `H4` stays as it is), a list's items joined."""
    if isinstance(value, list | tuple):
        if not value:
            return "none"
        return ", ".join(f"({_words(v)})" if isinstance(v, list | tuple) else _words(v) for v in value)
    shown = _scalar(value)
    if not isinstance(value, str):
        return shown
    words = shown.replace("_", " ")
    return words.title() if len(value) > 1 and value.replace("_", "").isalpha() and value.isupper() else words


def campaign_plot(
    steps: Sequence[tuple[str, SeriesStatus]], names: Mapping[str, str], unit: str, target: int | None
) -> Markup:
    """Cumulative totals after every counted game, one line per player (or team), the target as a
    dashed line and the game that decided the campaign marked. `steps` are (game label, status after it)."""
    width, height, left, right, top, bottom = 640, 300, 48, 16, 16, 40
    labels = list(names)
    series = {label: [0] + [status.totals.get(label, 0) for _, status in steps] for label in labels}
    highest = max([target or 0, 1, *(v for values in series.values() for v in values)])
    count = max(len(steps), 1)

    def x(index: int) -> float:
        return left + (width - left - right) * index / count

    def y(value: int) -> float:
        return top + (height - top - bottom) * (1 - value / highest)

    parts = [
        Markup(
            '<svg class="plot" viewBox="0 0 {w} {h}" role="img" aria-label="Cumulative totals after every game" '
            'xmlns="http://www.w3.org/2000/svg">'
        ).format(w=width, h=height)
    ]
    parts.append(
        Markup('<line x1="{l}" y1="{b}" x2="{r}" y2="{b}" class="axis"/>').format(
            l=left, r=width - right, b=height - bottom
        )
    )
    parts.append(
        Markup('<line x1="{l}" y1="{t}" x2="{l}" y2="{b}" class="axis"/>').format(l=left, t=top, b=height - bottom)
    )
    for tick in _ticks(highest):
        parts.append(
            Markup('<text x="{x}" y="{y}" class="tick" text-anchor="end">{v}</text>').format(
                x=left - 6, y=y(tick) + 4, v=points(tick, unit)
            )
        )
    for index in range(len(steps) + 1):
        parts.append(
            Markup('<text x="{x}" y="{y}" class="tick" text-anchor="middle">{v}</text>').format(
                x=x(index), y=height - bottom + 16, v=index
            )
        )
    parts.append(
        Markup('<text x="{x}" y="{y}" class="tick" text-anchor="middle">game</text>').format(
            x=(left + width - right) / 2, y=height - 4
        )
    )
    if target:
        parts.append(
            Markup(
                '<line x1="{l}" y1="{y}" x2="{r}" y2="{y}" class="target"/>'
                '<text x="{r}" y="{ty}" class="target-label" text-anchor="end">target {v}</text>'
            ).format(l=left, r=width - right, y=y(target), ty=y(target) - 5, v=points(target, unit))
        )
    decisive = next((i for i, (_, status) in enumerate(steps, start=1) if status.finished), None)
    if decisive is not None:
        parts.append(
            Markup(
                '<line x1="{x}" y1="{t}" x2="{x}" y2="{b}" class="decisive"/>'
                '<text x="{tx}" y="{ty}" class="decisive-label">decided</text>'
            ).format(x=x(decisive), t=top, b=height - bottom, tx=x(decisive) + 4, ty=top + 12)
        )
    for number, label in enumerate(labels):
        colour = COLOURS[number % len(COLOURS)]
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(series[label]))
        parts.append(
            Markup('<polyline points="{p}" fill="none" stroke="{c}" stroke-width="2.5"/>').format(p=coords, c=colour)
        )
        for i, v in enumerate(series[label]):
            parts.append(
                Markup(
                    '<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{c}"><title>{n}: {v} after game {i}'
                    "</title></circle>"
                ).format(x=x(i), y=y(v), c=colour, n=names[label], v=points(v, unit), i=i)
            )
    parts.append(Markup("</svg>"))
    return Markup("").join(parts)


def _ticks(highest: int) -> list[int]:
    step = max(1, highest // 4)
    return list(range(0, highest + 1, step))
