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

Players take part from their phones by a player link (`PlayerLinks`: a share link of kind `player`, made
by the organiser for one entry, revocable): its holder (`Entry`) checks in, sees their published pairing,
reports their table's result and confirms or disputes the other's report. Two matching reports close the
table with its result-only game, as the organiser's result entry does; reports that differ (or a report
disputed) wait for the organiser, who chooses one or enters the result (`decide`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import msgspec

from domain.i18n import Catalogue, english
from domain.ruleset import PlayerResult, ReportedResult
from projections.contract import player_counts, score_scale, seat_sides
from projections.errors import ProjectionError
from projections.standings import Scoring, Standings
from projections.tournaments import (
    EVENT_DECODER,
    Dispute,
    DisputeDecided,
    GameAttached,
    KnockoutStarted,
    PlayerCheckedIn,
    PlayerEntered,
    PlayersSwapped,
    PlayerWithdrew,
    Report,
    ReportDisputed,
    Revoked,
    Round,
    RoundPublished,
    RoundUnpaired,
    ScoreEntry,
    System,
    TableForfeited,
    TableMoved,
    TableReported,
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
from service.store.access import ShareLink
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
from service.usecases.games import GameRecords, NewGame, NotFound, Records, SeatSpec
from service.usecases.keys import Keys

_ = Catalogue("service.usecases")

Read = tuple[Tournament, int]
"""A tournament as its events left it, and the stream's version."""


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """Who acts by a player link: the entry's player in its tournament, the link (its share id), and the
    key that made it (the player's events are appended under that key; each names the player and link)."""

    club_id: str
    tournament_id: str
    player_id: str
    link: str
    made_by: str | None = None

    @property
    def recorder(self) -> Recorder:
        return Recorder(club_id=self.club_id, key_id=self.made_by)


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    """What a player sees of the tournament by their link: whether they are checked in for the round to
    come (`check_in_round`), and their place in the latest published round (`round`: None before the
    first): their table and its seats (or a bye), the reports of their table, and where it stands
    (`status`: `bye`, `open`, `reported` (by them, waiting for the other), `to_confirm` (another's report
    waits for their answer), `disputed`, `closed` (its result is in), `forfeited`)."""

    tournament_id: str
    title: str
    player_id: str
    name: str
    active: bool
    check_in_round: int
    checked_in: bool
    round: int | None = None
    table: int | None = None
    seats: list[Seat] = msgspec.field(default_factory=list)
    status: str | None = None
    reports: list[Report] = msgspec.field(default_factory=list)
    game_id: str | None = None


class TableDispute(msgspec.Struct, frozen=True, kw_only=True):
    """A table whose players' reports disagree, waiting for the organiser."""

    round: int
    table: int
    seats: list[Seat]
    reports: list[Report]
    disputes: list[Dispute]


class Evening(msgspec.Struct, frozen=True, kw_only=True):
    """What the organiser follows of the players' phones: who is checked in for the round to come (and who
    of the active players is not yet), and the disputes to decide."""

    check_in_round: int
    checked_in: list[Seat]
    not_checked_in: list[Seat]
    disputes: list[TableDispute]


class TournamentStore(EventRecorder, Collections, ReadModels, ClubRecords, Protocol):
    """What a tournament reads and writes: its stream, its listing, its games' summaries, the entrants."""


def stream_id(club_id: str, tournament_id: str) -> StreamId:
    return StreamId(f"tournament/{club_id}/{tournament_id}")


def _table_game(
    state: Tournament, number: int, table: int, seats: Sequence[str], result: ReportedResult | None = None
) -> NewGame:
    """The game a table plays: the tournament's ruleset, the table's players in its seats, titled by its
    round and table; a result-only game when `result` is given."""
    return NewGame(
        ruleset=state.definition.ruleset,
        players=[SeatSpec(player_id=p) for p in seats],
        result=result,
        title=f"{state.definition.title or state.definition.tournament_id}, round {number}, table {table}",
    )


class Tournaments:
    """The tournament use cases, over the club's games (`games`) and the store's parts."""

    def __init__(self, games: GameRecords, store: TournamentStore) -> None:
        self.games = games
        self.store = store

    @classmethod
    def of(cls, records: Records) -> Tournaments:
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
        (422 `not_at_table` for a player who is not at it). The organiser's entry: it closes a table the
        players dispute, or have not reported."""
        state, version = self.load(recorder.club_id, tournament_id)
        check(state, GameAttached(round=number, table=table, game_id=""))
        game_id = self._result_game(recorder, state, number, table, scores)
        event = GameAttached(round=number, table=table, game_id=game_id)
        return self._record(recorder, tournament_id, state, version, [event])

    def _result_request(self, state: Tournament, number: int, table: int, scores: Sequence[ScoreEntry]) -> NewGame:
        """The result-only game of a table's players in its seats (422 `not_at_table` for a stranger)."""
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
        result = ReportedResult(
            players=tuple(
                PlayerResult(seat=seats.index(s.player_id), score=s.score, placement=s.placement) for s in scores
            )
        )
        return _table_game(state, number, table, seats, result)

    def _result_game(
        self, recorder: Recorder, state: Tournament, number: int, table: int, scores: Sequence[ScoreEntry]
    ) -> str:
        """The table's result-only game, recorded (checked by the game's rules): its id."""
        request = self._result_request(state, number, table, scores)
        return self.games.create_game(recorder.club_id, request, recorder)[0].game_id

    # -- the players' phones ----------------------------------------------------------------------------
    def check_in(self, entry: Entry) -> Read:
        """The player checks in for the round to come (422 `withdrawn` once withdrawn, 422
        `already_checked_in` the second time)."""
        state, version = self.load(entry.club_id, entry.tournament_id)
        event = PlayerCheckedIn(player_id=entry.player_id, round=state.check_in_round(), link=entry.link)
        return self._record(entry.recorder, entry.tournament_id, state, version, [event])

    def player_report(self, entry: Entry, number: int, table: int, scores: Sequence[ScoreEntry]) -> Read:
        """The player's report of their table's result, checked by the game's rules at once (422); refused
        for a table they are not at (`not_at_table`), a second report (`already_reported`) and a closed or
        forfeited table (`table_closed`). The second matching report closes the table."""
        state, version = self.load(entry.club_id, entry.tournament_id)
        event = TableReported(
            round=number, table=table, player_id=entry.player_id, scores=tuple(scores), link=entry.link
        )
        check(state, event)
        self.games.check_game(entry.club_id, self._result_request(state, number, table, scores))
        return self._closing(entry, state, version, event)

    def confirm(self, entry: Entry, number: int, table: int) -> Read:
        """The player confirms the other's report of their table: a matching report, which closes it."""
        state, version = self.load(entry.club_id, entry.tournament_id)
        theirs = self._other_report(state, entry, number, table)
        event = TableReported(
            round=number,
            table=table,
            player_id=entry.player_id,
            scores=theirs.scores,
            confirms=theirs.player_id,
            link=entry.link,
        )
        return self._closing(entry, state, version, event)

    def dispute(self, entry: Entry, number: int, table: int, reason: str) -> Read:
        """The player says the other's report of their table is wrong: the organiser decides."""
        state, version = self.load(entry.club_id, entry.tournament_id)
        theirs = self._other_report(state, entry, number, table)
        event = ReportDisputed(
            round=number,
            table=table,
            player_id=entry.player_id,
            disputes=theirs.player_id,
            reason=reason,
            link=entry.link,
        )
        return self._record(entry.recorder, entry.tournament_id, state, version, [event])

    def _other_report(self, state: Tournament, entry: Entry, number: int, table: int) -> Report:
        """The report another player made of the entry's table (422 `no_report` without one)."""
        if 1 <= number <= len(state.rounds):
            others = [r for r in state.rounds[number - 1].reports_at(table) if r.player_id != entry.player_id]
            if others:
                return others[0]
        raise ProjectionError(
            "no_report",
            _("Nobody else has reported table {table} of round {round} yet.", table=table, round=number),
            round=number,
            table=table,
        )

    def _closing(self, entry: Entry, state: Tournament, version: int, event: TableReported) -> Read:
        """Record a report; when it makes two matching reports of the table and none that differs, the
        table's result-only game is recorded and attached in the same append."""
        check(state, event)
        after = apply(state, event)
        paired = after.rounds[event.round - 1]
        reports = paired.reports_at(event.table)
        events: list[TournamentEvent] = [event]
        if len(reports) >= 2 and not paired.disputed(event.table):
            game_id = self._result_game(entry.recorder, after, event.round, event.table, reports[0].scores)
            events.append(GameAttached(round=event.round, table=event.table, game_id=game_id))
        return self._record(entry.recorder, entry.tournament_id, state, version, events)

    def decide(
        self,
        recorder: Recorder,
        tournament_id: str,
        number: int,
        table: int,
        chosen: str | None,
        scores: Sequence[ScoreEntry] | None,
    ) -> Read:
        """The organiser settles a disputed table by one player's report (`chosen`) or by the result they
        enter (`scores`): 422 `not_disputed` when its players agree, `no_such_report` for a player who
        made none, `choose_or_enter` with neither or both."""
        state, version = self.load(recorder.club_id, tournament_id)
        event = DisputeDecided(round=number, table=table, chosen=chosen)
        check(state, event)
        if (chosen is None) == (scores is None):
            raise ProjectionError(
                "choose_or_enter", _("Choose one player's report, or enter the result."), round=number, table=table
            )
        if chosen is not None:
            scores = next(r.scores for r in state.rounds[number - 1].reports_at(table) if r.player_id == chosen)
        assert scores is not None
        game_id = self._result_game(recorder, state, number, table, scores)
        attached = GameAttached(round=number, table=table, game_id=game_id)
        return self._record(recorder, tournament_id, state, version, [event, attached])

    def seen_by(self, state: Tournament, player_id: str) -> PlayerView:
        """What the player sees by their link (published rounds only)."""
        names = state.names()
        entrant = next((e for e in state.entrants if e.player_id == player_id), None)
        if entrant is None:  # an entry revoked since the link was made
            raise ProjectionError(
                "not_entered",
                _("Player {player} is not playing in this tournament.", player=player_id),
                player_id=player_id,
            )
        upcoming = state.check_in_round()
        view = PlayerView(
            tournament_id=state.definition.tournament_id,
            title=state.definition.title,
            player_id=player_id,
            name=entrant.name,
            active=entrant.active,
            check_in_round=upcoming,
            checked_in=player_id in state.checked_in(upcoming),
        )
        published = state.published().latest
        if published is None:
            return view
        seated = published.place_of(player_id)
        if seated is None:
            status = "bye" if player_id in published.byes else None
            return msgspec.structs.replace(view, round=published.number, status=status)
        reports = published.reports_at(seated.table)
        answered = any(r.player_id == player_id for r in reports) or any(
            d.player_id == player_id for d in published.disputes if d.table == seated.table
        )
        if seated.forfeited:
            status = "forfeited"
        elif seated.game_id is not None:
            status = "closed"
        elif published.disputed(seated.table):
            status = "disputed"
        elif answered:
            status = "reported"
        else:
            status = "to_confirm" if reports else "open"
        return msgspec.structs.replace(
            view,
            round=published.number,
            table=seated.table,
            seats=[Seat(player_id=p, name=names.get(p, p)) for p in seated.seats],
            status=status,
            reports=reports,
            game_id=seated.game_id,
        )

    def evening(self, state: Tournament) -> Evening:
        """Check-ins for the round to come and the disputes to decide, for the organiser."""
        names = state.names()
        upcoming = state.check_in_round()
        checked = state.checked_in(upcoming)
        disputes = [
            TableDispute(
                round=r.number,
                table=t.table,
                seats=[Seat(player_id=p, name=names.get(p, p)) for p in t.seats],
                reports=r.reports_at(t.table),
                disputes=[d for d in r.disputes if d.table == t.table],
            )
            for r in state.rounds
            if not r.draft
            for t in r.tables
            if t.game_id is None and not t.forfeited and r.disputed(t.table)
        ]
        return Evening(
            check_in_round=upcoming,
            checked_in=[Seat(player_id=p, name=names.get(p, p)) for p in checked],
            not_checked_in=[Seat(player_id=p, name=names.get(p, p)) for p in state.active if p not in checked],
            disputes=disputes,
        )

    def start_game(self, recorder: Recorder, tournament_id: str, number: int, table: int) -> tuple[Read, str]:
        """A game of the table's players in its seats, recorded event by event from now and attached to the
        table (the table is checked first, so no game is made for a table that cannot take one)."""
        state, version = self.load(recorder.club_id, tournament_id)
        check(state, GameAttached(round=number, table=table, game_id=""))
        seats = next(t.seats for t in state.rounds[number - 1].tables if t.table == table)
        record = self.games.create_game(recorder.club_id, _table_game(state, number, table, seats), recorder)[0]
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


class PlayerLinks:
    """The organiser's player links of a tournament: share links of kind `player`, one live link per entry
    (a new one for the same player revokes the one before, so a lost phone's link stops working)."""

    def __init__(self, tournaments: Tournaments, keys: Keys) -> None:
        self.tournaments = tournaments
        self.keys = keys

    @classmethod
    def of(cls, records: Records) -> PlayerLinks:
        return cls(Tournaments.of(records), Keys.of(records))

    def make(
        self, club_id: str, tournament_id: str, player_id: str, made_by: str | None
    ) -> tuple[ShareLink, str, list[ShareLink]]:
        """A new link for the entry of `player_id` (422 `not_entered` for a player who has none, or has
        withdrawn): the link, its token (shown once), and the links it replaced, revoked."""
        state = self.tournaments.load(club_id, tournament_id)[0]
        entrant = next((e for e in state.entrants if e.player_id == player_id and e.active), None)
        if entrant is None:
            raise ProjectionError(
                "not_entered",
                _("Player {player} is not playing in this tournament.", player=player_id),
                player_id=player_id,
            )
        replaced = [
            self.keys.revoke_share(club_id, link.share_id)
            for link in self.listed(club_id, tournament_id)
            if link.player_id == player_id and link.revoked_at is None
        ]
        link, token = self.keys.create_share(club_id, "player", tournament_id, entrant.name, made_by, player_id)
        return link, token, replaced

    def listed(self, club_id: str, tournament_id: str) -> list[ShareLink]:
        """The tournament's player links (live and revoked), oldest first; never their tokens."""
        self.tournaments.events(club_id, tournament_id)  # NotFound for a tournament that does not exist
        return [link for link in self.keys.shares(club_id) if link.kind == "player" and link.target_id == tournament_id]

    def revoke(self, club_id: str, tournament_id: str, share_id: str) -> ShareLink:
        """Revoke one of the tournament's player links (404 for another link)."""
        link = self.keys.share(club_id, share_id)
        if link.kind != "player" or link.target_id != tournament_id:
            raise NotFound("player link", share_id)
        return self.keys.revoke_share(club_id, share_id)
