"""A report to keep (issue 31): a game's replay as ONE self-contained HTML file, for the replay page's
download link and `tablelog report` alike. Every step the reader may see, each with the game's picture
(inline SVG), what changed and its narration, the notes of the chosen view, the result and a chapter
index; the style is inline and there is no script, so the file opens from a disk with no network, and
prints each chapter (or each step, as chosen at its top) from a new page. A part of a picture that an
earlier step drew the same is in the file once (`Shared`), so a long battle stays a small file.

The view is chosen as the replay's is, but asked for strictly: a view the reader may not see is refused
(a spectator's report is the public one), never quietly narrowed. Hidden information follows the same
rules as the replay page: the narration, pictures, changes and verdict are the chosen viewer's, and a
spectator's report stops at the spectator delay's horizon."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

from domain.i18n import Catalogue
from domain.ruleset import Ruleset, Viewer
from projections.errors import ProjectionError
from projections.notes import Note
from projections.replay import ChapterMark, Step, replay, step_views
from projections.verdict import Verdict, verdict_of
from service.i18n import Translator
from service.pages import i18n
from service.pages.notes import MARKER_WORDS, visibility_label
from service.pages.reads import changes_of, chapter_label, picture_of
from service.usecases.access import Principal
from service.usecases.games import NoSuchSeat, Records
from service.usecases.notes import Notes, with_voided
from service.usecases.replays import Replays
from service.usecases.types import GameRecord

_ = Catalogue("service.pages")
TEMPLATES = Path(__file__).parent / "templates"
"""The pages' templates (named here too: `service.pages` imports this module through its controllers)."""
VIEWS = ("public", "seat", "full")


class ViewRefused(Exception):
    """A report of a view the reader may not see (a spectator's is the public one)."""

    @property
    def detail(self) -> str:
        return str(self)


class ReportStep(msgspec.Struct, frozen=True, kw_only=True):
    """One step as the report shows it: its narration, the picture after it, what changed, its notes,
    and the chapter it opens (None when it opens none)."""

    step: Step
    picture: Markup
    changes: list[str]
    notes: list[Note]
    opens: ChapterMark | None
    inner: ChapterMark | None
    """The chapter inside the outermost one (a turn in a round) that this step opens, if any."""


class Chapter(msgspec.Struct, frozen=True, kw_only=True):
    """An outermost chapter (a round, a battle...) and its steps: the report's unit of a printed page."""

    mark: ChapterMark | None
    steps: list[ReportStep]


def viewer_asked(principal: Principal, view: str, seat: int | None, seats: int) -> Viewer:
    """The view asked for, refused when the principal may not see it or it names no seat at the table."""
    if view not in VIEWS:
        raise ProjectionError(
            "no_such_view", _("A report's view is one of {views}.", views=", ".join(VIEWS)), field="view"
        )
    if view != "public" and not principal.sees_hidden:
        raise ViewRefused(f"A spectator's report is the public view; the {view} view needs a read or record key.")
    if view == "full":
        return Viewer.full()
    if view == "seat":
        if seat is None:
            raise ProjectionError("seat_needed", _("A seat's report needs the seat it is for."), field="seat")
        if not 0 <= seat < seats:
            raise NoSuchSeat(seat, seats)
        return Viewer.of_seat(seat)
    if seat is not None:
        raise ProjectionError("seat_without_seat_view", _("Only the seat view names a seat."), field="seat")
    return Viewer.public()


def report_html(
    records: Records,
    principal: Principal,
    club_id: str,
    game_id: str,
    view: str,
    seat: int | None = None,
    *,
    language: str = "en",
) -> str:
    """The report of a game as `principal` may see it, in `view` (and `seat`), in `language`: the steps
    up to the spectator delay's horizon for a spectator, and the notes the principal may read there."""
    replays = Replays.of(records)
    record, ruleset = replays.game(club_id, game_id)
    viewer = viewer_asked(principal, view, seat, len(record.player_ids))
    horizon = replays.horizon(principal, record.stream_id)
    return report_of(
        ruleset,
        replays.events(ruleset, record.stream_id, up_to=horizon),
        viewer,
        game=record,
        notes=Notes.of(records).readable(principal, record, viewer, horizon),
        language=language,
    )


def report_of(
    ruleset: Ruleset,
    events: Sequence[Any],
    viewer: Viewer,
    *,
    game: GameRecord,
    notes: Sequence[Note] = (),
    language: str = "en",
) -> str:
    """The report of the record `events` (all of it, or what a spectator may see) for `viewer`, with the
    `notes` it may read, in `language`: made of the record alone, so a public report depends on nothing
    the public has not seen."""
    words = Translator(language)
    told = replay(ruleset, events, viewer, words=words)
    shown_notes = with_voided(notes, told.steps)
    by_step: dict[int, list[Note]] = {}
    for note in shown_notes:
        by_step.setdefault(note.step, []).append(note)
    opens = {m.version: m for m in told.chapters if len(m.chapters) == 1}
    inner = {m.version: m for m in told.chapters if len(m.chapters) == 2}
    chapters: list[Chapter] = []
    verdict: Verdict | None = None
    shared = Shared()
    # The narration in one fold, the pictures in another (each the same as the replay page's).
    for (shown, folded), step in zip(step_views(ruleset, events, viewer, words=words), told.steps, strict=True):
        page = ReportStep(
            step=step,
            picture=shared.drawn(picture_of(ruleset, shown, words)),
            changes=changes_of(ruleset, shown) if step.version > 1 else [],
            notes=by_step.get(step.version, []),
            opens=opens.get(step.version),
            inner=inner.get(step.version),
        )
        if not chapters or page.opens is not None:
            chapters.append(Chapter(mark=page.opens, steps=[]))
        chapters[-1].steps.append(page)
        if step.version == len(told.steps):
            verdict = verdict_of(folded, viewer)
    players = sorted(told.players, key=lambda p: p.seat)
    return (
        _environment()
        .get_template("report.html")
        .render(
            language=words.language,
            game=game,
            ruleset=ruleset,
            players=players,
            view_label=_view_label(viewer, players),
            chapters=chapters,
            last=len(told.steps),
            held_back=len(told.steps) < game.version,
            verdict=verdict,
            notes=shown_notes,
            chapter_label=chapter_label,
            visibility_label=lambda note: visibility_label(note, players),
            marker_word=lambda note: MARKER_WORDS.get(note.marker or "", ""),
        )
    )


class Shared:
    """A game's pictures drawn once each part: a part of a picture (a top-level group of its SVG: a board, a
    side's panel) that an earlier step drew the same is shown by an SVG `<use>` of it. A board of hundreds
    of hexes is then in the file once, not at every step, and the file shows the same."""

    SMALLEST = 300
    """Parts shorter than this are left as they are: a `<use>` would not save much."""
    _TAG = re.compile(r"<(/?)g\b[^>]*?(/?)>")

    def __init__(self) -> None:
        self._ids: dict[str, str] = {}

    def drawn(self, picture: Markup) -> Markup:
        if not picture.startswith("<svg"):
            return picture
        out: list[str] = []
        kept, depth, start = 0, 0, 0
        for tag in self._TAG.finditer(picture):
            if tag.group(2):  # an empty group, <g/>
                continue
            if not tag.group(1):
                depth, start = depth + 1, tag.start() if depth == 0 else start
                continue
            depth -= 1
            if depth:
                continue
            part = str(picture[start : tag.end()])
            if len(part) < self.SMALLEST or " id=" in part[: part.index(">")]:
                continue
            out.append(picture[kept:start])
            known = self._ids.get(part)
            if known is None:
                known = self._ids[part] = f"part-{len(self._ids) + 1}"
                out.append(f'<g id="{known}"' + part[2:])
            else:
                out.append(f'<use href="#{known}"/>')
            kept = tag.end()
        out.append(picture[kept:])
        return Markup("".join(out))


def _view_label(viewer: Viewer, players: list[Any]) -> Any:
    if viewer.kind == "full":
        return _("Everything (the record)")
    if viewer.kind == "seat":
        name = next((p.name for p in players if p.seat == viewer.seat), str(viewer.seat))
        return _("{player}'s hand", player=name)
    return _("Public (what the table sees)")


def report_name(game_id: str, view: str, seat: int | None) -> str:
    """The file name offered for a report: the game and the view ("game-7-seat-1.html")."""
    return f"{game_id}-{view}{'' if seat is None else f'-{seat}'}.html"


_ENVIRONMENT: list[Environment] = []


def _environment() -> Environment:
    """The pages' templates and filters outside a request: the language is the template's `language`."""
    if not _ENVIRONMENT:
        _ENVIRONMENT.append(i18n.prepare(Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True)))
    return _ENVIRONMENT[0]
