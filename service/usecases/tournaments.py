"""Tournaments: a club event of rounds whose pairings tablelog makes.

A tournament is its own stream of events in the event store (`tournament/<club>/<id>`): creation,
entries, withdrawals, each round's pairings as they were made, re-pairings and the games attached to
tables. Every change is checked against the tournament folded from its stream (`projections.tournaments`)
and appended at the version it was read at, so two scorekeepers never pair one round twice (409), and
each event keeps the key that recorded it. Standings after any round are folds over the game summaries
of the attached games, like a league's. The service never names a game: the ruleset contract says how
many players a game takes and whether its seats are sides.
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from projections.contract import player_counts, score_scale, seat_sides
from projections.errors import ProjectionError
from projections.standings import Scoring, Standings
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
from service.store.base import (
    AppendRequest,
    ClubRecords,
    Collections,
    EventRecorder,
    NewEvent,
    ReadModels,
    Recorder,
    StoredEvent,
    StreamId,
)
from service.usecases.collections import league_games
from service.usecases.games import GameRecords, NotFound

Read = tuple[Tournament, int]
"""A tournament as its events left it, and the stream's version."""


class TournamentStore(EventRecorder, Collections, ReadModels, ClubRecords, Protocol):
    """What a tournament reads and writes: its stream, its listing, its games' summaries, the entrants."""


def stream_id(club_id: str, tournament_id: str) -> StreamId:
    return StreamId(f"tournament/{club_id}/{tournament_id}")


class Tournaments:
    """The tournament use cases, over the club's games (`games`) and the store's parts."""

    def __init__(self, games: GameRecords, store: TournamentStore) -> None:
        self.games = games
        self.store = store

    @classmethod
    def of(cls, records: GameRecords) -> Tournaments:
        return cls(records, records.store)

    def load(self, club_id: str, tournament_id: str) -> Read:
        stored = self.events(club_id, tournament_id)
        return fold(EVENT_DECODER.decode(e.data) for e in stored), len(stored)

    def events(self, club_id: str, tournament_id: str) -> list[StoredEvent]:
        """The tournament's stream (NotFound when it has none)."""
        stored = self.store.read_stream(stream_id(club_id, tournament_id))
        if not stored:
            raise NotFound("tournament", tournament_id)
        return stored

    def listed(self, club_id: str) -> list[TournamentCreated]:
        return [
            msgspec.json.decode(c.definition, type=TournamentCreated)
            for c in self.store.list_collections("tournament", club_id)
        ]

    def _record(
        self,
        recorder: Recorder,
        tournament_id: str,
        state: Tournament | None,
        version: int,
        events: list[TournamentEvent],
    ) -> Read:
        """Check each event against the tournament, then append them all at the version they were read at."""
        for event in events:
            check(state, event)
            state = apply(state, event)
        assert state is not None
        self.store.append(
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
        return state, version + len(events)

    def create(
        self,
        recorder: Recorder,
        *,
        tournament_id: str,
        ruleset: str,
        system: System,
        title: str,
        scoring: Scoring,
        tie_breaks: tuple[str, ...],
        table_sizes: tuple[int, int],
        seed: int,
        bye_points: int | None,
    ) -> Read:
        """Refused (422) when its game cannot be paired so. The bye gives a win's points by default, or
        first place's."""
        found = self.games.rulesets.get(ruleset)
        bye = bye_points
        if bye is None:
            bye = scoring.win_draw_loss[0] if scoring.win_draw_loss else scoring.placement_points.get(1, 0)
        definition = TournamentCreated(
            tournament_id=tournament_id,
            ruleset=ruleset,
            system=system,
            title=title,
            seed=seed,
            scoring=scoring,
            tie_breaks=tie_breaks,
            table_sizes=table_sizes,
            sides=seat_sides(found) is not None,
            bye_points=bye,
        )
        check_definition(definition, player_counts(found))
        created = self._record(recorder, tournament_id, None, 0, [definition])
        # Listed once its stream exists (a second creation is a version conflict before this).
        self.store.create_collection("tournament", recorder.club_id, tournament_id, msgspec.json.encode(definition))
        return created

    def enter(self, recorder: Recorder, tournament_id: str, player_id: str) -> Read:
        state, version = self.load(recorder.club_id, tournament_id)
        found = self.store.get_players(recorder.club_id, [player_id])
        if not found:
            raise NotFound("player", player_id)
        event = PlayerEntered(player_id=player_id, name=found[0].name)
        return self._record(recorder, tournament_id, state, version, [event])

    def withdraw(self, recorder: Recorder, tournament_id: str, player_id: str, reason: str) -> Read:
        state, version = self.load(recorder.club_id, tournament_id)
        event = PlayerWithdrew(player_id=player_id, reason=reason)
        return self._record(recorder, tournament_id, state, version, [event])

    def pair_next(self, recorder: Recorder, tournament_id: str) -> Read:
        """Refused (422 `round_not_finished`) while a table of the latest round has no finished game."""
        club_id = recorder.club_id
        state, version = self.load(club_id, tournament_id)
        if state.rounds:
            waiting = self._unfinished_tables(club_id, state.rounds[-1])
            if waiting:
                raise ProjectionError(
                    "round_not_finished",
                    f"Round {len(state.rounds)} is not finished: table(s) "
                    f"{', '.join(map(str, waiting))} have no finished game.",
                    round=len(state.rounds),
                    tables=waiting,
                )
        paired = pair(state, self._order(club_id, state))
        return self._record(recorder, tournament_id, state, version, [paired])

    def pair_again(self, recorder: Recorder, tournament_id: str, number: int, reason: str) -> Read:
        """Its games are detached; the round is paired from the standings as they are now."""
        state, version = self.load(recorder.club_id, tournament_id)
        unpaired = RoundUnpaired(round=number, reason=reason)
        check(state, unpaired)
        before = apply(state, unpaired)
        paired = pair(before, self._order(recorder.club_id, before))
        return self._record(recorder, tournament_id, state, version, [unpaired, paired])

    def attach(self, recorder: Recorder, tournament_id: str, number: int, table: int, game_id: str) -> Read:
        """The game is of the tournament's ruleset and played by the table's players; in a two-sided
        game, in the seats the pairing gave (422 `wrong_seats` otherwise)."""
        state, version = self.load(recorder.club_id, tournament_id)
        event = GameAttached(round=number, table=table, game_id=game_id)
        check(state, event)
        seats = next(t.seats for t in state.rounds[number - 1].tables if t.table == table)
        record = self.games.game(recorder.club_id, game_id)
        if record.ruleset != state.definition.ruleset:
            raise ProjectionError(
                "wrong_ruleset",
                f"Game {game_id} is of {record.ruleset}, not {state.definition.ruleset}.",
                game_id=game_id,
            )
        played = tuple(record.player_ids)
        if sorted(played) != sorted(seats) or (state.definition.sides and played != seats):
            names = state.names()
            expected = ", ".join(names.get(p, p) for p in seats)
            raise ProjectionError(
                "wrong_seats" if sorted(played) == sorted(seats) else "wrong_players",
                f"Table {table} of round {number} is {expected}"
                + (", in that seat order." if state.definition.sides else "."),
                game_id=game_id,
                seats=list(seats),
                played=list(played),
            )
        return self._record(recorder, tournament_id, state, version, [event])

    def standings(self, club_id: str, state: Tournament, after_round: int | None) -> Standings:
        game_ids = [t.game_id for r in state.rounds for t in r.tables if t.game_id is not None]
        games = {g.game_id: g for g in league_games(game_ids, self.store.game_summaries(club_id, game_ids))}
        scale = score_scale(self.games.rulesets.get(state.definition.ruleset))
        return tournament_standings(state, games, after_round, scale=scale)

    def _unfinished_tables(self, club_id: str, paired: Round) -> list[int]:
        game_ids = [t.game_id for t in paired.tables if t.game_id is not None]
        summaries = self.store.game_summaries(club_id, game_ids)
        return [
            t.table
            for t in paired.tables
            if t.game_id is None or t.game_id not in summaries or not summaries[t.game_id].outcome.finished
        ]

    def _order(self, club_id: str, state: Tournament) -> list[str]:
        table = self.standings(club_id, state, None) if state.rounds else None
        return ranking(state.active, table, state.definition.seed)
