"""The HTTP API of projections: replays, live spectating (server-sent events), leagues and their
standings, campaigns, and what a correction changed in them.

Standings and campaigns are pure folds (`projections.standings`, `projections.campaigns`) over the
game summaries the projector keeps, so they follow a correction as soon as the projector has applied
it (`/ready` shows the lag). Replays fold the game's own stream, seeking from the stored snapshots.
The service never names a game: everything goes through the ruleset found by name.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Sequence
from datetime import date
from typing import Annotated, Any, Literal

import anyio
import msgspec
from litestar import Controller, get, post, put
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import Body, FromPath, FromQuery, HeaderParameter, JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage

from domain.record import GameStarted, decoder
from domain.ruleset import Result, Ruleset, Viewer
from projections.campaigns import Campaign, CampaignGame, CampaignStatus, admit, campaign_status
from projections.changes import CampaignChanges, StandingsChanges, campaign_changes, standings_changes
from projections.contract import check_player_count, score_scale
from projections.errors import ProjectionError
from projections.replay import (
    Replay,
    Snapshot,
    StepView,
    decode_snapshot,
    replay,
    snapshots_for,
    view_at,
)
from projections.standings import League, LeagueGame, Removal, Scoring, Standings, check_league, standings
from service.http.dependencies import viewer_of
from service.http.guards import GUARDS, PUBLIC, spectator_horizon
from service.i18n import Translator
from service.limits import ID_PATTERN, MAX_INT
from service.logs import get_logger
from service.projector import snapshot_row
from service.store.base import CollectionKind, GameRecord, GameSummary, Outcome, SpectatorDelay, Store, StreamId
from service.usecases.access import Principal, Watch
from service.usecases.games import GameRecords, NotFound, check_seat
from service.usecases.live import Live

_ID = ID_PATTERN


# -- wire structs -----------------------------------------------------------------------------------
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


class LeagueOut(msgspec.Struct, frozen=True, kw_only=True):
    league: League
    game_ids: tuple[str, ...]


class CampaignIn(msgspec.Struct, frozen=True, kw_only=True):
    """A series of games with the same players towards the ruleset's target."""

    campaign_id: Annotated[str, msgspec.Meta(pattern=_ID)]
    ruleset: str
    players: tuple[str, ...]


class CampaignOut(msgspec.Struct, frozen=True, kw_only=True):
    campaign: Campaign
    game_ids: tuple[str, ...]


class GameRef(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str


# Two structs are named GameRef; litestar would name their components after the modules they live in, so
# the published names are pinned here and moving a module leaves the OpenAPI document as it is.
GameRefIn = Annotated[GameRef, Body(schema_component_key="api_projections_GameRef")]


class LeagueChange(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    changes: StandingsChanges


class CampaignChange(msgspec.Struct, frozen=True, kw_only=True):
    campaign_id: str
    changes: CampaignChanges


class GameChangesOut(msgspec.Struct, frozen=True, kw_only=True):
    """What a correction of a finished game changed: its outcome before and after, and every league
    table and campaign the game belongs to. `correction_version` is null when no correction changed
    the game's outcome (the lists are then empty)."""

    game_id: str
    correction_version: int | None
    corrections: tuple[int, ...]
    before: Outcome | None = None
    after: Outcome | None = None
    standings: tuple[LeagueChange, ...] = ()
    campaigns: tuple[CampaignChange, ...] = ()


class DelayIn(msgspec.Struct, frozen=True, kw_only=True):
    """Spectators see the game `events` events and / or `seconds` seconds behind the record."""

    events: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 0
    seconds: Annotated[int, msgspec.Meta(ge=0, le=86_400)] = 0


# -- shared reads -------------------------------------------------------------------------------------
def _events(store: Store, ruleset: Ruleset, stream_id: StreamId, up_to: int | None = None) -> list[Any]:
    dec = decoder(ruleset)
    return [dec.decode(e.data) for e in store.read_stream(stream_id, limit=up_to)]


def _game(records: GameRecords, club_id: str, game_id: str) -> tuple[GameRecord, Ruleset]:
    record = records.game(club_id, game_id)
    return record, records.rulesets.get(record.ruleset)


def _started(store: Store, stream_id: StreamId) -> GameStarted:
    first = store.read_stream(stream_id, limit=1)
    return msgspec.json.decode(first[0].data, type=GameStarted)


def replay_snapshots(store: Store, ruleset: Ruleset, stream_id: StreamId, step: int, every: int) -> list[Snapshot]:
    """The stored snapshots of the game on `stream_id` up to `step`, rebuilt first when they were made
    under another ruleset version (or are missing though the game is `every` events long)."""
    rows = store.snapshots(stream_id, up_to=step)
    decoded = _decodable(rows)
    if decoded is None or any(row.ruleset_version != ruleset.version for row in rows) or (not rows and step >= every):
        try:
            made = snapshots_for(ruleset, _events(store, ruleset, stream_id), every)
        except ProjectionError:  # a state that does not survive its encoding: seek from the start
            return []
        store.replace_snapshots(stream_id, [snapshot_row(stream_id, snap) for snap in made])
        return [snap for snap in made if snap.version <= step]
    return decoded


def _decodable(rows: Sequence[Any]) -> list[Snapshot] | None:
    """The stored snapshots, or None when one was written in an older format (rebuilt then)."""
    try:
        return [decode_snapshot(row.data) for row in rows]
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def counted_ids(
    records: GameRecords, kind: CollectionKind, club_id: str, collection_id: str, game_ids: Sequence[str]
) -> tuple[tuple[str, ...], tuple[Removal, ...]]:
    """A collection's games less those taken out (and not put back), and that history."""
    history = tuple(records.store.removals(kind, club_id, collection_id))
    out: set[str] = set()
    for removal in history:
        (out.add if removal.action == "removed" else out.discard)(removal.game_id)
    return tuple(g for g in game_ids if g not in out), history


def _league(records: GameRecords, club_id: str, league_id: str) -> tuple[League, tuple[str, ...]]:
    found = records.store.get_collection("league", club_id, league_id)
    if found is None:
        raise NotFound("league", league_id)
    return msgspec.json.decode(found.definition, type=League), found.game_ids


def _campaign(records: GameRecords, club_id: str, campaign_id: str) -> tuple[Campaign, tuple[str, ...]]:
    found = records.store.get_collection("campaign", club_id, campaign_id)
    if found is None:
        raise NotFound("campaign", campaign_id)
    return msgspec.json.decode(found.definition, type=Campaign), found.game_ids


def league_table(
    records: GameRecords, club_id: str, league: League, games: Sequence[LeagueGame], as_of: date | None = None
) -> Standings:
    """The standings in the league's own points (the ruleset's score scale), with the members' names."""
    names = {p.player_id: p.name for p in records.store.get_players(club_id, league.members)}
    return standings(league, games, as_of, scale=score_scale(records.rulesets.get(league.ruleset)), names=names)


def _with(summaries: dict[str, GameSummary], game_id: str, outcome: Outcome) -> dict[str, GameSummary]:
    """The summaries with one game's outcome replaced (to compute a table as it was)."""
    if game_id not in summaries:
        return summaries
    return summaries | {game_id: msgspec.structs.replace(summaries[game_id], outcome=outcome)}


def league_games(game_ids: Sequence[str], summaries: dict[str, GameSummary]) -> list[LeagueGame]:
    """A league's games as the standings read them (games the projector has not reached yet are left
    out until it does)."""
    return [
        LeagueGame(
            game_id=s.game_id,
            finished_at=s.outcome.finished_at or s.started_at,
            players=s.players,
            result=s.outcome.result,
        )
        for s in (summaries[g] for g in game_ids if g in summaries)
    ]


def campaign_games(
    records: GameRecords, club_id: str, game_ids: Sequence[str], summaries: dict[str, GameSummary]
) -> list[CampaignGame]:
    """A campaign's games in order, with their set-ups (a game the projector has not reached yet reads
    as unfinished: the campaign waits for it)."""
    unplayed = Result(finished=False, score_unit="", players=())
    return [
        CampaignGame(
            game_id=g,
            setup=_started(records.store, records.stream(club_id, g)).setup,
            result=summaries[g].outcome.result if g in summaries else unplayed,
        )
        for g in game_ids
    ]


def _assign(records: GameRecords, club_id: str, ruleset: str, game_id: str) -> GameRecord:
    """A club's game that may join a league or campaign of `ruleset`."""
    record = records.game(club_id, game_id)
    if record.ruleset != ruleset:
        raise ProjectionError(
            "wrong_ruleset",
            f"Game {game_id} is of {record.ruleset}, not {ruleset}.",
            game_id=game_id,
            ruleset=record.ruleset,
            expected=ruleset,
        )
    return record


# -- replays and live spectating ---------------------------------------------------------------------------
class ReplayController(Controller):
    path = "/clubs/{club_id:str}/games/{game_id:str}"
    tags = ("replays",)
    guards = GUARDS

    @get("/replay", sync_to_thread=True, summary="A game told step by step, with its chapter index", opt=PUBLIC)
    def read_replay(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
        words: NamedDependency[Translator],
        view: FromQuery[Literal["public", "seat", "full"]] = "public",
        seat: Annotated[int | None, QueryParameter(ge=0, le=MAX_INT)] = None,
    ) -> Replay:
        """Every step (narration, seat, chapters; voided events shown as what they were, marked with the
        correction that voided them) and the first step of every chapter, to jump by. The narration is
        told for the view asked (G-2): the public's never names a card the public has not seen, a seat's
        names its own draws, the full record's tells everything."""
        viewer = viewer_of(view, seat)
        record, ruleset = _game(records, club_id, game_id)
        if viewer.seat is not None:
            check_seat(record, viewer.seat)
        horizon = spectator_horizon(records.store, principal, record.stream_id)
        return replay(ruleset, _events(records.store, ruleset, record.stream_id, up_to=horizon), viewer, words)

    @get(
        "/replay/{step:int}",
        sync_to_thread=True,
        summary="The state after a step in a view, and what changed",
        opt=PUBLIC,
    )
    def read_step(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        step: Annotated[int, PathParameter(ge=0, le=MAX_INT)],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
        state: State,
        view: FromQuery[Literal["public", "seat", "full"]] = "public",
        seat: Annotated[int | None, QueryParameter(ge=0, le=MAX_INT)] = None,
    ) -> StepView:
        """Seeks from the nearest stored snapshot: at most `snapshot_every` events are folded."""
        viewer = viewer_of(view, seat)
        record, ruleset = _game(records, club_id, game_id)
        if viewer.seat is not None:
            check_seat(record, viewer.seat)
        horizon = spectator_horizon(records.store, principal, record.stream_id)
        if horizon is not None and step > horizon:
            raise NotFound(f"step (spectators see this game up to step {horizon})", str(step))
        if not 1 <= step <= record.version:
            # Named here, with the game's real range: the fold below reads only up to the step asked.
            raise ProjectionError(
                "no_such_step", f"This game has steps 1 to {record.version}.", step=step, steps=record.version
            )
        events = _events(records.store, ruleset, record.stream_id, up_to=step)
        snaps = replay_snapshots(records.store, ruleset, record.stream_id, step, state.settings.snapshot_every)
        return view_at(ruleset, events, step, viewer, snaps)

    @get(
        "/changes",
        sync_to_thread=True,
        summary="What a correction of this game changed in standings and campaigns",
        opt=PUBLIC,
    )
    def read_changes(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        records: NamedDependency[GameRecords],
        correction: Annotated[
            int | None,
            QueryParameter(
                ge=1, le=MAX_INT, description="the correction's version; default the latest that changed the outcome"
            ),
        ] = None,
    ) -> GameChangesOut:
        record = records.game(club_id, game_id)
        store = records.store
        changes = store.result_changes(record.stream_id)
        versions = tuple(c.version for c in changes)
        chosen = [c for c in changes if correction is None or c.version == correction]
        if not chosen:
            if correction is not None:
                raise NotFound("correction that changed the outcome", str(correction))
            return GameChangesOut(game_id=game_id, correction_version=None, corrections=versions)
        change = chosen[-1]
        leagues: list[LeagueChange] = []
        campaigns: list[CampaignChange] = []
        for kind, collection_id in store.collections_of_game(club_id, game_id):
            if kind == "league":
                league, assigned = _league(records, club_id, collection_id)
                game_ids, _ = counted_ids(records, kind, club_id, collection_id, assigned)
                summaries = store.game_summaries(club_id, game_ids)
                before = league_table(
                    records, club_id, league, league_games(game_ids, _with(summaries, game_id, change.before))
                )
                after = league_table(
                    records, club_id, league, league_games(game_ids, _with(summaries, game_id, change.after))
                )
                leagues.append(LeagueChange(league_id=collection_id, changes=standings_changes(before, after, game_id)))
            else:
                campaign, assigned = _campaign(records, club_id, collection_id)
                game_ids, _ = counted_ids(records, kind, club_id, collection_id, assigned)
                ruleset = records.rulesets.get(campaign.ruleset)
                summaries = store.game_summaries(club_id, game_ids)
                old = campaign_status(
                    ruleset,
                    campaign,
                    campaign_games(records, club_id, game_ids, _with(summaries, game_id, change.before)),
                )
                new = campaign_status(
                    ruleset,
                    campaign,
                    campaign_games(records, club_id, game_ids, _with(summaries, game_id, change.after)),
                )
                campaigns.append(CampaignChange(campaign_id=collection_id, changes=campaign_changes(old, new, game_id)))
        return GameChangesOut(
            game_id=game_id,
            correction_version=change.version,
            corrections=versions,
            before=change.before,
            after=change.after,
            standings=tuple(leagues),
            campaigns=tuple(campaigns),
        )

    @put("/spectator-delay", sync_to_thread=True, summary="Set how far behind the record spectators see the game")
    def set_delay(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[DelayIn],
        records: NamedDependency[GameRecords],
        state: State,
    ) -> SpectatorDelay:
        record = records.game(club_id, game_id)
        delay = SpectatorDelay(events=data.events, seconds=data.seconds)
        records.store.set_spectator_delay(record.stream_id, delay)
        # This process's streams look again now (others hear it from the database).
        state.hub.appended(record.stream_id, None)
        return delay

    @get(
        "/spectator-delay", sync_to_thread=True, summary="How far behind the record spectators see the game", opt=PUBLIC
    )
    def read_delay(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        records: NamedDependency[GameRecords],
    ) -> SpectatorDelay:
        return records.store.spectator_delay(records.game(club_id, game_id).stream_id)

    @get(
        "/live",
        sync_to_thread=True,
        summary="Server-sent events: each new step, narrated, with the public state",
        opt=PUBLIC,
    )
    def live(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        principal: NamedDependency[Principal],
        records: NamedDependency[GameRecords],
        state: State,
        words: NamedDependency[Translator],
        last_event_id: Annotated[
            int | None, HeaderParameter(name="Last-Event-ID", required=False, ge=0, le=MAX_INT)
        ] = None,
        after: Annotated[
            int | None, QueryParameter(ge=0, le=MAX_INT, description="resume after this step (as Last-Event-ID)")
        ] = None,
    ) -> ServerSentEvent:
        """Each message is an event `step` whose id is the step's version and whose data is the step
        (narration, seat, chapters) and the public state after it. Reconnect with `Last-Event-ID` to
        resume without loss or duplicates. With a spectator delay, steps are held back until they are
        that many events or seconds old."""
        record, ruleset = _game(records, club_id, game_id)
        resume = max(0, last_event_id if last_event_id is not None else (after or 0))
        live = LiveGame(
            state.live, records.store, ruleset, record.stream_id, resume, state.settings.snapshot_every, words.language
        )
        settings = state.settings
        return ServerSentEvent(
            live.messages(
                settings.live_poll_seconds, settings.live_keepalive_seconds, state.authenticator.watch(principal)
            )
        )


class LiveGame:
    """One spectator's stream of a game: the steps its process's follower of the game told
    (`service.usecases.live`), from where the spectator is, released once the spectator delay allows."""

    def __init__(
        self,
        live: Live,
        store: Store,
        ruleset: Ruleset,
        game_id: StreamId,
        sent: int,
        snapshot_every: int,
        language: str = "en",
    ) -> None:
        self.language = language
        self.live = live
        self.store = store
        self.ruleset = ruleset
        self.game_id = game_id
        self.sent = sent
        self.snapshot_every = snapshot_every
        self.viewer = Viewer.public()

    def _snapshots(self, version: int) -> list[Snapshot]:
        return replay_snapshots(self.store, self.ruleset, self.game_id, version, self.snapshot_every)

    async def messages(
        self, poll_seconds: float, keepalive_seconds: float, still_valid: Watch
    ) -> AsyncIterator[ServerSentEventMessage]:
        """The stream: steps as they may be sent, a comment now and then to keep the line open. It ends
        once `still_valid` says the key (session, share link) it was opened with is revoked or expired;
        the browser's reconnection is then refused."""
        follower = self.live.join(self.store, self.ruleset, self.game_id, self._snapshots)
        teller = follower.teller(self.viewer, self.language)
        ended = "closed by the spectator"
        try:
            quiet_since = checked_at = time.monotonic()
            yield ServerSentEventMessage(comment="tablelog live", retry=int(max(poll_seconds, 1.0) * 1000))
            if not await anyio.to_thread.run_sync(still_valid):
                ended = "revoked"
                yield ServerSentEventMessage(event="revoked", data="This key or link is no longer valid.")
                return
            while True:
                # Nothing to read while no revocation was heard; else (or not listening) a look now and then.
                if not still_valid.settled() and time.monotonic() - checked_at >= min(poll_seconds, 1.0):
                    checked_at = time.monotonic()
                    if not await anyio.to_thread.run_sync(still_valid):
                        ended = "revoked"
                        yield ServerSentEventMessage(event="revoked", data="This key or link is no longer valid.")
                        return
                await follower.pump()
                told = min(follower.released, len(teller.steps))
                if self.sent < told:
                    for version, data in await follower.messages(self.viewer, self.sent, told, self.language):
                        yield ServerSentEventMessage(id=version, event="step", data=data)
                    self.sent = told
                    quiet_since = time.monotonic()
                    continue
                if time.monotonic() - quiet_since > keepalive_seconds:
                    quiet_since = time.monotonic()
                    yield ServerSentEventMessage(comment="keep-alive")
                wait = keepalive_seconds - (time.monotonic() - quiet_since)
                await follower.wait(self, wait if still_valid.settled() else min(wait, poll_seconds, 1.0))
        except Exception as error:
            ended = f"failed: {type(error).__name__}: {error}"
            raise
        finally:
            self.live.leave(follower, self)
            get_logger().info("live.ended", why=ended, sent=self.sent)


# -- leagues --------------------------------------------------------------------------------------------------
class LeagueController(Controller):
    path = "/clubs/{club_id:str}/leagues"
    tags = ("leagues",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a league (refused with 422 when it cannot be ranked)")
    def create_league(
        self,
        club_id: FromPath[str],
        data: JSONBody[LeagueIn],
        records: NamedDependency[GameRecords],
    ) -> LeagueOut:
        records.rulesets.get(data.ruleset)
        league = League(**msgspec.structs.asdict(data))
        check_league(league)
        known = {p.player_id for p in records.store.get_players(club_id, league.members)}
        unknown = [m for m in league.members if m not in known]
        if unknown:
            raise ProjectionError("unknown_member", "Every member must be one of the club's players.", unknown=unknown)
        records.store.create_collection("league", club_id, league.league_id, msgspec.json.encode(league))
        return LeagueOut(league=league, game_ids=())

    @get("/", sync_to_thread=True, summary="The club's leagues", opt=PUBLIC)
    def list_leagues(self, club_id: FromPath[str], records: NamedDependency[GameRecords]) -> list[LeagueOut]:
        return [
            LeagueOut(league=msgspec.json.decode(c.definition, type=League), game_ids=c.game_ids)
            for c in records.store.list_collections("league", club_id)
        ]

    @get("/{league_id:str}", sync_to_thread=True, summary="A league and its games", opt=PUBLIC)
    def get_league(
        self,
        club_id: FromPath[str],
        league_id: FromPath[str],
        records: NamedDependency[GameRecords],
    ) -> LeagueOut:
        league, game_ids = _league(records, club_id, league_id)
        return LeagueOut(league=league, game_ids=game_ids)

    @post("/{league_id:str}/games", sync_to_thread=True, summary="Assign a finished game to the league")
    def assign_game(
        self,
        club_id: FromPath[str],
        league_id: FromPath[str],
        data: GameRefIn,
        records: NamedDependency[GameRecords],
    ) -> LeagueOut:
        league, _ = _league(records, club_id, league_id)
        record = _assign(records, club_id, league.ruleset, data.game_id)
        if not record.finished:
            raise ProjectionError(
                "game_not_finished",
                f"Game {data.game_id} is not finished: only finished games are assigned to a league.",
                game_id=data.game_id,
            )
        records.store.add_collection_game("league", club_id, league_id, data.game_id)
        return LeagueOut(league=league, game_ids=_league(records, club_id, league_id)[1])

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
        records: NamedDependency[GameRecords],
        as_of: Annotated[
            date | None, QueryParameter(description="count games finished on or before this date (default: all)")
        ] = None,
    ) -> Standings:
        """Rows ranked by the league's chain, why each row is above the next, and how every game counted."""
        league, assigned = _league(records, club_id, league_id)
        game_ids, removals = counted_ids(records, "league", club_id, league_id, assigned)
        table = league_table(
            records, club_id, league, league_games(game_ids, records.store.game_summaries(club_id, game_ids)), as_of
        )
        return msgspec.structs.replace(table, removals=removals)


# -- campaigns ------------------------------------------------------------------------------------------------
class CampaignController(Controller):
    path = "/clubs/{club_id:str}/campaigns"
    tags = ("campaigns",)
    guards = GUARDS

    @post("/", sync_to_thread=True, summary="Create a campaign: a series of games with the same players")
    def create_campaign(
        self,
        club_id: FromPath[str],
        data: JSONBody[CampaignIn],
        records: NamedDependency[GameRecords],
    ) -> CampaignOut:
        check_player_count(records.rulesets.get(data.ruleset), len(data.players))
        campaign = Campaign(campaign_id=data.campaign_id, ruleset=data.ruleset, players=data.players)
        known = {p.player_id for p in records.store.get_players(club_id, campaign.players)}
        unknown = [p for p in campaign.players if p not in known]
        if unknown or not campaign.players or len(set(campaign.players)) != len(campaign.players):
            raise ProjectionError(
                "bad_players", "A campaign's players are club players, each listed once.", unknown=unknown
            )
        records.store.create_collection("campaign", club_id, campaign.campaign_id, msgspec.json.encode(campaign))
        return CampaignOut(campaign=campaign, game_ids=())

    @get("/", sync_to_thread=True, summary="The club's campaigns", opt=PUBLIC)
    def list_campaigns(self, club_id: FromPath[str], records: NamedDependency[GameRecords]) -> list[CampaignOut]:
        return [
            CampaignOut(campaign=msgspec.json.decode(c.definition, type=Campaign), game_ids=c.game_ids)
            for c in records.store.list_collections("campaign", club_id)
        ]

    @get("/{campaign_id:str}", sync_to_thread=True, summary="A campaign and its games", opt=PUBLIC)
    def get_campaign(
        self,
        club_id: FromPath[str],
        campaign_id: FromPath[str],
        records: NamedDependency[GameRecords],
    ) -> CampaignOut:
        campaign, game_ids = _campaign(records, club_id, campaign_id)
        return CampaignOut(campaign=campaign, game_ids=game_ids)

    @post("/{campaign_id:str}/games", sync_to_thread=True, summary="Add the next game of the campaign")
    def assign_game(
        self,
        club_id: FromPath[str],
        campaign_id: FromPath[str],
        data: GameRefIn,
        records: NamedDependency[GameRecords],
    ) -> CampaignOut:
        campaign, assigned = _campaign(records, club_id, campaign_id)
        game_ids, _ = counted_ids(records, "campaign", club_id, campaign_id, assigned)
        _assign(records, club_id, campaign.ruleset, data.game_id)
        # Refused now rather than when the status is read: the campaign's players, and what the series
        # rules allow after the games before it (the same seats, the deal passing left, sides swapped...).
        *earlier, game = campaign_games(
            records,
            club_id,
            [*game_ids, data.game_id],
            records.store.game_summaries(club_id, [*game_ids, data.game_id]),
        )
        admit(records.rulesets.get(campaign.ruleset), campaign, earlier, game)
        records.store.add_collection_game("campaign", club_id, campaign_id, data.game_id)
        return CampaignOut(campaign=campaign, game_ids=_campaign(records, club_id, campaign_id)[1])

    @get(
        "/{campaign_id:str}/status",
        sync_to_thread=True,
        summary="Cumulative totals after every game, next dealer or starter, finished, winner",
        opt=PUBLIC,
    )
    def read_status(
        self,
        club_id: FromPath[str],
        campaign_id: FromPath[str],
        records: NamedDependency[GameRecords],
    ) -> CampaignStatus:
        campaign, assigned = _campaign(records, club_id, campaign_id)
        game_ids, removals = counted_ids(records, "campaign", club_id, campaign_id, assigned)
        summaries = records.store.game_summaries(club_id, game_ids)
        status = campaign_status(
            records.rulesets.get(campaign.ruleset), campaign, campaign_games(records, club_id, game_ids, summaries)
        )
        return msgspec.structs.replace(status, removals=removals)


HANDLERS = [ReplayController, LeagueController, CampaignController]
