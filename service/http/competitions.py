"""The HTTP API of tournaments: a club event of rounds whose pairings tablelog makes.

A tournament is its own stream of events in the event store (`tournament/<club>/<id>`): creation,
entries, withdrawals, each round's pairings as they were made, re-pairings and the games attached to
tables. Every change is checked against the tournament folded from its stream (`projections.tournaments`)
and appended at the version it was read at, so two scorekeepers never pair one round twice (409), and
each event keeps the key that recorded it. Standings after any round are folds over the game summaries
of the attached games, like a league's. The service never names a game: the ruleset contract says how
many players a game takes and whether its seats are sides.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import Body, FromPath, JSONBody, QueryParameter

from projections.contract import player_counts, score_scale, seat_sides
from projections.errors import ProjectionError
from projections.ratings import RatingPoint
from projections.standings import Removal, Scoring, Standings
from projections.tournaments import (
    EVENT_DECODER,
    GameAttached,
    PlayerEntered,
    PlayerWithdrew,
    Round,
    RoundUnpaired,
    System,
    Tournament,
    TournamentCreated,
    TournamentEvent,
    apply,
    check,
    check_definition,
    fold,
    pair,
    ranking,
    tournament_standings,
)
from service.http.guards import GUARDS, PUBLIC
from service.http.projections import counted_ids, league_games
from service.store.base import AppendRequest, CollectionKind, NewEvent, Recorder, Store, StreamId
from service.usecases.games import GameRecords, NotFound

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


def stream_id(club_id: str, tournament_id: str) -> StreamId:
    return StreamId(f"tournament/{club_id}/{tournament_id}")


def _load(store: Store, club_id: str, tournament_id: str) -> tuple[Tournament, int]:
    stored = store.read_stream(stream_id(club_id, tournament_id))
    if not stored:
        raise NotFound("tournament", tournament_id)
    return fold(EVENT_DECODER.decode(e.data) for e in stored), len(stored)


def _record(
    store: Store,
    recorder: Recorder,
    tournament_id: str,
    state: Tournament | None,
    version: int,
    events: list[TournamentEvent],
) -> TournamentOut:
    """Check each event against the tournament, then append them all at the version they were read at."""
    for event in events:
        check(state, event)
        state = apply(state, event)
    assert state is not None
    store.append(
        AppendRequest(
            stream_id(recorder.club_id, tournament_id),
            [
                NewEvent(type=type(e).__struct_config__.tag, schema_version=1, data=msgspec.json.encode(e))  # type: ignore[arg-type]
                for e in events
            ],
            version,
            recorded_by=recorder,
        )
    )
    return TournamentOut(tournament=state, version=version + len(events))


def _standings(records: GameRecords, club_id: str, state: Tournament, after_round: int | None) -> Standings:
    game_ids = [t.game_id for r in state.rounds for t in r.tables if t.game_id is not None]
    games = {g.game_id: g for g in league_games(game_ids, records.store.game_summaries(club_id, game_ids))}
    scale = score_scale(records.rulesets.get(state.definition.ruleset))
    return tournament_standings(state, games, after_round, scale=scale)


def _unfinished_tables(records: GameRecords, club_id: str, paired: Round) -> list[int]:
    game_ids = [t.game_id for t in paired.tables if t.game_id is not None]
    summaries = records.store.game_summaries(club_id, game_ids)
    return [
        t.table
        for t in paired.tables
        if t.game_id is None or t.game_id not in summaries or not summaries[t.game_id].outcome.finished
    ]


class TournamentController(Controller):
    path = "/clubs/{club_id:str}/tournaments"
    tags = ("tournaments",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a tournament (refused with 422 when its game cannot be paired so)")
    def create(
        self,
        club_id: FromPath[str],
        data: JSONBody[TournamentIn],
        recorder: NamedDependency[Recorder],
        records: NamedDependency[GameRecords],
    ) -> TournamentOut:
        ruleset = records.rulesets.get(data.ruleset)
        scoring = data.scoring
        bye = data.bye_points
        if bye is None:
            bye = scoring.win_draw_loss[0] if scoring.win_draw_loss else scoring.placement_points.get(1, 0)
        definition = TournamentCreated(
            tournament_id=data.tournament_id,
            ruleset=data.ruleset,
            system=data.system,
            title=data.title,
            seed=data.seed,
            scoring=scoring,
            tie_breaks=data.tie_breaks,
            table_sizes=data.table_sizes,
            sides=seat_sides(ruleset) is not None,
            bye_points=bye,
        )
        check_definition(definition, player_counts(ruleset))
        created = _record(records.store, recorder, data.tournament_id, None, 0, [definition])
        # Listed once its stream exists (a second creation is a version conflict before this).
        records.store.create_collection("tournament", club_id, data.tournament_id, msgspec.json.encode(definition))
        return created

    @get("/", sync_to_thread=True, summary="The club's tournaments", opt=PUBLIC)
    def list_tournaments(
        self, club_id: FromPath[str], records: NamedDependency[GameRecords]
    ) -> list[TournamentCreated]:
        return [
            msgspec.json.decode(c.definition, type=TournamentCreated)
            for c in records.store.list_collections("tournament", club_id)
        ]

    @get(
        "/{tournament_id:str}", sync_to_thread=True, summary="A tournament: entrants, rounds, tables, games", opt=PUBLIC
    )
    def read(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        records: NamedDependency[GameRecords],
    ) -> TournamentOut:
        state, version = _load(records.store, club_id, tournament_id)
        return TournamentOut(tournament=state, version=version)

    @get("/{tournament_id:str}/events", sync_to_thread=True, summary="The tournament's events, who recorded each")
    def events(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        records: NamedDependency[GameRecords],
    ) -> TournamentEventsOut:
        stored = records.store.read_stream(stream_id(club_id, tournament_id))
        if not stored:
            raise NotFound("tournament", tournament_id)
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
        recorder: NamedDependency[Recorder],
        records: NamedDependency[GameRecords],
    ) -> TournamentOut:
        state, version = _load(records.store, club_id, tournament_id)
        found = records.store.get_players(club_id, [data.player_id])
        if not found:
            raise NotFound("player", data.player_id)
        event = PlayerEntered(player_id=data.player_id, name=found[0].name)
        return _record(records.store, recorder, tournament_id, state, version, [event])

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
        recorder: NamedDependency[Recorder],
        records: NamedDependency[GameRecords],
    ) -> TournamentOut:
        state, version = _load(records.store, club_id, tournament_id)
        event = PlayerWithdrew(player_id=player_id, reason=data.reason)
        return _record(records.store, recorder, tournament_id, state, version, [event])

    @post("/{tournament_id:str}/rounds", sync_to_thread=True, summary="Pair the next round from the standings")
    def pair_next(
        self,
        club_id: FromPath[str],
        tournament_id: FromPath[str],
        recorder: NamedDependency[Recorder],
        records: NamedDependency[GameRecords],
    ) -> TournamentOut:
        """Refused (422 `round_not_finished`) while a table of the latest round has no finished game."""
        state, version = _load(records.store, club_id, tournament_id)
        if state.rounds:
            waiting = _unfinished_tables(records, club_id, state.rounds[-1])
            if waiting:
                raise ProjectionError(
                    "round_not_finished",
                    f"Round {len(state.rounds)} is not finished: table(s) "
                    f"{', '.join(map(str, waiting))} have no finished game.",
                    round=len(state.rounds),
                    tables=waiting,
                )
        paired = pair(state, self._order(records, club_id, state))
        return _record(records.store, recorder, tournament_id, state, version, [paired])

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
        recorder: NamedDependency[Recorder],
        records: NamedDependency[GameRecords],
    ) -> TournamentOut:
        """Its games are detached; the round is paired from the standings as they are now."""
        state, version = _load(records.store, club_id, tournament_id)
        unpaired = RoundUnpaired(round=number, reason=data.reason)
        check(state, unpaired)
        before = apply(state, unpaired)
        paired = pair(before, self._order(records, club_id, before))
        return _record(records.store, recorder, tournament_id, state, version, [unpaired, paired])

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
        recorder: NamedDependency[Recorder],
        records: NamedDependency[GameRecords],
    ) -> TournamentOut:
        """The game is of the tournament's ruleset and played by the table's players; in a two-sided
        game, in the seats the pairing gave (422 `wrong_seats` otherwise)."""
        state, version = _load(records.store, club_id, tournament_id)
        event = GameAttached(round=number, table=table, game_id=data.game_id)
        check(state, event)
        seats = next(t.seats for t in state.rounds[number - 1].tables if t.table == table)
        record = records.game(club_id, data.game_id)
        if record.ruleset != state.definition.ruleset:
            raise ProjectionError(
                "wrong_ruleset",
                f"Game {data.game_id} is of {record.ruleset}, not {state.definition.ruleset}.",
                game_id=data.game_id,
            )
        played = tuple(record.player_ids)
        if sorted(played) != sorted(seats) or (state.definition.sides and played != seats):
            names = state.names()
            expected = ", ".join(names.get(p, p) for p in seats)
            raise ProjectionError(
                "wrong_seats" if sorted(played) == sorted(seats) else "wrong_players",
                f"Table {table} of round {number} is {expected}"
                + (", in that seat order." if state.definition.sides else "."),
                game_id=data.game_id,
                seats=list(seats),
                played=list(played),
            )
        return _record(records.store, recorder, tournament_id, state, version, [event])

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
        records: NamedDependency[GameRecords],
        round: Annotated[int | None, QueryParameter(ge=0, description="after this round (default: the latest)")] = None,
    ) -> Standings:
        state, _ = _load(records.store, club_id, tournament_id)
        return _standings(records, club_id, state, round)

    @staticmethod
    def _order(records: GameRecords, club_id: str, state: Tournament) -> list[str]:
        table = _standings(records, club_id, state, None) if state.rounds else None
        return ranking(state.active, table, state.definition.seed)


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
        records: NamedDependency[GameRecords],
    ) -> RatingsOut:
        """OpenSkill (Plackett–Luce) ratings from every finished game of the club, kept by the projector
        and derived again when a correction changes a rated game."""
        records.rulesets.get(ruleset)
        return RatingsOut(ruleset=ruleset, players=self._rows(records, club_id, ruleset))

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
        records: NamedDependency[GameRecords],
    ) -> RatingHistoryOut:
        records.rulesets.get(ruleset)
        found = records.store.get_players(club_id, [player_id])
        if not found:
            raise NotFound("player", player_id)
        current = next((r for r in self._rows(records, club_id, ruleset) if r.player_id == player_id), None)
        return RatingHistoryOut(
            ruleset=ruleset,
            player_id=player_id,
            name=found[0].name,
            current=current,
            history=records.store.rating_history(club_id, ruleset, player_id),
        )

    @staticmethod
    def _rows(records: GameRecords, club_id: str, ruleset: str) -> list[RatingRow]:
        ratings = records.store.player_ratings(club_id, ruleset)
        names = {p.player_id: p.name for p in records.store.get_players(club_id, list(ratings))}
        ordered = sorted(ratings.values(), key=lambda r: (-r.skill.rating, names.get(r.player_id, r.player_id)))
        return [
            RatingRow(
                rank=n,
                player_id=r.player_id,
                name=names.get(r.player_id, r.player_id),
                rating=r.skill.rating,
                mu=r.skill.mu,
                sigma=r.skill.sigma,
                games=r.games,
                last_game=r.last_game,
            )
            for n, r in enumerate(ordered, start=1)
        ]


class RemovalIn(msgspec.Struct, frozen=True, kw_only=True):
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


class RemovalsOut(msgspec.Struct, frozen=True, kw_only=True):
    """A league's or campaign's games taken out and put back (oldest first), and the games it counts."""

    removals: tuple[Removal, ...]
    counted_game_ids: tuple[str, ...]


def _change(
    records: GameRecords,
    recorder: Recorder,
    kind: CollectionKind,
    collection_id: str,
    game_id: str,
    action: Literal["removed", "restored"],
    reason: str,
) -> RemovalsOut:
    found = records.store.get_collection(kind, recorder.club_id, collection_id)
    if found is None:
        raise NotFound(kind, collection_id)
    if game_id not in found.game_ids:
        raise NotFound(f"game of this {kind}", game_id)
    counted, _ = counted_ids(records, kind, recorder.club_id, collection_id, found.game_ids)
    if (game_id in counted) != (action == "removed"):
        state = "counted" if game_id in counted else "taken out"
        raise ProjectionError(
            f"already_{'restored' if game_id in counted else 'removed'}",
            f"Game {game_id} is already {state} in this {kind}.",
            game_id=game_id,
        )
    removal = Removal(
        game_id=game_id, action=action, reason=reason, key_id=recorder.key_id, recorded_at=datetime.now(UTC)
    )
    records.store.record_removal(kind, recorder.club_id, collection_id, removal)
    counted, history = counted_ids(records, kind, recorder.club_id, collection_id, found.game_ids)
    return RemovalsOut(removals=history, counted_game_ids=counted)


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
        recorder: NamedDependency[Recorder],
        records: NamedDependency[GameRecords],
    ) -> RemovalsOut:
        action = _ACTIONS.get(change)
        if action is None:
            raise NotFound("change (removal or restoration)", change)
        return _change(records, recorder, _kind(request), collection_id, game_id, action, data.reason)


_ACTIONS: dict[str, Literal["removed", "restored"]] = {"removal": "removed", "restoration": "restored"}


def _kind(request: Request[Any, Any, Any]) -> CollectionKind:
    """`league` or `campaign`, from the path (/clubs/{club}/leagues/... or /clubs/{club}/campaigns/...)."""
    return "league" if request.url.path.split("/")[3] == "leagues" else "campaign"


HANDLERS: list[Any] = [TournamentController, RatingsController, RemovalController]
