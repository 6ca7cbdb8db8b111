"""The HTTP API of tournaments (a club event of rounds whose pairings tablelog makes, kept as its own
event stream: `service.usecases.tournaments`) and of the club's ratings (`service.usecases.ratings`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, get, post
from litestar.di import NamedDependency
from litestar.params import Body, FromPath, JSONBody, QueryParameter

from projections.ratings import RatingPoint
from projections.standings import Scoring, Standings
from projections.tournaments import EVENT_DECODER, System, Tournament, TournamentCreated, TournamentEvent
from service.http.dependencies import RequestContext
from service.http.guards import GUARDS, PUBLIC
from service.usecases.games import GameRecords
from service.usecases.ratings import ClubRatings
from service.usecases.tournaments import Read, Tournaments

_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"


class TournamentIn(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament: the game, the pairing system (`round_robin` or `swiss` for two-player games,
    `tables` for multiplayer games), how games give points and the tie-break chain (as a league's),
    table sizes for `tables` (default 3 to 5), the seed that orders equals (default 0), and the points
    a bye gives (default: a win's, or first place's)."""

    tournament_id: Annotated[str, msgspec.Meta(pattern=_ID)]
    ruleset: str
    system: System
    title: Annotated[str, msgspec.Meta(max_length=200)] = ""
    scoring: Scoring
    tie_breaks: tuple[str, ...] = ("points",)
    table_sizes: tuple[Annotated[int, msgspec.Meta(ge=2, le=12)], Annotated[int, msgspec.Meta(ge=2, le=12)]] = (3, 5)
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**31)] = 0
    bye_points: Annotated[int, msgspec.Meta(ge=0)] | None = None


class TournamentOut(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament as its events left it, at stream version `version`."""

    tournament: Tournament
    version: int


class EntryIn(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str


class ReasonIn(msgspec.Struct, frozen=True, kw_only=True):
    reason: Annotated[str, msgspec.Meta(max_length=500)] = ""


class GameRef(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str


# Two structs are named GameRef; litestar would name their components after the modules they live in, so
# the published names are pinned here and moving a module leaves the OpenAPI document as it is.
GameRefIn = Annotated[GameRef, Body(schema_component_key="api_competitions_GameRef")]


class RecordedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One event of a tournament's stream, with when and by which key it was recorded."""

    version: int
    recorded_at: datetime
    key_id: str | None
    event: TournamentEvent


class TournamentEventsOut(msgspec.Struct, frozen=True, kw_only=True):
    tournament_id: str
    events: list[RecordedEvent]


def _out(read: Read) -> TournamentOut:
    return TournamentOut(tournament=read[0], version=read[1])


class TournamentController(Controller):
    path = "/clubs/{club_id:str}/tournaments"
    tags = ("tournaments",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a tournament (refused with 422 when its game cannot be paired so)")
    def create(
        self,
        club_id: FromPath[str],
        data: JSONBody[TournamentIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).create(context.recorder, **msgspec.structs.asdict(data)))

    @get("/", sync_to_thread=True, summary="The club's tournaments", opt=PUBLIC)
    def list_tournaments(
        self, club_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> list[TournamentCreated]:
        return Tournaments.of(context.records).listed(club_id)

    @get(
        "/{tournament_id:str}", sync_to_thread=True, summary="A tournament: entrants, rounds, tables, games", opt=PUBLIC
    )
    def read(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        return _out(Tournaments.of(context.records).load(club_id, tournament_id))

    @get("/{tournament_id:str}/events", sync_to_thread=True, summary="The tournament's events, who recorded each")
    def events(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> TournamentEventsOut:
        stored = Tournaments.of(context.records).events(club_id, tournament_id)
        return TournamentEventsOut(
            tournament_id=tournament_id,
            events=[
                RecordedEvent(
                    version=e.version, recorded_at=e.recorded_at, key_id=e.key_id, event=EVENT_DECODER.decode(e.data)
                )
                for e in stored
            ],
        )

    @post(
        "/{tournament_id:str}/players",
        sync_to_thread=True,
        summary="Enter a club player (late entries are paired from the next round)",
    )
    def enter(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        data: JSONBody[EntryIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).enter(context.recorder, tournament_id, data.player_id))

    @post(
        "/{tournament_id:str}/players/{player_id:str}/withdrawal",
        sync_to_thread=True,
        summary="Withdraw a player: not paired again; games played still count",
    )
    def withdraw(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        player_id: FromPath[str],
        data: JSONBody[ReasonIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).withdraw(context.recorder, tournament_id, player_id, data.reason))

    @post("/{tournament_id:str}/rounds", sync_to_thread=True, summary="Pair the next round from the standings")
    def pair_next(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """Refused (422 `round_not_finished`) while a table of the latest round has no finished game."""
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).pair_next(context.recorder, tournament_id))

    @post(
        "/{tournament_id:str}/rounds/{number:int}/repairing",
        sync_to_thread=True,
        summary="Pair the latest round again (after a correction changed an earlier result)",
    )
    def pair_again(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        data: JSONBody[ReasonIn],
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """Its games are detached; the round is paired from the standings as they are now."""
        del club_id  # the recorder's
        return _out(Tournaments.of(context.records).pair_again(context.recorder, tournament_id, number, data.reason))

    @post(
        "/{tournament_id:str}/rounds/{number:int}/tables/{table:int}/game",
        sync_to_thread=True,
        summary="Attach the game played at a table",
    )
    def attach(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        number: FromPath[int],
        table: FromPath[int],
        data: GameRefIn,
        context: NamedDependency[RequestContext],
    ) -> TournamentOut:
        """The game is of the tournament's ruleset and played by the table's players; in a two-sided
        game, in the seats the pairing gave (422 `wrong_seats` otherwise)."""
        del club_id  # the recorder's
        return _out(
            Tournaments.of(context.records).attach(context.recorder, tournament_id, number, table, data.game_id)
        )

    @get(
        "/{tournament_id:str}/standings",
        sync_to_thread=True,
        summary="The standings after a round, explained",
        opt=PUBLIC,
    )
    def read_standings(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        context: NamedDependency[RequestContext],
        round: Annotated[int | None, QueryParameter(ge=0, description="after this round (default: the latest)")] = None,
    ) -> Standings:
        tournaments = Tournaments.of(context.records)
        state, _ = tournaments.load(club_id, tournament_id)
        return tournaments.standings(club_id, state, round)


class RatingRow(msgspec.Struct, frozen=True, kw_only=True):
    """A player's club rating for one game: `rating` (mu - 3 sigma) is the number to read."""

    rank: int
    player_id: str
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    last_game: str


class RatingsOut(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    players: list[RatingRow]


class RatingHistoryOut(msgspec.Struct, frozen=True, kw_only=True):
    """A player's rating after every rated game of one ruleset, oldest first."""

    ruleset: str
    player_id: str
    name: str
    current: RatingRow | None
    history: list[RatingPoint]


class RatingsController(Controller):
    path = "/clubs/{club_id:str}/ratings"
    tags = ("ratings",)
    guards = GUARDS

    @get("/{ruleset:str}", sync_to_thread=True, summary="The club's ratings for a game, best first", opt=PUBLIC)
    def read(
        self,
        club_id: FromPath[str],
        ruleset: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> RatingsOut:
        """OpenSkill (Plackett–Luce) ratings from every finished game of the club, kept by the projector
        and derived again when a correction changes a rated game."""
        context.records.rulesets.get(ruleset)
        return RatingsOut(ruleset=ruleset, players=self._rows(context.records, club_id, ruleset))

    @get(
        "/{ruleset:str}/{player_id:str}",
        sync_to_thread=True,
        summary="A player's rating history for a game",
        opt=PUBLIC,
    )
    def history(
        self,
        club_id: FromPath[str],
        ruleset: FromPath[str],
        player_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> RatingHistoryOut:
        context.records.rulesets.get(ruleset)
        ratings = ClubRatings.of(context.records)
        name = ratings.player_name(club_id, player_id)
        current = next((r for r in self._rows(context.records, club_id, ruleset) if r.player_id == player_id), None)
        return RatingHistoryOut(
            ruleset=ruleset,
            player_id=player_id,
            name=name,
            current=current,
            history=ratings.history(club_id, ruleset, player_id),
        )

    @staticmethod
    def _rows(records: GameRecords, club_id: str, ruleset: str) -> list[RatingRow]:
        return [
            RatingRow(
                rank=n,
                player_id=r.player_id,
                name=name,
                rating=r.skill.rating,
                mu=r.skill.mu,
                sigma=r.skill.sigma,
                games=r.games,
                last_game=r.last_game,
            )
            for n, (r, name) in enumerate(ClubRatings.of(records).table(club_id, ruleset), start=1)
        ]


HANDLERS: list[Any] = [TournamentController, RatingsController]
