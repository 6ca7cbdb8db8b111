"""The note forms of the replay viewer: a member writes a note on the step shown, changes or deletes one
they may change; then the step is shown again. A refused note shows the step again with the problem
beside the form, in the reader's words, and what was typed kept."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.enums import RequestEncodingType
from litestar.exceptions import PermissionDeniedException
from litestar.params import Body, FromPath
from litestar.response import Redirect, Template

from domain.i18n import Catalogue, Message
from projections.errors import ProjectionError
from projections.notes import MAX_TEXT
from service.http.dependencies import RequestContext
from service.pages import reads
from service.pages.controllers import MEMBER_GUARDS, Links, page_template
from service.usecases.games import NoSuchSeat
from service.usecases.notes import NewNote, NoteIn, Notes, NotYourNote

_ = Catalogue("service.pages")


class NoteForm(msgspec.Struct, frozen=True, kw_only=True):
    step: int
    text: str = ""
    marker: str = ""
    visibility: str = "club"
    view: Literal["public", "seat", "full"] = "public"
    seat: int | None = None
    note_id: str = ""
    """The note changed (empty for a new one): which form shows a problem."""


Form = Annotated[NoteForm, Body(media_type=RequestEncodingType.URL_ENCODED)]


def _view_query(form: NoteForm) -> str:
    return f"view=seat&seat={form.seat}" if form.view == "seat" and form.seat is not None else f"view={form.view}"


def _note(form: NoteForm, kind: type[NoteIn]) -> Any:
    """The note typed, as the use case takes it (msgspec.ValidationError when it cannot be)."""
    seat: int | None = None
    visibility = form.visibility
    if visibility.startswith("seat-") and visibility[5:].isdigit():
        visibility, seat = "seat", int(visibility[5:])
    fields = {"text": form.text, "marker": form.marker or None, "visibility": visibility, "seat": seat}
    return msgspec.convert(fields | ({"step": form.step} if kind is NewNote else {}), kind)


def _refusal(form: NoteForm, error: Exception) -> tuple[str, Message]:
    """The field at fault and the problem in a person's words."""
    if isinstance(error, NoSuchSeat):
        return "visibility", _("That seat is not at this table.")
    if isinstance(error, ProjectionError) and error.code == "no_such_step":
        return "step", _("This game has no step {step}.", step=form.step)
    if len(form.text) > MAX_TEXT:
        return "text", _(
            "A note holds at most {most} characters; this one has {count}.", most=MAX_TEXT, count=len(form.text)
        )
    if not form.text.strip():
        return "text", _("Write something in the note.")
    return "visibility", _("Choose who may read the note from the list.")


class NotePages(Controller):
    path = "/club/{club_id:str}/games/{game_id:str}/notes"
    guards = MEMBER_GUARDS
    include_in_schema = False

    @post("/", sync_to_thread=True, status_code=303)
    def write(
        self, club_id: FromPath[str], game_id: FromPath[str], context: NamedDependency[RequestContext], data: Form
    ) -> Redirect | Template:
        notes = Notes.of(context.records)
        return self._done(
            context,
            club_id,
            game_id,
            data,
            lambda: notes.write(context.principal, club_id, game_id, _note(data, NewNote)),
        )

    @post("/{note_id:str}/edit", sync_to_thread=True, status_code=303)
    def edit(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        note_id: FromPath[str],
        context: NamedDependency[RequestContext],
        data: Form,
    ) -> Redirect | Template:
        notes = Notes.of(context.records)
        typed = msgspec.structs.replace(data, note_id=note_id)
        return self._done(
            context,
            club_id,
            game_id,
            typed,
            lambda: notes.edit(context.principal, club_id, game_id, note_id, _note(typed, NoteIn)),
        )

    @post("/{note_id:str}/delete", sync_to_thread=True, status_code=303)
    def delete(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        note_id: FromPath[str],
        context: NamedDependency[RequestContext],
        data: Form,
    ) -> Redirect | Template:
        notes = Notes.of(context.records)
        return self._done(
            context, club_id, game_id, data, lambda: notes.delete(context.principal, club_id, game_id, note_id)
        )

    @staticmethod
    def _done(context: RequestContext, club_id: str, game_id: str, data: NoteForm, change: Any) -> Redirect | Template:
        """Make the change, then show the step again; a refusal shows it with the problem beside the form."""
        links = Links(base=f"/club/{club_id}", club_id=club_id)
        try:
            change()
        except NotYourNote as refused:
            raise PermissionDeniedException(detail=str(refused)) from None
        except (msgspec.ValidationError, ProjectionError, NoSuchSeat) as refused:
            problem = _refusal(data, refused)
            at = None if problem[0] == "step" else data.step
            page = reads.game_step(
                context.records, context.principal, club_id, game_id, at, data.view, data.seat, words=context.words
            )
            shown = page_template("game.html", context.principal, links, **page, note_form=data, note_problem=problem)
            shown.status_code = 422
            return shown
        return Redirect(path=links.step(game_id, data.step, _view_query(data)) + "#notes", status_code=303)


HANDLERS = [NotePages]
