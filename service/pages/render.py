"""HTML the templates cannot say simply: a game's view as a readable list (for a game without a picture),
scores in the units people read, and the campaign's plot of cumulative totals (SVG)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec
from markupsafe import Markup, escape

from domain.i18n import Catalogue
from domain.ruleset import SeriesStatus, ValueWords
from service.i18n import ENGLISH, Translator

_ = Catalogue("service.pages")

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


PLOT_WIDTHS = (("narrow", 340), ("wide", 640))
"""Every plot is drawn twice, for a phone's width and a wider screen, and the page shows the one that
fits (pages.css): an SVG scales its words with it, so one drawing for both would write them at half size on
a phone or twice it on a laptop. Each keeps its labels inside its own width."""
HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 300, 52, 16, 16, 40


def _plot(draw: Callable[[int], list[Markup]], label: str) -> Markup:
    """The drawings of one plot at every width in `PLOT_WIDTHS`, each an accessible SVG image."""
    parts = []
    for name, width in PLOT_WIDTHS:
        parts.append(
            Markup(
                '<svg class="plot plot-{n}" viewBox="0 0 {w} {h}" role="img" aria-label="{a}" '
                'xmlns="http://www.w3.org/2000/svg">'
            ).format(n=name, w=width, h=HEIGHT, a=label)
        )
        parts.extend(draw(width))
        parts.append(Markup("</svg>"))
    return Markup("").join(parts)


def _axes(
    width: int,
    words: Translator,
    y_ticks: Sequence[tuple[float, str]],
    x_ticks: Sequence[tuple[float, str]],
    x_label: str,
) -> list[Markup]:
    """The two axes with their ticks (already placed: (y or x, label)), thinned so that labels never touch."""
    bottom = HEIGHT - BOTTOM
    parts = [
        Markup('<line x1="{l}" y1="{b}" x2="{r}" y2="{b}" class="axis"/>').format(l=LEFT, r=width - RIGHT, b=bottom),
        Markup('<line x1="{l}" y1="{t}" x2="{l}" y2="{b}" class="axis"/>').format(l=LEFT, t=TOP, b=bottom),
    ]
    for y, text in y_ticks:
        parts.append(
            Markup('<text x="{x}" y="{y:.1f}" class="tick" text-anchor="end">{v}</text>').format(
                x=LEFT - 6, y=y + 4, v=text
            )
        )
    # About 7 units a character at the ticks' size: labels at least their width and a gap apart.
    apart = 7 * max((len(text) for _, text in x_ticks), default=1) + 10
    every = max(1, -(-len(x_ticks) // max(1, int((width - LEFT - RIGHT) // apart + 1))))
    shown = None
    for index, (x, text) in enumerate(x_ticks):
        if index % every == 0 and text != shown:  # games of one evening: their date once
            shown = text
            half, anchor = 3.5 * len(text), "middle"
            if x + half > width - 2:  # the last labels end at the picture's edge rather than past it
                x, anchor = width - 2.0, "end"
            parts.append(
                Markup('<text x="{x:.1f}" y="{y}" class="tick" text-anchor="{a}">{v}</text>').format(
                    x=x, y=bottom + 16, a=anchor, v=text
                )
            )
    parts.append(
        Markup('<text x="{x}" y="{y}" class="tick" text-anchor="middle">{v}</text>').format(
            x=(LEFT + width - RIGHT) / 2, y=HEIGHT - 4, v=x_label
        )
    )
    return parts


def _beside(x: float, width: int) -> tuple[float, str]:
    """Where a label next to a vertical line at `x` goes so that it stays inside the picture: to its right,
    or to its left in the right half."""
    return (x - 4, "end") if x > (LEFT + width - RIGHT) / 2 else (x + 4, "start")


def campaign_plot(
    steps: Sequence[tuple[str, SeriesStatus]],
    names: Mapping[str, str],
    unit: str,
    target: int | None,
    words: Translator = ENGLISH,
) -> Markup:
    """Cumulative totals after every counted game, one line per player (or team), the target as a
    dashed line and the game that decided the campaign marked. `steps` are (game label, status after it)."""
    labels = list(names)
    series = {label: [0] + [status.totals.get(label, 0) for _, status in steps] for label in labels}
    highest = max([target or 0, 1, *(v for values in series.values() for v in values)])
    count = max(len(steps), 1)
    decisive = next((i for i, (_, status) in enumerate(steps, start=1) if status.finished), None)

    def y(value: int) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - value / highest)

    def draw(width: int) -> list[Markup]:
        def x(index: int) -> float:
            return LEFT + (width - LEFT - RIGHT) * index / count

        parts = _axes(
            width,
            words,
            [(y(tick), _number(points(tick, unit), words)) for tick in _ticks(highest)],
            [(x(index), str(index)) for index in range(len(steps) + 1)],
            words(_("game")),
        )
        if target:
            parts.append(
                Markup(
                    '<line x1="{l}" y1="{y:.1f}" x2="{r}" y2="{y:.1f}" class="target"/>'
                    '<text x="{r}" y="{ty:.1f}" class="target-label" text-anchor="end">{said}</text>'
                ).format(
                    l=LEFT,
                    r=width - RIGHT,
                    y=y(target),
                    ty=y(target) - 5 if y(target) - 5 >= TOP + 10 else y(target) + 14,  # under the line at the top
                    said=words(_("target {points}", points=_number(points(target, unit), words))),
                )
            )
        if decisive is not None:
            tx, anchor = _beside(x(decisive), width)
            parts.append(
                Markup(
                    '<line x1="{x:.1f}" y1="{t}" x2="{x:.1f}" y2="{b}" class="decisive"/>'
                    '<text x="{tx:.1f}" y="{ty}" class="decisive-label" text-anchor="{a}">{said}</text>'
                ).format(
                    x=x(decisive), t=TOP, b=HEIGHT - BOTTOM, tx=tx, ty=TOP + 24, a=anchor, said=words(_("decided"))
                )
            )
        for number, label in enumerate(labels):
            colour = COLOURS[number % len(COLOURS)]
            coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(series[label]))
            parts.append(
                Markup('<polyline points="{p}" fill="none" stroke="{c}" stroke-width="2.5"/>').format(
                    p=coords, c=colour
                )
            )
            for i, v in enumerate(series[label]):
                said = words(
                    _(
                        "{player}: {total} after game {game}",
                        player=names[label],
                        total=_number(points(v, unit), words),
                        game=i,
                    )
                )
                parts.append(
                    Markup('<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{c}"><title>{t}</title></circle>').format(
                        x=x(i), y=y(v), c=colour, t=said
                    )
                )
        return parts

    return _plot(draw, words(_("Cumulative totals after every game")))


class RatingMark(msgspec.Struct, frozen=True, kw_only=True):
    """One point of a rating plot: when (a date as the page writes it), the rating and its uncertainty
    as people read them, and what the point's tooltip says."""

    when: str
    rating: float
    spread: float
    said: str


def rating_plot(marks: Sequence[RatingMark], name: str, words: Translator = ENGLISH) -> Markup:
    """A player's rating after every rated game, oldest first: the rating as a line, its uncertainty as a
    band around it, the dates of the games along the bottom."""
    lows = [m.rating - m.spread for m in marks] or [0.0]
    highs = [m.rating + m.spread for m in marks] or [1.0]
    step = _nice_step((max(highs) - min(lows)) / 4 or 1.0)
    floor, ceiling = step * (min(lows) // step), step * -(-max(highs) // step)
    count = max(len(marks) - 1, 1)

    def y(value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - (value - floor) / (ceiling - floor))

    def draw(width: int) -> list[Markup]:
        def x(index: int) -> float:
            return LEFT + (width - LEFT - RIGHT) * (index / count if len(marks) > 1 else 0.5)

        ticks = []
        value = floor
        while value <= ceiling + step / 2:
            ticks.append((y(value), _number(f"{value:.0f}", words)))
            value += step
        parts = _axes(width, words, ticks, [(x(i), m.when) for i, m in enumerate(marks)], words(_("rated games")))
        band = [(x(i), y(m.rating + m.spread)) for i, m in enumerate(marks)]
        band += [(x(i), y(m.rating - m.spread)) for i, m in reversed(list(enumerate(marks)))]
        if band:
            parts.append(
                Markup('<polygon points="{p}" class="spread"/>').format(p=" ".join(f"{a:.1f},{b:.1f}" for a, b in band))
            )
            coords = " ".join(f"{x(i):.1f},{y(m.rating):.1f}" for i, m in enumerate(marks))
            parts.append(
                Markup('<polyline points="{p}" fill="none" stroke="{c}" stroke-width="2.5"/>').format(
                    p=coords, c=COLOURS[0]
                )
            )
        for i, m in enumerate(marks):
            parts.append(
                Markup('<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{c}"><title>{t}</title></circle>').format(
                    x=x(i), y=y(m.rating), c=COLOURS[0], t=m.said
                )
            )
        return parts

    return _plot(draw, words(_("{player}'s rating after every rated game", player=name)))


def _number(text: str, words: Translator) -> str:
    """A number written as points() writes it ("54.5"), in the reader's language ("54,5")."""
    try:
        value = float(text)
    except ValueError:
        return text
    return words.words(int(value) if value == int(value) else value)


def _nice_step(rough: float) -> float:
    """A round step near `rough` (1, 2 or 5 times a power of ten), for the ticks of an axis."""
    power = 10 ** math.floor(math.log10(rough))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= rough)


def _ticks(highest: int) -> list[int]:
    step = max(1, highest // 4)
    return list(range(0, highest + 1, step))


_CODE = re.compile(r"`([^`]+)`")


def prose(text: str, inline: bool = False) -> Markup:
    """The rules reference's Markdown paragraphs as HTML: a paragraph per blank-line-separated block,
    `code` as code, everything else as text (escaped); `inline` leaves out the paragraphs."""

    def said(block: str) -> Markup:
        return Markup(_CODE.sub(r"<code>\1</code>", str(escape(" ".join(block.split())))))

    if inline:
        return said(text)
    return Markup("\n").join(Markup("<p>{}</p>").format(said(block)) for block in text.split("\n\n") if block.strip())
