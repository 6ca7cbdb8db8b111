"""Notes at a step of a game: written, edited and deleted by the club's members, read by whoever the
note's visibility lets see it (`projections.notes.visible`).

A game's notes are their own event stream, `notes:{club}/{game}` (':' is in no club or game id, so no
game's or tournament's stream meets it), appended through the store at the version it was read at, as a
tournament's are: the game's record is never touched, and each note's author is the key that wrote it.
A public note waits for the game's spectator delay like the step it is on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import msgspec

from domain.i18n import Catalogue
from domain.ruleset import Viewer
from projections.errors import ProjectionError
from projections.notes import (
    EVENT_DECODER,
    AnyNoteEvent,
    Marker,
    Note,
    NoteDeleted,
    NoteEdited,
    NoteText,
    NoteWritten,
    Visibility,
    fold,
    visible,
)
from projections.replay import Step, no_such_step
from service.store.access import AccessStore
from service.store.base import AppendRequest, EventRecorder, NewEvent, ReadModels, StreamId
from service.usecases.access import Principal
from service.usecases.games import GameRecords, NotFound, Records, check_seat
from service.usecases.replays import Replays
from service.usecases.spectators import spectator_horizon
from service.usecases.types import GameRecord, Recorder, VersionConflict

_ = Catalogue("service.usecases")


class NotesStore(EventRecorder, ReadModels, AccessStore, Protocol):
    """What notes read and write: their stream, the game's delay and stream, the author's key name."""


class NoteIn(msgspec.Struct, frozen=True, kw_only=True):
    """A note to write or the note as it should now read. `seat` is the seat of a `seat` note (and only of one)."""

    text: NoteText
    marker: Marker | None = None
    visibility: Visibility = "club"
    seat: int | None = None


class NewNote(NoteIn, frozen=True, kw_only=True):
    step: int


class NotYourNote(Exception):
    """A note changed by a caller that may not: a spectator (who writes none), or a key other than its
    author's that is not a record key."""


def stream_id(club_id: str, game_id: str) -> StreamId:
    return StreamId(f"notes:{club_id}/{game_id}")


def with_voided(notes: Sequence[Note], steps: Sequence[Step]) -> list[Note]:
    """The notes, each on a step a correction voided saying which one (`steps`: the replay's, in order)."""
    return [
        msgspec.structs.replace(n, voided_by=steps[n.step - 1].voided_by)
        if n.step <= len(steps) and steps[n.step - 1].voided
        else n
        for n in notes
    ]


def author_of(store: AccessStore, principal: Principal) -> str:
    """The name a note or a line is signed with: its key's (the operator's, by that name)."""
    if principal.operator or principal.key_id is None:
        return "operator"
    key = store.get_api_key(principal.key_id)
    return key.name if key is not None else principal.key_id


def append_beside(
    store: EventRecorder, principal: Principal, club_id: str, stream: StreamId, version: int, event: msgspec.Struct
) -> None:
    """Append one event to a stream kept beside a game's record (its notes, its lines) at the version it
    was read at (a VersionConflict if it moved meanwhile)."""
    store.append(
        AppendRequest(
            stream,
            [NewEvent(type=type(event).__struct_config__.tag, schema_version=1, data=msgspec.json.encode(event))],  # type: ignore[arg-type]
            version,
            recorded_by=Recorder(club_id=club_id, key_id=principal.key_id),
        )
    )


def member(principal: Principal) -> None:
    """Only the club's members write notes (a spectate key's session or a share link reads public ones)."""
    if not principal.sees_hidden:
        raise NotYourNote("A spectator reads public notes and writes none: this needs a read or record key.")


def may_change(principal: Principal, note: Note) -> bool:
    """The key that wrote a note changes it; a record key changes any."""
    return principal.writes or (principal.sees_hidden and note.key_id == principal.key_id)


class Notes:
    """The notes use cases, over the club's games (`games`) and the store."""

    def __init__(self, games: GameRecords, store: NotesStore) -> None:
        self.games = games
        self.store = store

    @classmethod
    def of(cls, records: Records) -> Notes:
        return cls(records, records.store)

    def _stored(self, club_id: str, game_id: str) -> tuple[list[Note], int]:
        stored = self.store.read_stream(stream_id(club_id, game_id))
        return fold((EVENT_DECODER.decode(e.data), e.recorded_at) for e in stored), len(stored)

    def readable(
        self, principal: Principal, record: GameRecord, viewer: Viewer, horizon: int | None = None
    ) -> list[Note]:
        """The game's notes `principal` may see in `viewer`'s view; `horizon`: the last step it may see
        (the spectator delay's, worked out by the caller that has it; None: all)."""
        notes, _version = self._stored(record.club_id, record.game_id)
        sees = principal.sees_hidden
        return [n for n in notes if visible(n, sees_hidden=sees, viewer=viewer, horizon=horizon)]

    def notes(self, principal: Principal, club_id: str, game_id: str, viewer: Viewer) -> list[Note]:
        """The notes `principal` may see in `viewer`'s view, each on a voided step saying so."""
        record = self.games.game(club_id, game_id)
        if viewer.seat is not None:
            check_seat(record, viewer.seat)
        horizon = spectator_horizon(self.store, principal, record.stream_id)
        shown = self.readable(principal, record, viewer, horizon)
        if not shown:
            return shown
        # The replay (as this principal may see it) tells which steps a correction voided.
        return with_voided(
            shown, Replays(self.games, self.store).replay(principal, club_id, game_id, Viewer.public()).steps
        )

    def write(self, principal: Principal, club_id: str, game_id: str, note: NewNote) -> Note:
        """Refused when the step is not of the game (404 `no_such_step`), the seat not at its table, or the
        text blank (422); nothing is stored then."""
        member(principal)
        record = self.games.game(club_id, game_id)
        if not 1 <= note.step <= record.version:
            raise no_such_step(note.step, record.version)
        text = self._checked(record, note)
        author = self._author(principal)
        for attempt in range(3):
            # The note is named by the stream version that writes it: never reused, even once deleted.
            version = self.store.stream_version(stream_id(club_id, game_id))
            written = NoteWritten(
                note_id=str(version + 1),
                step=note.step,
                text=text,
                marker=note.marker,
                visibility=note.visibility,
                seat=note.seat,
                author=author,
                key_id=principal.key_id,
            )
            try:
                return self._append_kept(principal, club_id, game_id, version, written)
            except VersionConflict:
                # Another note was written meanwhile: a new note depends on none, so it goes after (a 409
                # only when the game's notes keep moving).
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def edit(self, principal: Principal, club_id: str, game_id: str, note_id: str, note: NoteIn) -> Note:
        record = self.games.game(club_id, game_id)
        _found, version = self._mine(principal, club_id, game_id, note_id)
        text = self._checked(record, note)
        edited = NoteEdited(note_id=note_id, text=text, marker=note.marker, visibility=note.visibility, seat=note.seat)
        return self._append_kept(principal, club_id, game_id, version, edited)

    def delete(self, principal: Principal, club_id: str, game_id: str, note_id: str) -> None:
        self.games.game(club_id, game_id)
        _found, version = self._mine(principal, club_id, game_id, note_id)
        self._append(principal, club_id, game_id, version, NoteDeleted(note_id=note_id))

    def _mine(self, principal: Principal, club_id: str, game_id: str, note_id: str) -> tuple[Note, int]:
        member(principal)
        notes, version = self._stored(club_id, game_id)
        found = next((n for n in notes if n.note_id == note_id), None)
        if found is None:
            raise NotFound("note", note_id)
        if not may_change(principal, found):
            raise NotYourNote(f"Note {note_id} was written by {found.author}: only they or a record key may change it.")
        return found, version

    def _checked(self, record: GameRecord, note: NoteIn) -> str:
        text = note.text.strip()
        if not text:
            raise ProjectionError("blank_note", _("A note needs some text."), field="text")
        if note.visibility == "seat":
            if note.seat is None:
                raise ProjectionError("seat_needed", _("A seat note needs the seat it is for."), field="seat")
            check_seat(record, note.seat)
        elif note.seat is not None:
            raise ProjectionError(
                "seat_without_seat_visibility",
                _(
                    "Only a note of visibility `seat` names a seat; this one is `{visibility}`.",
                    visibility=note.visibility,
                ),
                field="seat",
            )
        return text

    def _author(self, principal: Principal) -> str:
        return author_of(self.store, principal)

    def _append_kept(
        self, principal: Principal, club_id: str, game_id: str, version: int, event: NoteWritten | NoteEdited
    ) -> Note:
        """Append a written or edited note and return it as it now stands."""
        self._append(principal, club_id, game_id, version, event)
        return next(n for n in self._stored(club_id, game_id)[0] if n.note_id == event.note_id)

    def _append(self, principal: Principal, club_id: str, game_id: str, version: int, event: AnyNoteEvent) -> None:
        append_beside(self.store, principal, club_id, stream_id(club_id, game_id), version, event)
