"""The HTTP API of a club's collections of games: leagues and their standings, campaigns and their
status, and taking a game out of either (and putting it back). One use case serves both
(`service.usecases.collections`); the controllers parse, and say which kind the path names.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, Generic, Literal, TypeVar, cast

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import Body, FromPath, JSONBody, QueryParameter

from projections.campaigns import Campaign, CampaignStatus
from projections.standings import League, Removal, Scoring, Standings
from service.http.dependencies import RequestContext
from service.http.guards import GUARDS, PUBLIC
from service.limits import ID_PATTERN
from service.usecases.collections import ClubCollections
from service.usecases.games import NotFound
from service.usecases.types import CollectionKind

_ID = ID_PATTERN


class LeagueIn(msgspec.Struct, frozen=True, kw_only=True):
    """A league: one ruleset, its members (club player ids), its period (inclusive), how games give
    points, and the tie-break chain applied in order (criteria: points, wins, score,
    score_difference, head_to_head, sonneborn_berger, buchholz, games_played)."""

    league_id: Annotated[str, msgspec.Meta(pattern=_ID)]
    ruleset: str
    members: tuple[str, ...]
    starts: date
    ends: date
    scoring: Scoring
    tie_breaks: tuple[str, ...] = ("points",)
    automatic: Annotated[
        bool,
        msgspec.Meta(
            description="take every finished game of the league's ruleset and period by itself, with nobody "
            "assigning it (a game can still be taken out with a reason; a correction that un-finishes a game "
            "takes it out)"
        ),
    ] = False


class LeagueOut(msgspec.Struct, frozen=True, kw_only=True):
    league: League
    game_ids: tuple[str, ...]


class CampaignIn(msgspec.Struct, frozen=True, kw_only=True):
    """A series of games with the same players towards the ruleset's target."""

    campaign_id: Annotated[str, msgspec.Meta(pattern=_ID)]
    ruleset: str
    players: tuple[str, ...]
    automatic: Annotated[
        bool,
        msgspec.Meta(
            description="take every finished game of the campaign's ruleset played by exactly its players by "
            "itself, with nobody assigning it (a game can still be taken out with a reason)"
        ),
    ] = False


class CampaignOut(msgspec.Struct, frozen=True, kw_only=True):
    campaign: Campaign
    game_ids: tuple[str, ...]


class GameRef(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str


# Two structs are named GameRef; litestar would name their components after the modules they live in, so
# the published names are pinned here and moving a module leaves the OpenAPI document as it is.
GameRefIn = Annotated[GameRef, Body(schema_component_key="api_projections_GameRef")]

D = TypeVar("D", League, Campaign)
Out = TypeVar("Out", LeagueOut, CampaignOut)


class CollectionRoutes(Generic[D, Out]):
    """What the league and campaign routes do, over the collection kind: the two controllers below only
    name their routes (their operation ids and documented parameters are the API's) and call these."""

    def __init__(self, kind: CollectionKind, out: Callable[[D, tuple[str, ...]], Out]) -> None:
        self.kind = kind
        self.out: Callable[[D, tuple[str, ...]], Out] = out

    def create(self, context: RequestContext, club_id: str, definition: D) -> Out:
        ClubCollections.of(context.records).create(club_id, definition)
        return self.out(definition, ())

    def listed(self, context: RequestContext, club_id: str) -> list[Out]:
        listed = ClubCollections.of(context.records).listed(self.kind, club_id)
        return [self.out(cast(D, definition), ids) for definition, ids in listed]

    def one(self, context: RequestContext, club_id: str, collection_id: str) -> Out:
        definition, ids = ClubCollections.of(context.records).found(self.kind, club_id, collection_id)
        return self.out(cast(D, definition), ids)

    def assign(self, context: RequestContext, club_id: str, collection_id: str, game_id: str) -> Out:
        ClubCollections.of(context.records).assign(self.kind, club_id, collection_id, game_id)
        return self.one(context, club_id, collection_id)


LEAGUES = CollectionRoutes[League, LeagueOut]("league", lambda d, ids: LeagueOut(league=d, game_ids=ids))
CAMPAIGNS = CollectionRoutes[Campaign, CampaignOut]("campaign", lambda d, ids: CampaignOut(campaign=d, game_ids=ids))


class LeagueController(Controller):
    path = "/clubs/{club_id:str}/leagues"
    tags = ("leagues",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a league (refused with 422 when it cannot be ranked)")
    def create_league(
        self, club_id: FromPath[str], data: JSONBody[LeagueIn], context: NamedDependency[RequestContext]
    ) -> LeagueOut:
        return LEAGUES.create(context, club_id, League(**msgspec.structs.asdict(data)))

    @get("/", sync_to_thread=True, summary="The club's leagues", opt=PUBLIC)
    def list_leagues(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> list[LeagueOut]:
        return LEAGUES.listed(context, club_id)

    @get("/{league_id:str}", sync_to_thread=True, summary="A league and its games", opt=PUBLIC)
    def get_league(
        self, club_id: FromPath[str], league_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> LeagueOut:
        return LEAGUES.one(context, club_id, league_id)

    @post("/{league_id:str}/games", sync_to_thread=True, summary="Assign a finished game to the league")
    def assign_game(
        self,
        club_id: FromPath[str],
        league_id: FromPath[str],
        data: GameRefIn,
        context: NamedDependency[RequestContext],
    ) -> LeagueOut:
        return LEAGUES.assign(context, club_id, league_id, data.game_id)

    @get(
        "/{league_id:str}/standings",
        sync_to_thread=True,
        summary="The league table as of a date, explained",
        opt=PUBLIC,
    )
    def read_standings(
        self,
        club_id: FromPath[str],
        league_id: FromPath[str],
        context: NamedDependency[RequestContext],
        as_of: Annotated[
            date | None, QueryParameter(description="count games finished on or before this date (default: all)")
        ] = None,
    ) -> Standings:
        """Rows ranked by the league's chain, why each row is above the next, and how every game counted."""
        return ClubCollections.of(context.records).standings(club_id, league_id, as_of)


class CampaignController(Controller):
    path = "/clubs/{club_id:str}/campaigns"
    tags = ("campaigns",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a campaign: a series of games with the same players")
    def create_campaign(
        self, club_id: FromPath[str], data: JSONBody[CampaignIn], context: NamedDependency[RequestContext]
    ) -> CampaignOut:
        return CAMPAIGNS.create(context, club_id, Campaign(**msgspec.structs.asdict(data)))

    @get("/", sync_to_thread=True, summary="The club's campaigns", opt=PUBLIC)
    def list_campaigns(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> list[CampaignOut]:
        return CAMPAIGNS.listed(context, club_id)

    @get("/{campaign_id:str}", sync_to_thread=True, summary="A campaign and its games", opt=PUBLIC)
    def get_campaign(
        self, club_id: FromPath[str], campaign_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> CampaignOut:
        return CAMPAIGNS.one(context, club_id, campaign_id)

    @post("/{campaign_id:str}/games", sync_to_thread=True, summary="Add the next game of the campaign")
    def assign_game(
        self,
        club_id: FromPath[str],
        campaign_id: FromPath[str],
        data: GameRefIn,
        context: NamedDependency[RequestContext],
    ) -> CampaignOut:
        return CAMPAIGNS.assign(context, club_id, campaign_id, data.game_id)

    @get(
        "/{campaign_id:str}/status",
        sync_to_thread=True,
        summary="Cumulative totals after every game, next dealer or starter, finished, winner",
        opt=PUBLIC,
    )
    def read_status(
        self, club_id: FromPath[str], campaign_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> CampaignStatus:
        return ClubCollections.of(context.records).status(club_id, campaign_id, words=context.words)[3]


class RemovalIn(msgspec.Struct, frozen=True, kw_only=True):
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


class RemovalsOut(msgspec.Struct, frozen=True, kw_only=True):
    """A league's or campaign's games taken out and put back (oldest first), and the games it counts."""

    removals: tuple[Removal, ...]
    counted_game_ids: tuple[str, ...]


class RemovalController(Controller):
    """Taking a game out of a league or campaign, and putting it back, each recorded with who and why.
    One route serves leagues and campaigns: the collection's kind is the path's."""

    path = "/clubs/{club_id:str}"
    tags = ("leagues", "campaigns")
    guards = GUARDS

    @post(
        [
            "/leagues/{collection_id:str}/games/{game_id:str}/{change:str}",
            "/campaigns/{collection_id:str}/games/{game_id:str}/{change:str}",
        ],
        sync_to_thread=True,
        summary="Take a game out of a league or campaign (`removal`) or put it back (`restoration`), "
        "recorded with who and why",
    )
    def change(
        self,
        request: Request[Any, Any, Any],
        club_id: FromPath[str],
        collection_id: FromPath[str],
        game_id: FromPath[str],
        change: FromPath[str],
        data: JSONBody[RemovalIn],
        context: NamedDependency[RequestContext],
    ) -> RemovalsOut:
        action = _ACTIONS.get(change)
        if action is None:
            raise NotFound("change (removal or restoration)", change)
        removals, counted = ClubCollections.of(context.records).change(
            context.recorder, _kind(request), collection_id, game_id, action, data.reason
        )
        return RemovalsOut(removals=removals, counted_game_ids=counted)


_ACTIONS: dict[str, Literal["removed", "restored"]] = {"removal": "removed", "restoration": "restored"}


def _kind(request: Request[Any, Any, Any]) -> CollectionKind:
    """`league` or `campaign`, from the path (/clubs/{club}/leagues/... or /clubs/{club}/campaigns/...)."""
    return "league" if request.url.path.split("/")[3] == "leagues" else "campaign"


HANDLERS = [LeagueController, CampaignController]
REMOVALS = [RemovalController]
"""Registered after the tournaments and ratings, where the OpenAPI document has always listed them."""
