"""Replays: a game told step by step, the state after any step (seeking from the stored snapshots), and
what a correction of a finished game changed in the leagues and campaigns it counts in.

Reads only: the snapshots are the projector's (`service.projector`), written as it folds each game. A
snapshot made under another ruleset version, or stored in an older format, is passed over here and the
step is folded from the nearest good one before it (or from the start); rebuilding them is the
projector's (`tablelog rebuild`), never a GET's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from domain.i18n import english
from domain.record import GameStarted, decoder
from domain.ruleset import Ruleset, Viewer
from projections.changes import CampaignChanges, StandingsChanges, campaign_changes, standings_changes
from projections.replay import Replay, Snapshot, StepView, decode_snapshot, no_such_step, replay, view_at
from projections.words import Teller
from service.store.base import EventRecorder, GameRecord, Outcome, ReadModels, StreamId
from service.usecases.access import Principal
from service.usecases.collections import ClubCollections
from service.usecases.games import GameRecords, NotFound, Records, check_seat
from service.usecases.live import Follower, Live
from service.usecases.spectators import holds_back, spectator_horizon, spectators_horizon, unreleased


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


class ReplayStore(EventRecorder, ReadModels, Protocol):
    """What a replay reads: the game's events and the snapshots and delay the read models keep."""


def good_snapshots(ruleset: Ruleset, rows: Sequence[Any]) -> list[Snapshot]:
    """The stored snapshots a fold may seek from: those of the ruleset's version, in today's format."""
    found = []
    for row in rows:
        if row.ruleset_version != ruleset.version:
            continue
        try:
            found.append(decode_snapshot(row.data))
        except (msgspec.DecodeError, msgspec.ValidationError):  # an older format: the projector's to rebuild
            continue
    return found


class Replays:
    """The replay use cases, over the club's games (`games`) and the event log and read models."""

    def __init__(self, games: GameRecords, store: ReplayStore) -> None:
        self.games = games
        self.store = store

    @classmethod
    def of(cls, records: Records) -> Replays:
        return cls(records, records.store)

    def game(self, club_id: str, game_id: str) -> tuple[GameRecord, Ruleset]:
        record = self.games.game(club_id, game_id)
        return record, self.games.rulesets.get(record.ruleset)

    def events(self, ruleset: Ruleset, stream_id: StreamId, up_to: int | None = None) -> list[Any]:
        dec = decoder(ruleset)
        return [dec.decode(e.data) for e in self.store.read_stream(stream_id, limit=up_to)]

    def read_from(self, stream_id: StreamId, after_version: int, limit: int) -> list[tuple[int, bytes]]:
        """Events of a stream after `after_version` (at most `limit`), as (version, stored bytes)."""
        return [
            (e.version, e.data) for e in self.store.read_stream(stream_id, after_version=after_version, limit=limit)
        ]

    def length(self, stream_id: StreamId) -> int:
        return self.store.stream_version(stream_id)

    def started(self, stream_id: StreamId) -> GameStarted:
        first = self.store.read_stream(stream_id, limit=1)
        return msgspec.json.decode(first[0].data, type=GameStarted)

    def snapshots(self, ruleset: Ruleset, stream_id: StreamId, step: int) -> list[Snapshot]:
        """The good stored snapshots of the game on `stream_id` up to `step` (see the module's docstring)."""
        return good_snapshots(ruleset, self.store.snapshots(stream_id, up_to=step))

    def horizon(self, principal: Principal, stream_id: StreamId) -> int | None:
        return spectator_horizon(self.store, principal, stream_id)

    def public_horizon(self, stream_id: StreamId) -> int | None:
        return spectators_horizon(self.store, stream_id)

    def held_back(self, record: GameRecord) -> bool:
        """Whether this reader (a spectator) is held back from some of the game by its spectator delay."""
        return holds_back(self.store, record)

    def replay(
        self, principal: Principal, club_id: str, game_id: str, viewer: Viewer, *, words: Teller = english
    ) -> Replay:
        """Every step the principal may see, narrated for `viewer` (G-2), in the reader's language (`words`)."""
        record, ruleset = self.game(club_id, game_id)
        if viewer.seat is not None:
            check_seat(record, viewer.seat)
        horizon = self.horizon(principal, record.stream_id)
        return replay(ruleset, self.events(ruleset, record.stream_id, up_to=horizon), viewer, words=words)

    def step(
        self, principal: Principal, club_id: str, game_id: str, step: int, viewer: Viewer, *, words: Teller = english
    ) -> StepView:
        """The state after `step` in `viewer`'s view and what changed (in the game's words, told with `words`),
        folded from the nearest snapshot."""
        record, ruleset = self.game(club_id, game_id)
        if viewer.seat is not None:
            check_seat(record, viewer.seat)
        horizon = self.horizon(principal, record.stream_id)
        if horizon is not None and step > horizon:
            raise NotFound(f"step (spectators see this game up to step {horizon})", str(step))
        if not 1 <= step <= record.version:
            # Named here, with the game's real range: the fold below reads only up to the step asked.
            raise no_such_step(step, record.version)
        events = self.events(ruleset, record.stream_id, up_to=step)
        return view_at(ruleset, events, step, viewer, self.snapshots(ruleset, record.stream_id, step), words=words)

    def follow(self, live: Live, ruleset: Ruleset, stream_id: StreamId) -> Follower:
        """This process's follower of the game (`service.usecases.live`), one more stream counted."""
        # The follower reads the whole record and releases steps itself, for every stream of the game.
        whole = Replays(self.games, unreleased(self.store))
        return live.join(whole.store, ruleset, stream_id, lambda version: whole.snapshots(ruleset, stream_id, version))


class Corrections:
    """What a correction of a finished game changed in the leagues and campaigns it counts in."""

    def __init__(self, games: GameRecords, collections: ClubCollections, store: ReadModels) -> None:
        self.games = games
        self.collections = collections
        self.store = store

    @classmethod
    def of(cls, records: Records) -> Corrections:
        return cls(records, ClubCollections.of(records), records.store)

    def changes(self, club_id: str, game_id: str, correction: int | None = None) -> GameChangesOut:
        """What the correction at version `correction` (default: the latest that changed the game's
        outcome) changed in every league table and campaign the game belongs to."""
        record = self.games.game(club_id, game_id)
        changes = self.store.result_changes(record.stream_id)
        versions = tuple(c.version for c in changes)
        chosen = [c for c in changes if correction is None or c.version == correction]
        if not chosen:
            if correction is not None:
                raise NotFound("correction that changed the outcome", str(correction))
            return GameChangesOut(game_id=game_id, correction_version=None, corrections=versions)
        change = chosen[-1]
        collections = self.collections
        leagues: list[LeagueChange] = []
        campaigns: list[CampaignChange] = []
        for kind, collection_id in collections.of_game(club_id, game_id, (change.before, change.after)):
            if kind == "league":
                before = collections.standings(club_id, collection_id, outcome=(game_id, change.before))
                after = collections.standings(club_id, collection_id, outcome=(game_id, change.after))
                leagues.append(LeagueChange(league_id=collection_id, changes=standings_changes(before, after, game_id)))
            else:
                *_, old = collections.status(club_id, collection_id, outcome=(game_id, change.before))
                *_, new = collections.status(club_id, collection_id, outcome=(game_id, change.after))
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
