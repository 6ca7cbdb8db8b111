""" "What if" lines: from a step of a game, other events tried one after another, checked by the rules,
told and drawn as the replay tells and draws the record, and never part of the record.

A game's lines are their own append-only stream beside its record (opened, extended, deleted), as its
notes are. A line starts from the game as its viewer knew it at the step (`as_known`): the record's events
each as that viewer knew them (`Ruleset.known`: a card the viewer did not see is unknown), folded. A line
opened from the public view so knows only what the public knew, and no question its rules answer can
tell a hidden card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from domain.i18n import english
from domain.record import Correction, Folded, ResultReported, effective_events_of, start
from domain.ruleset import Ruleset, Viewer
from projections.errors import ProjectionError
from projections.replay import Snapshot, Step, _check_step, _started, seek, tell
from projections.words import Teller, _

MAX_NAME = 80
"""A line's name is a few words under a step, not a note."""

LineName = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]
View = Literal["public", "seat", "full"]


class LineEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    line_id: str


class LineOpened(LineEvent, frozen=True, kw_only=True, tag="line.opened"):
    step: int
    name: str
    view: View = "public"
    seat: int | None = None
    author: str
    """The name of the key (or of the signed-in key's session) that opened it."""
    key_id: str | None = None


class LineExtended(LineEvent, frozen=True, kw_only=True, tag="line.extended"):
    events: tuple[dict[str, Any], ...]
    """The game events tried, as the API takes them, each accepted by the rules after the ones before."""


class LineDeleted(LineEvent, frozen=True, kw_only=True, tag="line.deleted"):
    pass


AnyLineEvent = LineOpened | LineExtended | LineDeleted
EVENT_DECODER = msgspec.json.Decoder(AnyLineEvent)


class WhatIf(msgspec.Struct, frozen=True, kw_only=True):
    """A line as it stands: from step `step` of the game, seen as `view` (and `seat`), the events tried."""

    line_id: str
    step: int
    name: str
    view: View
    seat: int | None
    author: str
    key_id: str | None
    opened_at: datetime
    events: tuple[dict[str, Any], ...] = ()

    @property
    def viewer(self) -> Viewer:
        return Viewer(kind=self.view, seat=self.seat if self.view == "seat" else None)


def fold(events: Iterable[tuple[AnyLineEvent, datetime]]) -> list[WhatIf]:
    """The lines standing after these events (each with when it was recorded), by step then opening order."""
    lines: dict[str, WhatIf] = {}
    for event, at in events:
        if isinstance(event, LineOpened):
            lines[event.line_id] = WhatIf(
                line_id=event.line_id,
                step=event.step,
                name=event.name,
                view=event.view,
                seat=event.seat,
                author=event.author,
                key_id=event.key_id,
                opened_at=at,
            )
        elif isinstance(event, LineExtended):
            was = lines[event.line_id]
            lines[event.line_id] = msgspec.structs.replace(was, events=was.events + event.events)
        else:
            lines.pop(event.line_id, None)
    return sorted(lines.values(), key=lambda line: line.step)


def as_known(
    ruleset: Ruleset, events: Sequence[Any], step: int, viewer: Viewer, snapshots: Sequence[Snapshot] = ()
) -> Folded:
    """The game after `step` as `viewer` knew it: each event of the record still in effect there as the
    viewer knew it when it happened (`Ruleset.known`, given the record's states around it), folded. The
    full record knew everything: its fold is the record's (from the snapshots)."""
    _check_step(events, step)
    if viewer.kind == "full" or ruleset.known is None:
        return seek(ruleset, events, step, snapshots)
    started = _started(ruleset, events)
    record = told = start(ruleset, started)
    # The events a correction left in effect, in order: what a correction refolds from (G-3), so the told
    # events need not be as many as the record's.
    for version, event in effective_events_of(events[:step]):
        after = record.apply(event, version)
        shown = (
            (event,) if isinstance(event, ResultReported) else ruleset.known(record.state, event, after.state, viewer)
        )
        for each in shown:
            told = told.apply(each, version)
        record = after
    return Folded.resume(ruleset, told.setup, told.state, step, told.effective_events())


def playable(event: Any) -> None:
    """Only the game's own events are tried in a line: it is undone by opening another, never corrected,
    and has no result but the one its events reach."""
    if isinstance(event, Correction | ResultReported):
        raise ProjectionError(
            "not_in_a_line",
            _("A line tries the game's own events; open another line rather than correcting this one."),
            type=type(event).__name__,
        )


def told(
    ruleset: Ruleset, opening: Folded, events: Sequence[Any], viewer: Viewer, *, words: Teller = english
) -> tuple[Folded, list[Step]]:
    """The line's events (already accepted) after `opening`, each told for `viewer` as a replay tells a
    step (numbered on from the line's first step), and the fold after them."""
    steps = [Step(version=opening.version, type="", text="")]
    folded = opening
    for version, event in enumerate(events, start=opening.version + 1):
        folded, _voided = tell(ruleset, folded, event, version, steps, viewer, words=words)
    return folded, steps[1:]
