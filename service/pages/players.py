"""The club's players page (issue 27): every player with the name people tell them by, and, for a record
key's session, the forms to add one, rename one or change their note, retire one (kept on their games and
in the tables, left out of the menus) or bring them back, and merge two records of one person.

The forms go through the same use cases as the API (`service.usecases.clubs.Clubs`). A value refused is
shown beside its field in the reader's words, the values typed kept, and nothing is stored."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, get, post
from litestar.di import NamedDependency
from litestar.enums import RequestEncodingType
from litestar.params import Body, FromPath
from litestar.response import Redirect, Response, Template

from domain.i18n import Catalogue, Message
from service.http.dependencies import RequestContext
from service.pages.controllers import MEMBER_GUARDS, Links
from service.pages.recording import RECORD
from service.usecases.clubs import Clubs, PlayerError
from service.usecases.types import AlreadyExists

_ = Catalogue("service.pages")

Errors = dict[str, Message]
"""A form's refused fields: field name -> what is wrong, in words."""


class AddForm(msgspec.Struct, frozen=True, kw_only=True):
    name: str = ""
    note: str = ""
    player_id: str = ""


class ChangeForm(msgspec.Struct, frozen=True, kw_only=True):
    name: str = ""
    note: str = ""


class MergeForm(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str = ""
    into: str = ""


def _errors(error: Exception) -> Errors:
    """A use case's refusal as the fields it is about (the other errors are not the form's)."""
    if isinstance(error, PlayerError):
        return {error.field: error.message}
    if isinstance(error, AlreadyExists):
        return {"player_id": _("Another player has that id: choose another one, or leave it blank.")}
    raise error


def players_page(context: RequestContext, club_id: str, **forms: Any) -> dict[str, Any]:
    """The page: every player (by the name that tells them apart), whether retired or merged, and the
    forms (`forms`: a refused form's values and errors under its name: `add`, `change`, `merge`)."""
    clubs = Clubs.of(context.records)
    people = clubs.people(club_id)
    players = clubs.players(club_id)
    names = clubs.names(club_id)
    players.sort(
        key=lambda p: (p.retired_at is not None, people(p.player_id) != p.player_id, names[p.player_id].casefold())
    )
    return {
        "links": Links(base=f"/club/{club_id}", club_id=club_id),
        "principal": context.principal,
        "players": players,
        "names": names,
        "merged": {p.player_id: people(p.player_id) for p in players if people(p.player_id) != p.player_id},
        "mergeable": [p for p in players if people(p.player_id) == p.player_id],
        "add": {"form": {}, "errors": {}},
        "change": {"player_id": None, "form": {}, "errors": {}},
        "merge": {"form": {}, "errors": {}},
        **forms,
    }


def _refused(context: RequestContext, club_id: str, **forms: Any) -> Template:
    return Template(template_name="players.html", context=players_page(context, club_id, **forms), status_code=422)


def _back(club_id: str, player_id: str | None = None) -> Redirect:
    anchor = f"#player-{player_id}" if player_id else ""
    return Redirect(path=f"/club/{club_id}/players{anchor}", status_code=303)


class PlayerPages(Controller):
    path = "/club/{club_id:str}/players"
    guards = MEMBER_GUARDS
    include_in_schema = False

    @get("/", sync_to_thread=True)
    def players(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> Template:
        return Template(template_name="players.html", context=players_page(context, club_id))

    @post("/", sync_to_thread=True, opt=RECORD, status_code=303)
    def add(
        self,
        club_id: FromPath[str],
        context: NamedDependency[RequestContext],
        data: Annotated[AddForm, Body(media_type=RequestEncodingType.URL_ENCODED)],
    ) -> Response[Any]:
        try:
            player = Clubs.of(context.records).add_player(club_id, data.player_id.strip() or None, data.name, data.note)
        except (PlayerError, AlreadyExists) as error:
            return _refused(context, club_id, add={"form": msgspec.to_builtins(data), "errors": _errors(error)})
        return _back(club_id, player.player_id)

    @post("/merge", sync_to_thread=True, opt=RECORD, status_code=303)
    def merge(
        self,
        club_id: FromPath[str],
        context: NamedDependency[RequestContext],
        data: Annotated[MergeForm, Body(media_type=RequestEncodingType.URL_ENCODED)],
    ) -> Response[Any]:
        errors: Errors = {}
        if not data.player_id:
            errors["player_id"] = _("Choose the record to merge.")
        if not data.into:
            errors["into"] = _("Choose the player it is the same person as.")
        if not errors:
            try:
                Clubs.of(context.records).merge(context.recorder, data.player_id, data.into)
            except PlayerError as error:
                errors = _errors(error)
        if errors:
            return _refused(context, club_id, merge={"form": msgspec.to_builtins(data), "errors": errors})
        return _back(club_id, data.into)

    @post("/{player_id:str}", sync_to_thread=True, opt=RECORD, status_code=303)
    def change(
        self,
        club_id: FromPath[str],
        player_id: FromPath[str],
        context: NamedDependency[RequestContext],
        data: Annotated[ChangeForm, Body(media_type=RequestEncodingType.URL_ENCODED)],
    ) -> Response[Any]:
        try:
            Clubs.of(context.records).change_player(club_id, player_id, name=data.name, note=data.note)
        except PlayerError as error:
            change = {"player_id": player_id, "form": msgspec.to_builtins(data), "errors": _errors(error)}
            return _refused(context, club_id, change=change)
        return _back(club_id, player_id)

    @post("/{player_id:str}/retire", sync_to_thread=True, opt=RECORD, status_code=303)
    def retire(
        self, club_id: FromPath[str], player_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> Redirect:
        Clubs.of(context.records).change_player(club_id, player_id, retired=True)
        return _back(club_id, player_id)

    @post("/{player_id:str}/bring-back", sync_to_thread=True, opt=RECORD, status_code=303)
    def bring_back(
        self, club_id: FromPath[str], player_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> Redirect:
        Clubs.of(context.records).change_player(club_id, player_id, retired=False)
        return _back(club_id, player_id)
