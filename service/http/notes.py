"""The HTTP API of notes at a step of a game (`service.usecases.notes`): a member (a record or read key)
writes, edits and deletes them; anyone who reads the game reads those its view may see.

Writing a note needs a read key, not a record key: a note is beside the record, never in it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from litestar import Controller, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.exceptions import PermissionDeniedException
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter

from projections.notes import Note
from service.http.dependencies import RequestContext, viewer_of
from service.http.guards import GUARDS, PUBLIC
from service.limits import MAX_INT
from service.usecases.notes import NewNote, NoteIn, Notes, NotYourNote

MEMBER: dict[str, Any] = {"needs": "read"}
"""A read key may write a note (the guard's default for a write is a record key)."""


class NotesController(Controller):
    path = "/clubs/{club_id:str}/games/{game_id:str}/notes"
    tags = ("notes",)
    guards = GUARDS

    @get("/", sync_to_thread=True, summary="The notes on a game's steps that a view may see", opt=PUBLIC)
    def read_notes(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
        view: FromQuery[Literal["public", "seat", "full"]] = "public",
        seat: Annotated[int | None, QueryParameter(ge=0, le=MAX_INT)] = None,
    ) -> list[Note]:
        """In step order. A club's key sees `club` and `public` notes in every view, a `seat` note in that
        seat's view and the full record; a spectate key sees `public` notes only, on the steps its
        spectator delay lets it see. A note on a step a correction voided says so (`voided_by`)."""
        return Notes.of(context.records).notes(context.principal, club_id, game_id, viewer_of(view, seat))

    @post("/", sync_to_thread=True, summary="Write a note on a step", opt=MEMBER)
    def write_note(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[NewNote],
        context: NamedDependency[RequestContext],
    ) -> Note:
        """The note's author is the key's name. Refused, with nothing stored: a step that is not of the
        game (404), a seat not at its table, a `seat` note without its seat or another with one, a blank
        text (422), a text longer than 2000 characters (400)."""
        return Notes.of(context.records).write(context.principal, club_id, game_id, data)

    @patch("/{note_id:str}", sync_to_thread=True, summary="Change a note's text, marker or visibility", opt=MEMBER)
    def edit_note(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        note_id: FromPath[str],
        data: JSONBody[NoteIn],
        context: NamedDependency[RequestContext],
    ) -> Note:
        """Only the key that wrote the note, or a record key, may change it (403)."""
        try:
            return Notes.of(context.records).edit(context.principal, club_id, game_id, note_id, data)
        except NotYourNote as refused:
            raise PermissionDeniedException(detail=str(refused)) from None

    @delete("/{note_id:str}", sync_to_thread=True, summary="Delete a note", opt=MEMBER)
    def delete_note(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        note_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> None:
        """Only the key that wrote the note, or a record key, may delete it (403). The game's record is
        never touched; the note's stream keeps that it was deleted."""
        try:
            Notes.of(context.records).delete(context.principal, club_id, game_id, note_id)
        except NotYourNote as refused:
            raise PermissionDeniedException(detail=str(refused)) from None


HANDLERS = [NotesController]
