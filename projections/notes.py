"""Notes at a step of a game: their events and the fold that gives the notes as they stand.

A game's notes are their own append-only stream beside the game's record (written, edited, deleted),
so writing one never touches the record. A note is seen by the club (`club`), by spectators too once
the spectator delay has passed its step (`public`), or only in one seat's view and the full record
(`seat`). Who may see which is `visible`; the delay itself is the service's to know.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Literal

import msgspec

from domain.ruleset import Viewer

Visibility = Literal["club", "public", "seat"]
Marker = Literal["!", "?", "!!", "??", "!?", "?!"]
MARKERS: tuple[Marker, ...] = ("!", "?", "!!", "??", "!?", "?!")
"""The marks a wargamer or chess player puts on a move: good, dubious, brilliant, blunder, interesting,
doubtful."""
MAX_TEXT = 2000
"""A note is a few lines beside a step, not an essay."""

NoteText = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TEXT)]


class NoteEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    note_id: str


class NoteWritten(NoteEvent, frozen=True, kw_only=True, tag="note.written"):
    step: int
    text: str
    marker: Marker | None = None
    visibility: Visibility = "club"
    seat: int | None = None
    author: str
    """The name of the key (or of the signed-in key's session) that wrote it."""
    key_id: str | None = None


class NoteEdited(NoteEvent, frozen=True, kw_only=True, tag="note.edited"):
    text: str
    marker: Marker | None = None
    visibility: Visibility = "club"
    seat: int | None = None


class NoteDeleted(NoteEvent, frozen=True, kw_only=True, tag="note.deleted"):
    pass


AnyNoteEvent = NoteWritten | NoteEdited | NoteDeleted
EVENT_DECODER = msgspec.json.Decoder(AnyNoteEvent)


class Note(msgspec.Struct, frozen=True, kw_only=True):
    """A note as it stands. `voided_by` is the correction that voided its step (the note stays)."""

    note_id: str
    step: int
    text: str
    marker: Marker | None
    visibility: Visibility
    seat: int | None
    author: str
    key_id: str | None
    written_at: datetime
    edited_at: datetime | None = None
    voided_by: int | None = None


def fold(events: Iterable[tuple[AnyNoteEvent, datetime]]) -> list[Note]:
    """The notes standing after these events (each with when it was recorded), in step then writing order."""
    notes: dict[str, Note] = {}
    for event, at in events:
        if isinstance(event, NoteWritten):
            notes[event.note_id] = Note(
                note_id=event.note_id,
                step=event.step,
                text=event.text,
                marker=event.marker,
                visibility=event.visibility,
                seat=event.seat,
                author=event.author,
                key_id=event.key_id,
                written_at=at,
            )
        elif isinstance(event, NoteEdited):
            was = notes[event.note_id]
            notes[event.note_id] = msgspec.structs.replace(
                was, text=event.text, marker=event.marker, visibility=event.visibility, seat=event.seat, edited_at=at
            )
        else:
            notes.pop(event.note_id, None)
    return sorted(notes.values(), key=lambda n: n.step)


def visible(note: Note, *, sees_hidden: bool, viewer: Viewer, horizon: int | None) -> bool:
    """Whether a reader sees `note`: a club member (`sees_hidden`) sees club and public notes in every view
    and a seat's notes in that seat's view and the full record; anyone else sees public notes on the steps
    it may see (up to `horizon`, the spectator delay's; None: all of them)."""
    if not sees_hidden:
        return note.visibility == "public" and (horizon is None or note.step <= horizon)
    if note.visibility == "seat":
        return viewer.kind == "full" or (viewer.kind == "seat" and viewer.seat == note.seat)
    return True
