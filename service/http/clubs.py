"""The clubs API: clubs, their players and their resources (catalogues, scenarios)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import anyio.to_thread
import msgspec
from litestar import Controller, Request, Response, get, patch, post, put
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, PathParameter

from projections.people import People
from service.http.caching import immutable
from service.http.dependencies import RequestContext
from service.http.guards import GUARDS, KEYS, OPERATOR, PUBLIC
from service.http.language import club_languages
from service.limits import CLUB_ID_PATTERN, ID_PATTERN, MAX_INT
from service.logs import get_logger
from service.memory import one_import
from service.usecases.clubs import NAME_LENGTH, NOTE_LENGTH, Clubs
from service.usecases.types import Club, ClubPlayer, PlayerMerge


class ClubIn(msgspec.Struct, frozen=True, kw_only=True):
    club_id: Annotated[str, msgspec.Meta(pattern=CLUB_ID_PATTERN)]
    name: Annotated[str, msgspec.Meta(min_length=1)]


class ClubOut(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    name: str
    created_at: datetime
    language: str | None = None
    """The club's default language (`en`, `fr`, `es`), or null: English."""

    @classmethod
    def of(cls, club: Club) -> ClubOut:
        return cls(club_id=club.club_id, name=club.name, created_at=club.created_at, language=club.language)


class ClubSettingsIn(msgspec.Struct, frozen=True, kw_only=True):
    language: Literal["en", "fr", "es"] | None = None
    """What the club's pages and the API's texts speak to a reader who chose no language and whose
    `Accept-Language` names none of ours; null: English."""


Name = Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_LENGTH)]
Note = Annotated[str, msgspec.Meta(max_length=NOTE_LENGTH)]


class PlayerIn(msgspec.Struct, frozen=True, kw_only=True):
    player_id: Annotated[str, msgspec.Meta(pattern=ID_PATTERN)]
    name: Name
    note: Note = ""
    """What tells the player apart from another of the same name (shown beside the name where two share it)."""


class PlayerChange(msgspec.Struct, frozen=True, kw_only=True):
    """What to change of a player; a field left out (or null) is kept."""

    name: Name | None = None
    note: Note | None = None
    retired: bool | None = None
    """true: retired (kept on their games and in the tables, left out of the menus); false: brought back."""


class MergeIn(msgspec.Struct, frozen=True, kw_only=True):
    into: Annotated[str, msgspec.Meta(pattern=ID_PATTERN)]
    """The record of the same person the player's games are to count under."""


class MergeOut(msgspec.Struct, frozen=True, kw_only=True):
    """A merge as recorded: `player_id`'s games count as `into_id`'s in every table from `merged_at`;
    `key_id` is the key that asked for it. The games and their events are unchanged."""

    player_id: str
    into_id: str
    key_id: str | None
    merged_at: datetime

    @classmethod
    def of(cls, merge: PlayerMerge) -> MergeOut:
        return cls(player_id=merge.player_id, into_id=merge.into_id, key_id=merge.key_id, merged_at=merge.merged_at)


class PlayerOut(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    created_at: datetime
    note: str = ""
    retired_at: datetime | None = None
    """When the club retired the player (null: not retired)."""
    merged_into: str | None = None
    """The record this one was merged into (null: not merged): its games count as that player's."""


def player_out(player: ClubPlayer, people: People) -> PlayerOut:
    person = people(player.player_id)
    return PlayerOut(
        player_id=player.player_id,
        name=player.name,
        created_at=player.created_at,
        note=player.note,
        retired_at=player.retired_at,
        merged_into=None if person == player.player_id else person,
    )


class ResourceOut(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    kind: str
    resource_id: str
    version: int
    content_hash: str
    created_at: datetime


class ResourceVersionOut(msgspec.Struct, frozen=True, kw_only=True):
    """One version of a club resource, with what it holds as the ruleset reads it (parsed and checked)."""

    ruleset: str
    kind: str
    resource_id: str
    version: int
    content_hash: str
    created_at: datetime
    content: Any


class ClubController(Controller):
    path = "/clubs"
    tags = ("clubs",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a club (operator key)", opt=OPERATOR)
    def create_club(self, data: JSONBody[ClubIn], state: State) -> ClubOut:
        club = Clubs.of(state.records).create(data.club_id, data.name)
        get_logger(club_id=club.club_id).info("club.created")
        return ClubOut.of(club)

    @get("/{club_id:str}", sync_to_thread=True, summary="A club", opt=PUBLIC)
    def get_club(self, club_id: FromPath[str], state: State) -> ClubOut:
        return ClubOut.of(Clubs.of(state.records).club(club_id))

    @put("/{club_id:str}/settings", sync_to_thread=True, summary="Change the club's settings", opt=KEYS)
    def change_settings(self, club_id: FromPath[str], data: JSONBody[ClubSettingsIn], state: State) -> ClubOut:
        club = Clubs.of(state.records).set_language(club_id, data.language)
        club_languages(state).changed(club_id, club.language)
        get_logger(club_id=club_id).info("club.settings_changed", language=club.language)
        return ClubOut.of(club)

    @post("/{club_id:str}/players", sync_to_thread=True, summary="Add a player to the club")
    def create_player(self, club_id: FromPath[str], data: JSONBody[PlayerIn], state: State) -> PlayerOut:
        player = Clubs.of(state.records).add_player(club_id, data.player_id, data.name, data.note)
        return player_out(player, People())

    @get("/{club_id:str}/players", sync_to_thread=True, summary="The club's players", opt=PUBLIC)
    def list_players(self, club_id: FromPath[str], state: State) -> list[PlayerOut]:
        clubs = Clubs.of(state.records)
        people = clubs.people(club_id)
        return [player_out(p, people) for p in clubs.players(club_id)]

    @patch(
        "/{club_id:str}/players/{player_id:str}",
        sync_to_thread=True,
        summary="Rename a player, change their note, retire them or bring them back",
    )
    def change_player(
        self, club_id: FromPath[str], player_id: FromPath[str], data: JSONBody[PlayerChange], state: State
    ) -> PlayerOut:
        clubs = Clubs.of(state.records)
        p = clubs.change_player(club_id, player_id, name=data.name, note=data.note, retired=data.retired)
        get_logger(club_id=club_id).info("player.changed", player_id=player_id, retired=p.retired_at is not None)
        return player_out(p, clubs.people(club_id))

    @post(
        "/{club_id:str}/players/{player_id:str}/merge",
        sync_to_thread=True,
        summary="Merge two records of one person: the player's games count as `into`'s in every table",
        description="Recorded with the key and the time (see the merges); no game or event is changed, and "
        "standings, ratings, campaigns and player pages read the ids through the merge.",
    )
    def merge_player(
        self,
        club_id: FromPath[str],
        player_id: FromPath[str],
        data: JSONBody[MergeIn],
        context: NamedDependency[RequestContext],
    ) -> MergeOut:
        merge = Clubs.of(context.records).merge(context.recorder, player_id, data.into)
        get_logger(club_id=club_id).info("player.merged", player_id=player_id, into_id=merge.into_id)
        return MergeOut.of(merge)

    @get("/{club_id:str}/player-merges", sync_to_thread=True, summary="The club's merges of players, oldest first")
    def list_merges(self, club_id: FromPath[str], state: State) -> list[MergeOut]:
        return [MergeOut.of(m) for m in Clubs.of(state.records).merges(club_id)]

    @post(
        "/{club_id:str}/resources/{ruleset:str}/{kind:str}/{resource_id:str}",
        summary="Import a club resource (a card catalogue, a scenario) as a new immutable version",
        description="The request body is the file itself (CSV, .m44 JSON...), read as bytes whatever its "
        "content type, and validated row by row.",
    )
    async def import_resource(
        self,
        club_id: FromPath[str],
        ruleset: FromPath[str],
        kind: FromPath[str],
        resource_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> ResourceOut:
        # Read as bytes ourselves: a JSON scenario must not be parsed as a request body. One import at a
        # time in a process (`app.state.imports`), body included, bounds what the parsers hold at once;
        # the body is read from the stream (`request.body()` would keep it on the request until the answer
        # is sent) and let go, with what parsing it freed, before the next import starts.
        async with one_import(request.app.state.imports):
            data = b"".join([chunk async for chunk in request.stream()])
            try:
                stored = await anyio.to_thread.run_sync(
                    context.records.import_resource, club_id, ruleset, kind, resource_id, data
                )
            finally:
                del data
        get_logger(club_id=club_id).info(
            "resource.imported", ruleset=ruleset, kind=kind, resource_id=resource_id, version=stored.version
        )
        return ResourceOut(
            ruleset=stored.ruleset,
            kind=stored.kind,
            resource_id=stored.resource_id,
            version=stored.version,
            content_hash=stored.content_hash,
            created_at=stored.created_at,
        )

    @get(
        "/{club_id:str}/resources/{ruleset:str}/{kind:str}/{resource_id:str}/versions/{version:int}",
        sync_to_thread=True,
        summary="One version of a club resource: it never changes (ETag, Cache-Control: immutable, 304)",
    )
    def resource_version(
        self,
        request: Request[Any, Any, Any],
        club_id: FromPath[str],
        ruleset: FromPath[str],
        kind: FromPath[str],
        resource_id: FromPath[str],
        version: Annotated[int, PathParameter(ge=1, le=MAX_INT)],
        state: State,
    ) -> Response[ResourceVersionOut]:
        """A version is stored once and never changed (a new import makes a new version), so the answer
        carries a strong `ETag` and `Cache-Control: immutable`; asked again with `If-None-Match` naming the
        tag, it is a `304` without the body."""
        found = Clubs.of(state.records).resource(club_id, ruleset, kind, resource_id, version)
        out = ResourceVersionOut(
            ruleset=found.ruleset,
            kind=found.kind,
            resource_id=found.resource_id,
            version=found.version,
            content_hash=found.content_hash,
            created_at=found.created_at,
            content=found.content,
        )
        return immutable(request, out)

    @get("/{club_id:str}/resources", sync_to_thread=True, summary="The club's imported resources")
    def list_resources(self, club_id: FromPath[str], state: State) -> list[ResourceOut]:
        return [
            ResourceOut(
                ruleset=r.ruleset,
                kind=r.kind,
                resource_id=r.resource_id,
                version=r.version,
                content_hash=r.content_hash,
                created_at=r.created_at,
            )
            for r in Clubs.of(state.records).resources(club_id)
        ]
