"""Tournaments: a club event of rounds whose pairings tablelog makes.

A tournament is its own stream of events in the event store (`tournament/<club>/<id>`): creation,
entries, withdrawals, each round's pairings as they were made, re-pairings and the games attached to
tables. Every change is checked against the tournament folded from its stream (`projections.tournaments`)
and appended at the version it was read at, so two scorekeepers never pair one round twice (409), and
each event keeps the key that recorded it. Standings after any round are folds over the game summaries
of the attached games, like a league's. The service never names a game: the ruleset contract says how
many players a game takes and whether its seats are sides.

The evening: a round may be paired as a draft, changed by hand and published; a table forfeited; a result
entered for a table as a result-only game (G-6) played by its players; a knockout of the top of the
standings started; and any of these undone by a revocation, which the record without the event must
still hold (`projections.tournaments.revoke`).
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from domain.i18n import Catalogue, english
from domain.ruleset import PlayerResult, ReportedResult
from projections.contract import player_counts, score_scale, seat_sides
from projections.errors import ProjectionError
from projections.standings import Scoring, Standings
from projections.tournaments import (
    EVENT_DECODER,
    GameAttached,
    KnockoutStarted,
    PlayerEntered,
    PlayersSwapped,
    PlayerWithdrew,
    Revoked,
    Round,
    RoundPublished,
    RoundUnpaired,
    System,
    TableForfeited,
    TableMoved,
    Tournament,
    TournamentCreated,
    TournamentEvent,
    apply,
    champion,
    check,
    check_definition,
    event_kind,
    fold,
    pair,
    pair_knockout,
    ranking,
    revoke,
    swap_breaks,
    tournament_standings,
)
from projections.words import Teller
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
from service.usecases.games import GameRecords, NewGame, NotFound, SeatSpec

_ = Catalogue("service.usecases")


class ScoreEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A player's score at a table, in the game's unit, and place where the table gives places."""

    player_id: str
    score: int
    placement: int | None = None


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
        self._announce(recorder.club_id, tournament_id, version + len(events))
        return state, version + len(events)

    def _announce(self, club_id: str, tournament_id: str, version: int) -> None:
        """Tell the process's live streams (the screen pages) that the tournament's stream grew, as a
        game's appends are told (`GameRecords.appended`, `service.notify`)."""
        if self.games.appended is not None:
            self.games.appended(stream_id(club_id, tournament_id), version)

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
        forfeit_points: int | None = None,
        late_entry_points: int = 0,
        rounds: int | None = None,
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
            forfeit_points=forfeit_points,
            late_entry_points=late_entry_points,
            rounds=rounds,
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

    def pair_next(self, recorder: Recorder, tournament_id: str, *, draft: bool = False) -> Read:
        """Refused (422 `round_not_finished`) while a table of the latest round has neither a finished
        game nor a forfeit; once the knockout has started, its next round (`no_winner` when a knockout
        game has none)."""
        club_id = recorder.club_id
        state, version = self.load(club_id, tournament_id)
        self._finished(club_id, state)
        if state.knockout is not None:
            paired = pair_knockout(state, self._winners(club_id, state), draft=draft)
        else:
            paired = pair(state, self._order(club_id, state), draft=draft)
        return self._record(recorder, tournament_id, state, version, [paired])

    def _finished(self, club_id: str, state: Tournament) -> None:
        if state.rounds and not state.rounds[-1].draft:
            waiting = self._unfinished_tables(club_id, state.rounds[-1])
            if waiting:
                raise ProjectionError(
                    "round_not_finished",
                    _.ngettext(
                        "Round {round} is not finished: table {tables} has no finished game.",
                        "Round {round} is not finished: tables {tables} have no finished game.",
                        len(waiting),
                        round=len(state.rounds),
                        tables=", ".join(map(str, waiting)),
                    ),
                    round=len(state.rounds),
                    tables=waiting,
                )

    def swap(
        self, recorder: Recorder, tournament_id: str, number: int, players: tuple[str, str]
    ) -> tuple[Read, tuple[str, ...]]:
        """Two players of a draft round change places; the event names the pairing rules it breaks,
        returned beside the tournament."""
        state, version = self.load(recorder.club_id, tournament_id)
        check(state, PlayersSwapped(round=number, players=players))
        event = PlayersSwapped(round=number, players=players, breaks=swap_breaks(state, number, *players))
        return self._record(recorder, tournament_id, state, version, [event]), event.breaks

    def move_table(self, recorder: Recorder, tournament_id: str, number: int, table: int, to: int) -> Read:
        state, version = self.load(recorder.club_id, tournament_id)
        return self._record(recorder, tournament_id, state, version, [TableMoved(round=number, table=table, to=to)])

    def publish(self, recorder: Recorder, tournament_id: str, number: int) -> Read:
        state, version = self.load(recorder.club_id, tournament_id)
        return self._record(recorder, tournament_id, state, version, [RoundPublished(round=number)])

    def forfeit(
        self, recorder: Recorder, tournament_id: str, number: int, table: int, absent: tuple[str, ...], reason: str
    ) -> Read:
        """Refused (422 `table_closed`) for a table whose game is finished or that was forfeited already."""
        state, version = self.load(recorder.club_id, tournament_id)
        event = TableForfeited(round=number, table=table, absent=absent, reason=reason)
        check(state, event)
        seated = next(t for t in state.rounds[number - 1].tables if t.table == table)
        if seated.game_id is not None and not self._unfinished_tables(
            recorder.club_id, Round(number=number, tables=(seated,))
        ):
            raise ProjectionError(
                "table_closed",
                _("Table {table} of round {round} is closed: its game is finished.", table=table, round=number),
                round=number,
                table=table,
                game_id=seated.game_id,
            )
        return self._record(recorder, tournament_id, state, version, [event])

    def report(self, recorder: Recorder, tournament_id: str, number: int, table: int, scores: list[ScoreEntry]) -> Read:
        """The result of a game played at a table and not recorded event by event: a result-only game
        (G-6) of the table's players in its seats, checked by the game's rules, attached to the table
        (422 `not_at_table` for a player who is not at it)."""
        state, version = self.load(recorder.club_id, tournament_id)
        check(state, GameAttached(round=number, table=table, game_id=""))
        seats = next(t.seats for t in state.rounds[number - 1].tables if t.table == table)
        strangers = [s.player_id for s in scores if s.player_id not in seats]
        if strangers:
            names = state.names()
            raise ProjectionError(
                "not_at_table",
                _(
                    "{player} is not at table {table} of round {round}.",
                    player=names.get(strangers[0], strangers[0]),
                    table=table,
                    round=number,
                ),
                round=number,
                table=table,
                players=strangers,
            )
        record = self.games.create_game(
            recorder.club_id,
            NewGame(
                ruleset=state.definition.ruleset,
                players=[SeatSpec(player_id=p) for p in seats],
                result=ReportedResult(
                    players=tuple(
                        PlayerResult(seat=seats.index(s.player_id), score=s.score, placement=s.placement)
                        for s in scores
                    )
                ),
                title=f"{state.definition.title or state.definition.tournament_id}, round {number}, table {table}",
            ),
            recorder,
        )[0]
        event = GameAttached(round=number, table=table, game_id=record.game_id)
        return self._record(recorder, tournament_id, state, version, [event])

    def start_game(self, recorder: Recorder, tournament_id: str, number: int, table: int) -> tuple[Read, str]:
        """A game of the table's players in its seats, recorded event by event from now and attached to the
        table (the table is checked first, so no game is made for a table that cannot take one)."""
        state, version = self.load(recorder.club_id, tournament_id)
        check(state, GameAttached(round=number, table=table, game_id=""))
        seats = next(t.seats for t in state.rounds[number - 1].tables if t.table == table)
        record, _ = self.games.create_game(
            recorder.club_id,
            NewGame(
                ruleset=state.definition.ruleset,
                players=[SeatSpec(player_id=p) for p in seats],
                title=f"{state.definition.title or state.definition.tournament_id}, round {number}, table {table}",
            ),
            recorder,
        )
        event = GameAttached(round=number, table=table, game_id=record.game_id)
        return self._record(recorder, tournament_id, state, version, [event]), record.game_id

    def start_knockout(self, recorder: Recorder, tournament_id: str, cut: int) -> Read:
        """The top `cut` active players of the standings, seeded in their order; refused (422
        `field_smaller_than_cut`) when fewer are playing, and while the latest round is not finished."""
        club_id = recorder.club_id
        state, version = self.load(club_id, tournament_id)
        event = KnockoutStarted(cut=cut, seeds=tuple(self._order(club_id, state)[:cut]))
        check(state, event)
        self._finished(club_id, state)
        return self._record(recorder, tournament_id, state, version, [event])

    def revoke(self, recorder: Recorder, tournament_id: str, target: int, reason: str) -> Read:
        """Undo the event at version `target` (a forfeit, a withdrawal, an entry, an attached game, a hand
        change): refused (422) when the record without it would not hold."""
        stored = self.events(recorder.club_id, tournament_id)
        events = [EVENT_DECODER.decode(e.data) for e in stored]
        revocation = Revoked(version=target, reason=reason)
        state = revoke(events, revocation)
        self.store.append(
            AppendRequest(
                stream_id(recorder.club_id, tournament_id),
                [NewEvent(type=event_kind(revocation), schema_version=1, data=msgspec.json.encode(revocation))],
                len(stored),
                recorded_by=recorder,
            )
        )
        self._announce(recorder.club_id, tournament_id, len(stored) + 1)
        return state, len(stored) + 1

    def champion(self, club_id: str, state: Tournament) -> str | None:
        """The knockout's winner, once it has one."""
        if state.knockout is None:
            return None
        try:
            return champion(state, self._winners(club_id, state))
        except ProjectionError:  # a knockout table still without a winner
            return None

    def _winners(self, club_id: str, state: Tournament) -> dict[str, str | None]:
        """Each finished knockout game's winner (None: a draw, or no single winner)."""
        game_ids = [t.game_id for r in state.stage_rounds("knockout") for t in r.tables if t.game_id is not None]
        out: dict[str, str | None] = {}
        for game_id, summary in self.store.game_summaries(club_id, game_ids).items():
            if not summary.outcome.finished:
                continue
            winners = summary.outcome.result.winners
            seat = {p.seat: p.player_id for p in summary.players}
            out[game_id] = seat.get(winners[0]) if len(winners) == 1 else None
        return out

    def pair_again(self, recorder: Recorder, tournament_id: str, number: int, reason: str) -> Read:
        """Its games are detached; the round is paired from the standings as they are now (a knockout
        round from the bracket), a draft again if it was one."""
        club_id = recorder.club_id
        state, version = self.load(club_id, tournament_id)
        unpaired = RoundUnpaired(round=number, reason=reason)
        check(state, unpaired)
        before = apply(state, unpaired)
        draft = state.rounds[-1].draft
        if state.rounds[-1].stage == "knockout":
            paired = pair_knockout(before, self._winners(club_id, before), draft=draft)
        else:
            paired = pair(before, self._order(club_id, before), draft=draft)
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
                _(
                    "Game {game_id} is of {ruleset}, not {expected}.",
                    game_id=game_id,
                    ruleset=record.ruleset,
                    expected=state.definition.ruleset,
                ),
                game_id=game_id,
            )
        played = tuple(record.player_ids)
        if sorted(played) != sorted(seats) or (state.definition.sides and played != seats):
            names = state.names()
            expected = ", ".join(names.get(p, p) for p in seats)
            raise ProjectionError(
                "wrong_seats" if sorted(played) == sorted(seats) else "wrong_players",
                (
                    _(
                        "Table {table} of round {round} is {players}, in that seat order.",
                        table=table,
                        round=number,
                        players=expected,
                    )
                    if state.definition.sides
                    else _("Table {table} of round {round} is {players}.", table=table, round=number, players=expected)
                ),
                game_id=game_id,
                seats=list(seats),
                played=list(played),
            )
        return self._record(recorder, tournament_id, state, version, [event])

    def standings(
        self, club_id: str, state: Tournament, after_round: int | None, *, words: Teller = english
    ) -> Standings:
        game_ids = [t.game_id for r in state.rounds for t in r.tables if t.game_id is not None]
        games = {g.game_id: g for g in league_games(game_ids, self.store.game_summaries(club_id, game_ids))}
        scale = score_scale(self.games.rulesets.get(state.definition.ruleset))
        return tournament_standings(state, games, after_round, scale=scale, words=words)

    def game_streams(self, club_id: str, state: Tournament) -> list[StreamId]:
        """The streams of the games attached to the tournament's tables (a game finishing there changes
        the standings a screen shows)."""
        ids = [t.game_id for r in state.rounds for t in r.tables if t.game_id is not None]
        return [self.games.game(club_id, game_id).stream_id for game_id in ids]

    def unfinished_tables(self, club_id: str, paired: Round) -> list[int]:
        """The tables of a round still waiting for a result (neither a forfeit nor a finished game)."""
        return self._unfinished_tables(club_id, paired)

    def _unfinished_tables(self, club_id: str, paired: Round) -> list[int]:
        """The tables of a round with neither a forfeit nor a finished game."""
        game_ids = [t.game_id for t in paired.tables if t.game_id is not None]
        summaries = self.store.game_summaries(club_id, game_ids)
        return [
            t.table
            for t in paired.tables
            if not t.forfeited
            and (t.game_id is None or t.game_id not in summaries or not summaries[t.game_id].outcome.finished)
        ]

    def _order(self, club_id: str, state: Tournament) -> list[str]:
        table = self.standings(club_id, state, None) if state.rounds else None
        return ranking(state.active, table, state.definition.seed)
