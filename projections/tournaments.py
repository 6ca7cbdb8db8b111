"""Tournaments: a club event of rounds whose pairings tablelog makes, kept as events so a tournament
replays like a game (`fold` over its stream), and the pure, deterministic pairing algorithms.

Systems
-------
- `round_robin` (two-player games): everyone meets everyone, by the circle method over the active
  players in order of entry (a late entry or a withdrawal reshapes the circle from the next round on).
- `swiss` (two-player games): players ranked by the standings so far (ties broken by a seeded hash,
  never the random module) are paired top down with the nearest player they may meet. Constraints,
  kept while avoidable and dropped in this order when no pairing keeps them all: side balance (in a
  two-sided game, two players who both owe the same side are not paired, so nobody's count of first
  and second sides differs by more than one), one bye per player (with an odd number, the bye goes to
  the lowest-ranked player who has not had one), and no repeat pairing. The round records which
  constraints it had to drop (`relaxed`). The search is exact up to `SEARCH_BUDGET` steps per level;
  past that, the level counts as impossible (and is recorded as relaxed).
- `tables` (multiplayer games): tables of `table_sizes` (3 to 5 by default) as even as possible,
  built from the standings (the best players together), then improved by swaps that reduce repeat
  opponents; seats are given so that each player takes the seats they have had least.

Standings after any round reuse `projections.standings` (the league's explained tie-break chains) over
the games attached to the Swiss rounds so far; a bye gives `bye_points` league points, a forfeit the
present players `forfeit_points` (default: a win's) and the absent ones a loss's, and a late entry
`late_entry_points` for each round it missed.

The evening
-----------
A round may be paired as a draft, changed by hand (players swapped, tables renumbered: each change
records the pairing rules it breaks), then published; results and forfeits wait for publication. A
knockout stage (single elimination of the top `cut` of the standings, the best seeds given the byes of
a field that is not a power of two) follows the Swiss. Nothing is edited: a `Revoked` event undoes one
earlier event (a forfeit, a withdrawal, an entry, an attached game, a hand change), and is accepted only
when the record without that event still holds (`revoke`).

Players on their phones: a player checks in for the round to come (`PlayerCheckedIn`), reports the result
of their table in a published round (`TableReported`, one answer a player a table; a confirmation is a
report that repeats another's) or disputes another's report (`ReportDisputed`). Reports that differ, or a
report disputed, make the table disputed (`Round.disputed`) until the organiser decides
(`DisputeDecided`); the game that closes a table is attached by a `GameAttached` as any other. Each of
these may be revoked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from itertools import combinations
from typing import Literal, TypeAlias

import msgspec

from domain.i18n import Message, english
from domain.ruleset import Event
from projections.errors import ProjectionError
from projections.standings import League, LeagueGame, Scoring, Standings, check_league, standings
from projections.words import Teller, _

System = Literal["round_robin", "swiss", "tables"]
Stage = Literal["swiss", "knockout"]
"""A round's stage: the system's own rounds (`swiss` for any system), or the knockout after them."""
SEARCH_BUDGET = 200_000
"""Steps of the exact pairing search per constraint level before the level counts as impossible."""


# -- events -------------------------------------------------------------------------------------------
class TournamentCreated(Event, frozen=True, kw_only=True, tag="tournament.created"):
    """A tournament: its ruleset, pairing system, seed of its tie-breaks, scoring and tie-break chain
    (as a league's), table sizes (`tables`), whether its seats are sides to balance (two-sided games),
    and the league points a bye gives."""

    tournament_id: str
    ruleset: str
    system: System
    title: str = ""
    seed: int = 0
    scoring: Scoring
    tie_breaks: tuple[str, ...] = ("points",)
    table_sizes: tuple[int, int] = (3, 5)
    sides: bool = False
    bye_points: int = 0
    forfeit_points: int | None = None
    """League points of a forfeit win (None: a win's, or first place's)."""
    late_entry_points: int = 0
    """League points a late entry gets for each round it missed."""
    rounds: int | None = None
    """The rounds of the system's stage planned (None: as many as the organiser pairs)."""


class PlayerEntered(Event, frozen=True, kw_only=True, tag="tournament.player_entered"):
    player_id: str
    name: str


class PlayerWithdrew(Event, frozen=True, kw_only=True, tag="tournament.player_withdrew"):
    player_id: str
    reason: str = ""


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """A table of a round: its number, the players in seat order (seat 0 first; in a two-sided game
    seat 0 takes the first side) and the game attached to it, once played."""

    table: int
    seats: tuple[str, ...]
    game_id: str | None = None
    forfeited: tuple[str, ...] = ()
    """The players who forfeited the table (absent or gone); the others score a forfeit win."""


class RoundPaired(Event, frozen=True, kw_only=True, tag="tournament.round_paired"):
    """The pairings of a round, as made when it was paired (so a replay never pairs again); a draft
    waits for `RoundPublished` before players see it or results count."""

    round: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    relaxed: tuple[str, ...] = ()
    draft: bool = False
    stage: Stage = "swiss"


class PlayersSwapped(Event, frozen=True, kw_only=True, tag="tournament.players_swapped"):
    """By hand, in a draft round: two players change places (table and seat, or a table and the bye).
    `breaks` are the pairing rules the change breaks, as warned when it was made."""

    round: int
    players: tuple[str, str]
    breaks: tuple[str, ...] = ()


class TableMoved(Event, frozen=True, kw_only=True, tag="tournament.table_moved"):
    """By hand, in a draft round: a table takes another number (the table holding that number, if any,
    takes the freed one)."""

    round: int
    table: int
    to: int


class RoundPublished(Event, frozen=True, kw_only=True, tag="tournament.round_published"):
    round: int


class TableForfeited(Event, frozen=True, kw_only=True, tag="tournament.table_forfeited"):
    """A table of a published round is forfeited by `absent` (a no-show, a player who left)."""

    round: int
    table: int
    absent: tuple[str, ...]
    reason: str = ""


class KnockoutStarted(Event, frozen=True, kw_only=True, tag="tournament.knockout_started"):
    """A single-elimination stage of the top `cut`, `seeds` in the order the standings gave them."""

    cut: int
    seeds: tuple[str, ...]


class Revoked(Event, frozen=True, kw_only=True, tag="tournament.revoked"):
    """Undoes the event at stream version `version` (a correction: the event stays in the record)."""

    version: int
    reason: str = ""


class RoundUnpaired(Event, frozen=True, kw_only=True, tag="tournament.round_unpaired"):
    """The latest round's pairings are taken back (after a correction changed an earlier result), so
    it can be paired again; its attached games are detached."""

    round: int
    reason: str = ""


class GameAttached(Event, frozen=True, kw_only=True, tag="tournament.game_attached"):
    round: int
    table: int
    game_id: str


class ScoreEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A player's score at a table, in the game's unit, and place where the table gives places."""

    player_id: str
    score: int
    placement: int | None = None


class PlayerCheckedIn(Event, frozen=True, kw_only=True, tag="tournament.player_checked_in"):
    """A player says they are here for round `round` (the next one players will see), by their player link
    (`link`, its share id) or by the organiser (`link` None)."""

    player_id: str
    round: int
    link: str | None = None


class TableReported(Event, frozen=True, kw_only=True, tag="tournament.table_reported"):
    """A player's report of the result at their table of a published round, by their player link: the
    scores of the table's players (`confirms`: the player whose report this one repeats, when it was made
    by confirming it). Two matching reports close the table: its result-only game is attached with the
    second."""

    round: int
    table: int
    player_id: str
    scores: tuple[ScoreEntry, ...]
    confirms: str | None = None
    link: str | None = None


class ReportDisputed(Event, frozen=True, kw_only=True, tag="tournament.report_disputed"):
    """A player says the report of `disputes` (another player at their table) is wrong: the organiser
    decides (`DisputeDecided`)."""

    round: int
    table: int
    player_id: str
    disputes: str
    reason: str = ""
    link: str | None = None


class DisputeDecided(Event, frozen=True, kw_only=True, tag="tournament.dispute_decided"):
    """The organiser settles a disputed table: by the report of `chosen`, or (None) by a result they
    entered; the table's result-only game is attached in the same append."""

    round: int
    table: int
    chosen: str | None = None


TournamentEvent: TypeAlias = (
    TournamentCreated
    | PlayerEntered
    | PlayerWithdrew
    | RoundPaired
    | RoundUnpaired
    | GameAttached
    | PlayersSwapped
    | TableMoved
    | RoundPublished
    | TableForfeited
    | KnockoutStarted
    | Revoked
    | PlayerCheckedIn
    | TableReported
    | ReportDisputed
    | DisputeDecided
)
REVOCABLE = (
    PlayerEntered,
    PlayerWithdrew,
    GameAttached,
    PlayersSwapped,
    TableMoved,
    TableForfeited,
    PlayerCheckedIn,
    TableReported,
    ReportDisputed,
    DisputeDecided,
)
"""The events a `Revoked` may undo (pairings are taken back by `RoundUnpaired`, and a revocation is
never revoked: the event is reported again)."""
EVENT_DECODER = msgspec.json.Decoder(TournamentEvent)


# -- state --------------------------------------------------------------------------------------------
class Entrant(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    active: bool = True
    entered_before: int = 1
    """The first round the player could be paired in."""


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """A player's report of a table's result (`TableReported`)."""

    table: int
    player_id: str
    scores: tuple[ScoreEntry, ...]
    confirms: str | None = None

    def matches(self, other: Report) -> bool:
        """The same scores and places for the same players (in any order)."""
        return sorted(self.scores, key=_by_player) == sorted(other.scores, key=_by_player)


def _by_player(entry: ScoreEntry) -> str:
    return entry.player_id


class Dispute(msgspec.Struct, frozen=True, kw_only=True):
    """A player's word that another's report of their table is wrong (`ReportDisputed`)."""

    table: int
    player_id: str
    disputes: str
    reason: str = ""


class Round(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    relaxed: tuple[str, ...] = ()
    draft: bool = False
    stage: Stage = "swiss"
    warnings: tuple[str, ...] = ()
    """The pairing rules the hand changes to the round broke, each once."""
    reports: tuple[Report, ...] = ()
    """The players' reports of their tables' results, in the order made."""
    disputes: tuple[Dispute, ...] = ()
    decided: tuple[int, ...] = ()
    """The tables whose dispute the organiser decided."""

    def place_of(self, player: str) -> Table | None:
        return next((t for t in self.tables if player in t.seats), None)

    def reports_at(self, table: int) -> list[Report]:
        return [r for r in self.reports if r.table == table]

    def disputed(self, table: int) -> bool:
        """Whether the players' reports of `table` disagree (two that differ, or one disputed) and the
        organiser has not decided it."""
        if table in self.decided:
            return False
        reports = self.reports_at(table)
        differ = any(not a.matches(b) for a, b in combinations(reports, 2))
        return differ or any(d.table == table for d in self.disputes)


class Knockout(msgspec.Struct, frozen=True, kw_only=True):
    cut: int
    seeds: tuple[str, ...]


class CheckIn(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    round: int
    link: str | None = None


class Tournament(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament as its events left it."""

    definition: TournamentCreated
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    knockout: Knockout | None = None
    check_ins: tuple[CheckIn, ...] = ()

    def check_in_round(self) -> int:
        """The round a player checks in for now: the first one players have not seen (a draft is not seen)."""
        return sum(1 for r in self.rounds if not r.draft) + 1

    def checked_in(self, number: int) -> list[str]:
        """The players checked in for round `number`, in the order they did."""
        return [c.player_id for c in self.check_ins if c.round == number]

    @property
    def active(self) -> list[str]:
        return [e.player_id for e in self.entrants if e.active]

    def names(self) -> dict[str, str]:
        return {e.player_id: e.name for e in self.entrants}

    @property
    def latest(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def stage_rounds(self, stage: Stage) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.stage == stage)

    def published(self) -> Tournament:
        """What players see: the rounds published (a draft is the organiser's alone)."""
        return msgspec.structs.replace(self, rounds=tuple(r for r in self.rounds if not r.draft))

    def last_round_played(self) -> bool:
        """Whether no further round of the system's stage may be paired (its planned rounds are paired,
        or the knockout has started)."""
        planned = self.definition.rounds
        return self.knockout is not None or (planned is not None and len(self.stage_rounds("swiss")) >= planned)


def check(state: Tournament | None, event: TournamentEvent) -> None:
    """Raise ProjectionError when `event` cannot happen to the tournament as it stands (a `Revoked` is
    checked against the whole record by `revoke`)."""
    if state is None:
        if not isinstance(event, TournamentCreated):
            raise ProjectionError("no_tournament", _("A tournament starts with its creation."))
        return
    if isinstance(event, TournamentCreated):
        raise ProjectionError("already_created", _("The tournament exists already."))
    known = {e.player_id: e for e in state.entrants}
    if isinstance(event, PlayerEntered):
        if event.player_id in known and known[event.player_id].active:
            raise ProjectionError(
                "already_entered", _("{player} is already entered.", player=event.name), player_id=event.player_id
            )
        if state.last_round_played():
            raise ProjectionError(
                "after_last_round",
                _("The last round of the tournament is paired: a player can no longer enter."),
                player_id=event.player_id,
                rounds=len(state.rounds),
            )
    elif isinstance(event, PlayerWithdrew):
        if event.player_id not in known or not known[event.player_id].active:
            raise ProjectionError(
                "not_entered",
                _("Player {player} is not playing in this tournament.", player=event.player_id),
                player_id=event.player_id,
            )
    elif isinstance(event, RoundPaired):
        if event.round != len(state.rounds) + 1:
            raise ProjectionError(
                "wrong_round", _("The next round is round {round}.", round=len(state.rounds) + 1), round=event.round
            )
        placed = [p for t in event.tables for p in t.seats] + list(event.byes)
        strangers = [p for p in placed if p not in known or not known[p].active]
        if strangers:
            raise ProjectionError(
                "not_entered",
                _("Player {player} is not playing in this tournament.", player=strangers[0]),
                player_id=strangers[0],
            )
        if event.stage == "swiss" and state.last_round_played():
            raise ProjectionError(
                "after_last_round",
                _("The last round is paired already.")
                if state.knockout is None
                else _("The knockout has started: its rounds follow the bracket."),
                round=event.round,
            )
        if event.stage == "knockout" and state.knockout is None:
            raise ProjectionError("no_knockout", _("The knockout has not started."), round=event.round)
        if state.latest is not None and state.latest.draft:
            raise ProjectionError(
                "round_not_published",
                _("Round {round} is a draft: publish it first.", round=state.latest.number),
                round=state.latest.number,
            )
    elif isinstance(event, RoundUnpaired):
        if not state.rounds or event.round != len(state.rounds):
            raise ProjectionError(
                "not_latest_round",
                _("Only the latest round can be paired again."),
                round=event.round,
                latest=len(state.rounds),
            )
    elif isinstance(event, GameAttached):
        table = _published_table(state, event.round, event.table)
        if table.game_id is not None:
            raise ProjectionError(
                "table_played",
                _(
                    "Table {table} of round {round} already has game {game_id}.",
                    table=event.table,
                    round=event.round,
                    game_id=table.game_id or "",
                ),
                round=event.round,
                table=event.table,
            )
        _not_forfeited(table, event.round)
        attached = {t.game_id for r in state.rounds for t in r.tables}
        if event.game_id in attached:
            raise ProjectionError(
                "game_attached",
                _("Game {game_id} is already attached to a table.", game_id=event.game_id),
                game_id=event.game_id,
            )
    elif isinstance(event, (PlayersSwapped, TableMoved)):
        paired = _draft(state, event.round)
        if isinstance(event, PlayersSwapped):
            a, b = event.players
            in_round = {p for t in paired.tables for p in t.seats} | set(paired.byes)
            missing = [p for p in (a, b) if p not in in_round]
            if a == b or missing:
                raise ProjectionError(
                    "not_in_round",
                    _("{player} is not in round {round}.", player=_named(state, missing[0]), round=event.round)
                    if missing
                    else _("Swap two players."),
                    round=event.round,
                    players=[a, b],
                )
            if a in paired.byes and b in paired.byes:
                raise ProjectionError("both_byes", _("Both players have the bye."), round=event.round, players=[a, b])
            if paired.stage == "knockout":
                raise ProjectionError(
                    "knockout_bracket",
                    _("A knockout round follows its bracket: players are swapped in the Swiss rounds only."),
                    round=event.round,
                )
        else:
            _table(state, event.round, event.table)
            if event.to < 1:
                raise ProjectionError("bad_table_number", _("Tables are numbered from 1."), to=event.to)
    elif isinstance(event, RoundPublished):
        _draft(state, event.round)
    elif isinstance(event, TableForfeited):
        table = _published_table(state, event.round, event.table)
        _not_forfeited(table, event.round)
        strangers = [p for p in event.absent if p not in table.seats]
        if not event.absent or strangers or len(set(event.absent)) != len(event.absent):
            raise ProjectionError(
                "not_at_table",
                _(
                    "{player} is not at table {table} of round {round}.",
                    player=_named(state, strangers[0]),
                    table=event.table,
                    round=event.round,
                )
                if strangers
                else _("Name the players who forfeit, each once."),
                round=event.round,
                table=event.table,
                absent=list(event.absent),
            )
    elif isinstance(event, KnockoutStarted):
        _check_knockout(state, event)
    elif isinstance(event, PlayerCheckedIn):
        _check_check_in(state, event)
    elif isinstance(event, (TableReported, ReportDisputed, DisputeDecided)):
        _check_report(state, event)


def _named(state: Tournament, player_id: str) -> str:
    """How a refusal names a player: by the entrant's name, as the rest of the evening does (the id of a
    player who never entered)."""
    return next((e.name for e in state.entrants if e.player_id == player_id), player_id)


def _check_check_in(state: Tournament, event: PlayerCheckedIn) -> None:
    entrant = next((e for e in state.entrants if e.player_id == event.player_id), None)
    if entrant is None:
        raise ProjectionError(
            "not_entered",
            _("Player {player} is not playing in this tournament.", player=event.player_id),
            player_id=event.player_id,
        )
    if not entrant.active:
        raise ProjectionError(
            "withdrawn",
            _("{player} has withdrawn from the tournament: there is no round to check in for.", player=entrant.name),
            player_id=event.player_id,
        )
    if event.round != state.check_in_round():
        raise ProjectionError(
            "wrong_round", _("Players check in for round {round}.", round=state.check_in_round()), round=event.round
        )
    if event.player_id in state.checked_in(event.round):
        raise ProjectionError(
            "already_checked_in",
            _("{player} is checked in for round {round} already.", player=entrant.name, round=event.round),
            player_id=event.player_id,
            round=event.round,
        )


def _check_report(state: Tournament, event: TableReported | ReportDisputed | DisputeDecided) -> None:
    """A report, a dispute or a decision about an open table of a published round (neither forfeited nor
    with its game), by a player at it; one report or dispute per player."""
    table = _published_table(state, event.round, event.table)
    _not_forfeited(table, event.round)
    if table.game_id is not None:
        raise ProjectionError(
            "table_closed",
            _("Table {table} of round {round} is closed: its result is in.", table=event.table, round=event.round),
            round=event.round,
            table=event.table,
            game_id=table.game_id,
        )
    paired = state.rounds[event.round - 1]
    reports = {r.player_id: r for r in paired.reports_at(event.table)}
    if isinstance(event, DisputeDecided):
        if not paired.disputed(event.table):
            raise ProjectionError(
                "not_disputed",
                _(
                    "The players of table {table} of round {round} do not disagree.",
                    table=event.table,
                    round=event.round,
                ),
                round=event.round,
                table=event.table,
            )
        if event.chosen is not None and event.chosen not in reports:
            raise ProjectionError(
                "no_such_report",
                _("{player} made no report of table {table}.", player=_named(state, event.chosen), table=event.table),
                round=event.round,
                table=event.table,
                chosen=event.chosen,
            )
        return
    named = [event.player_id] + (
        [s.player_id for s in event.scores] if isinstance(event, TableReported) else [event.disputes]
    )
    strangers = [p for p in named if p not in table.seats]
    if strangers:
        raise ProjectionError(
            "not_at_table",
            _(
                "{player} is not at table {table} of round {round}.",
                player=_named(state, strangers[0]),
                table=event.table,
                round=event.round,
            ),
            round=event.round,
            table=event.table,
            players=strangers,
        )
    answered = event.player_id in reports or any(
        d.player_id == event.player_id for d in paired.disputes if d.table == event.table
    )
    if answered:
        raise ProjectionError(
            "already_reported",
            _(
                "{player} has reported on table {table} of round {round} already.",
                player=_named(state, event.player_id),
                table=event.table,
                round=event.round,
            ),
            round=event.round,
            table=event.table,
            player_id=event.player_id,
        )
    if isinstance(event, TableReported):
        listed = [s.player_id for s in event.scores]
        if sorted(listed) != sorted(table.seats):
            raise ProjectionError(
                "scores_per_player",
                _("A report gives one score for each player at the table."),
                round=event.round,
                table=event.table,
                players=listed,
            )
        if event.confirms is not None and event.confirms not in reports:
            raise ProjectionError(
                "no_such_report",
                _("{player} made no report of table {table}.", player=_named(state, event.confirms), table=event.table),
                round=event.round,
                table=event.table,
                confirms=event.confirms,
            )
    elif event.disputes not in reports or event.disputes == event.player_id:
        raise ProjectionError(
            "no_such_report",
            _(
                "{player} made no report of table {table} to dispute.",
                player=_named(state, event.disputes),
                table=event.table,
            ),
            round=event.round,
            table=event.table,
            disputes=event.disputes,
        )


def _check_knockout(state: Tournament, event: KnockoutStarted) -> None:
    if state.definition.system == "tables":
        raise ProjectionError("knockout_two_player", _("A knockout pairs two players a table."))
    if state.knockout is not None:
        raise ProjectionError("knockout_started", _("The knockout has started already."))
    if state.latest is not None and state.latest.draft:
        raise ProjectionError(
            "round_not_published",
            _("Round {round} is a draft: publish it first.", round=state.latest.number),
            round=len(state.rounds),
        )
    field = len(state.active)
    if event.cut < 2 or field < event.cut:
        raise ProjectionError(
            "field_smaller_than_cut",
            _(
                "A top cut of {cut} needs {needed} active players; there are {players}.",
                cut=event.cut,
                needed=max(event.cut, 2),
                players=field,
            ),
            cut=event.cut,
            players=field,
        )
    if len(event.seeds) != event.cut or len(set(event.seeds)) != event.cut or not set(event.seeds) <= set(state.active):
        raise ProjectionError("bad_seeds", _("The seeds are the cut's active players, each once."), cut=event.cut)


def _table(state: Tournament, number: int, table: int) -> Table:
    if not 1 <= number <= len(state.rounds):
        raise ProjectionError("no_such_round", _("There is no round {round}.", round=number), round=number)
    for candidate in state.rounds[number - 1].tables:
        if candidate.table == table:
            return candidate
    raise ProjectionError(
        "no_such_table", _("Round {round} has no table {table}.", round=number, table=table), round=number, table=table
    )


def _published_table(state: Tournament, number: int, table: int) -> Table:
    found = _table(state, number, table)
    if state.rounds[number - 1].draft:
        raise ProjectionError(
            "round_not_published", _("Round {round} is a draft: publish it first.", round=number), round=number
        )
    return found


def _draft(state: Tournament, number: int) -> Round:
    if not 1 <= number <= len(state.rounds):
        raise ProjectionError("no_such_round", _("There is no round {round}.", round=number), round=number)
    paired = state.rounds[number - 1]
    if not paired.draft:
        raise ProjectionError(
            "round_published",
            _("Round {round} is published: its pairings are no longer changed by hand.", round=number),
            round=number,
        )
    return paired


def _not_forfeited(table: Table, number: int) -> None:
    if table.forfeited:
        raise ProjectionError(
            "table_closed",
            _("Table {table} of round {round} is closed: it was forfeited.", table=table.table, round=number),
            round=number,
            table=table.table,
        )


def apply(state: Tournament | None, event: TournamentEvent) -> Tournament:
    """The tournament after an accepted event (never checks: see `check`; a `Revoked` changes nothing
    here, `fold` leaves out the event it undoes)."""
    if isinstance(event, TournamentCreated):
        return Tournament(definition=event)
    assert state is not None
    if isinstance(event, PlayerEntered):
        others = tuple(e for e in state.entrants if e.player_id != event.player_id)
        entrant = Entrant(player_id=event.player_id, name=event.name, entered_before=len(state.rounds) + 1)
        return msgspec.structs.replace(state, entrants=(*others, entrant))
    if isinstance(event, PlayerWithdrew):
        entrants = tuple(
            msgspec.structs.replace(e, active=False) if e.player_id == event.player_id else e for e in state.entrants
        )
        return msgspec.structs.replace(state, entrants=entrants)
    if isinstance(event, RoundPaired):
        paired = Round(
            number=event.round,
            tables=event.tables,
            byes=event.byes,
            relaxed=event.relaxed,
            draft=event.draft,
            stage=event.stage,
        )
        return msgspec.structs.replace(state, rounds=(*state.rounds, paired))
    if isinstance(event, RoundUnpaired):
        return msgspec.structs.replace(state, rounds=state.rounds[:-1])
    if isinstance(event, KnockoutStarted):
        return msgspec.structs.replace(state, knockout=Knockout(cut=event.cut, seeds=event.seeds))
    if isinstance(event, Revoked):
        return state
    if isinstance(event, PlayerCheckedIn):
        check_in = CheckIn(player_id=event.player_id, round=event.round, link=event.link)
        return msgspec.structs.replace(state, check_ins=(*state.check_ins, check_in))
    number = event.round
    target = state.rounds[number - 1]
    if isinstance(event, TableReported):
        report = Report(table=event.table, player_id=event.player_id, scores=event.scores, confirms=event.confirms)
        changed = msgspec.structs.replace(target, reports=(*target.reports, report))
    elif isinstance(event, ReportDisputed):
        dispute = Dispute(table=event.table, player_id=event.player_id, disputes=event.disputes, reason=event.reason)
        changed = msgspec.structs.replace(target, disputes=(*target.disputes, dispute))
    elif isinstance(event, DisputeDecided):
        changed = msgspec.structs.replace(target, decided=(*target.decided, event.table))
    elif isinstance(event, RoundPublished):
        changed = msgspec.structs.replace(target, draft=False)
    elif isinstance(event, PlayersSwapped):
        changed = _swapped(target, *event.players)
        warned = tuple(dict.fromkeys((*target.warnings, *event.breaks)))
        changed = msgspec.structs.replace(changed, warnings=warned)
    elif isinstance(event, TableMoved):
        holder = next((t.table for t in target.tables if t.table == event.to), None)

        def renumbered(t: Table) -> Table:
            if t.table == event.table:
                return msgspec.structs.replace(t, table=event.to)
            if holder is not None and t.table == event.to:
                return msgspec.structs.replace(t, table=event.table)
            return t

        changed = msgspec.structs.replace(
            target, tables=tuple(sorted((renumbered(t) for t in target.tables), key=lambda t: t.table))
        )
    else:
        table = event.table

        def played(t: Table) -> Table:
            if isinstance(event, GameAttached):
                return msgspec.structs.replace(t, game_id=event.game_id)
            assert isinstance(event, TableForfeited)
            return msgspec.structs.replace(t, forfeited=event.absent)

        changed = msgspec.structs.replace(
            target, tables=tuple(played(t) if t.table == table else t for t in target.tables)
        )
    rounds = list(state.rounds)
    rounds[number - 1] = changed
    return msgspec.structs.replace(state, rounds=tuple(rounds))


def _swapped(paired: Round, a: str, b: str) -> Round:
    def other(p: str) -> str:
        return b if p == a else a if p == b else p

    tables = tuple(msgspec.structs.replace(t, seats=tuple(other(p) for p in t.seats)) for t in paired.tables)
    return msgspec.structs.replace(paired, tables=tables, byes=tuple(other(p) for p in paired.byes))


def swap_breaks(state: Tournament, number: int, a: str, b: str) -> tuple[str, ...]:
    """The pairing rules that swapping `a` and `b` in draft round `number` breaks: `no_repeat` (two
    players who met already sit together), `one_bye` (the bye goes to a player who has had one),
    `sides` (two players who owe the same side meet)."""
    before = state.rounds[number - 1]
    after = _swapped(before, a, b)
    past = history(state.rounds[: number - 1])
    moved = {a, b}
    breaks: list[str] = []
    touched = [t for t in after.tables if moved & set(t.seats)]
    if any(past.meetings(x, y) for t in touched for x, y in combinations(t.seats, 2)):
        breaks.append("no_repeat")
    if any(past.byes.get(p) for p in after.byes if p in moved):
        breaks.append("one_bye")
    if state.definition.sides:
        for t in touched:
            x, y = past.balance(t.seats[0]), past.balance(t.seats[1])
            if (x > 0 and y > 0) or (x < 0 and y < 0):
                breaks.append("sides")
                break
    return tuple(breaks)


def fold(events: Iterable[TournamentEvent]) -> Tournament:
    """A tournament replayed from its events, leaving out the ones a `Revoked` undid."""
    listed = list(events)
    revoked = {e.version for e in listed if isinstance(e, Revoked)}
    state: Tournament | None = None
    for version, event in enumerate(listed, start=1):
        if version not in revoked:
            state = apply(state, event)
    if state is None:
        raise ProjectionError("no_tournament", _("A tournament starts with its creation."))
    return state


def revoke(events: Sequence[TournamentEvent], revocation: Revoked) -> Tournament:
    """The tournament once `revocation` is added to `events` (the stream so far): refused when the event
    is not one a revocation undoes, or when the record without it does not hold (an entry revoked after
    the player was paired; a forfeit revoked after a game was attached to its table)."""
    target = revocation.version
    if not 1 <= target <= len(events):
        raise ProjectionError("no_such_event", _("The record has no event {version}.", version=target), version=target)
    undone = {e.version for e in events if isinstance(e, Revoked)}
    if target in undone:
        raise ProjectionError(
            "already_revoked", _("Event {version} is revoked already.", version=target), version=target
        )
    event = events[target - 1]
    if not isinstance(event, REVOCABLE):
        raise ProjectionError(
            "not_revocable",
            _("Event {version} ({kind}) cannot be revoked.", version=target, kind=event_kind(event)),
            version=target,
            kind=event_kind(event),
        )
    undone.add(target)
    state: Tournament | None = None
    for version, kept in enumerate(events, start=1):
        if version in undone or isinstance(kept, Revoked):
            continue
        try:
            check(state, kept)
        except ProjectionError as error:
            raise ProjectionError(
                "revocation_breaks_record",
                _(
                    "Without event {version}, event {breaks} ({kind}) could not have happened: {why}",
                    version=target,
                    breaks=version,
                    kind=event_kind(kept),
                    why=error.said,
                ),
                version=target,
                breaks=version,
            ) from error
        state = apply(state, kept)
    assert state is not None
    return state


def event_kind(event: TournamentEvent) -> str:
    return str(type(event).__struct_config__.tag)


# -- history and ranking ----------------------------------------------------------------------------------
class History(msgspec.Struct, kw_only=True):
    """What pairing reads from the rounds so far: who met whom how often, byes, seats taken."""

    met: dict[tuple[str, str], int] = msgspec.field(default_factory=dict)
    byes: dict[str, int] = msgspec.field(default_factory=dict)
    seats: dict[str, list[int]] = msgspec.field(default_factory=dict)
    """Per player, the seat taken in each round played, in order."""

    def meetings(self, a: str, b: str) -> int:
        return self.met.get((a, b) if a < b else (b, a), 0)

    def balance(self, player: str) -> int:
        """First sides minus second sides (seat 0 minus seat 1)."""
        seats = self.seats.get(player, [])
        return seats.count(0) - seats.count(1)


def history(rounds: Sequence[Round]) -> History:
    out = History()
    for paired in rounds:
        for table in paired.tables:
            for seat, player in enumerate(table.seats):
                out.seats.setdefault(player, []).append(seat)
            for a, b in combinations(sorted(table.seats), 2):
                out.met[(a, b)] = out.met.get((a, b), 0) + 1
        for player in paired.byes:
            out.byes[player] = out.byes.get(player, 0) + 1
    return out


def seeded(seed: int, player_id: str) -> str:
    """A player's place among equals: a hash of the tournament's seed and the player (deterministic)."""
    return hashlib.sha256(f"{seed}:{player_id}".encode()).hexdigest()


def ranking(active: Sequence[str], table: Standings | None, seed: int) -> list[str]:
    """The active players in standings order, equal ranks (and everyone before any game) in seeded order."""
    rank = {row.player_id: row.rank for row in table.rows} if table is not None else {}
    return sorted(active, key=lambda p: (rank.get(p, 0), seeded(seed, p)))


# -- pairing ------------------------------------------------------------------------------------------------
def pair(
    tournament: Tournament, order: Sequence[str], *, budget: int = SEARCH_BUDGET, draft: bool = False
) -> RoundPaired:
    """The next round's pairings for the active players in `order` (the ranking), as a draft if asked."""
    paired = _pair(tournament, order, budget=budget)
    return msgspec.structs.replace(paired, draft=True) if draft else paired


def _pair(tournament: Tournament, order: Sequence[str], *, budget: int) -> RoundPaired:
    definition = tournament.definition
    number = len(tournament.rounds) + 1
    past = history(tournament.rounds)
    if len(order) < 2:
        raise ProjectionError("too_few_players", _("A round needs at least two active players."), players=len(order))
    if definition.system == "round_robin":
        entry = [e.player_id for e in tournament.entrants if e.player_id in set(order)]
        tables, byes = round_robin(entry, number)
        seated = tuple(
            msgspec.structs.replace(t, seats=_sides_for(t.seats[0], t.seats[1], past, number)) for t in tables
        )
        return RoundPaired(round=number, tables=seated, byes=byes)
    if definition.system == "swiss":
        tables, byes, relaxed = swiss(order, past, sides=definition.sides, round_number=number, budget=budget)
        return RoundPaired(round=number, tables=tables, byes=byes, relaxed=relaxed)
    tables, byes = multiplayer_tables(order, past, definition.table_sizes)
    return RoundPaired(round=number, tables=tables, byes=byes)


def round_robin(players: Sequence[str], round_number: int) -> tuple[tuple[Table, ...], tuple[str, ...]]:
    """Round `round_number` of the circle method: the first player stays, the others turn one place a
    round (seats are given by `pair`, which balances them)."""
    circle: list[str | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    size = len(circle)
    turn = (round_number - 1) % (size - 1)
    others = circle[1:]
    others = others[-turn:] + others[:-turn] if turn else others
    arranged = [circle[0], *others]
    tables: list[Table] = []
    byes: list[str] = []
    for index in range(size // 2):
        a, b = arranged[index], arranged[size - 1 - index]
        if a is None or b is None:
            byes.extend(p for p in (a, b) if p is not None)
            continue
        tables.append(Table(table=len(tables) + 1, seats=(a, b)))
    return tuple(tables), tuple(byes)


class _OutOfBudget(Exception):
    pass


def swiss(
    order: Sequence[str], past: History, *, sides: bool, round_number: int, budget: int = SEARCH_BUDGET
) -> tuple[tuple[Table, ...], tuple[str, ...], tuple[str, ...]]:
    """Swiss pairings for players in ranking order: (tables, byes, constraints dropped)."""
    constraints = [c for c in ("sides", "one_bye", "no_repeat") if sides or c != "sides"]
    levels = [tuple(constraints[i:]) for i in range(len(constraints) + 1)]
    for level in levels:
        steps = [budget]
        try:
            found = _swiss_level(list(order), past, set(level), steps)
        except _OutOfBudget:
            found = None
        if found is not None:
            pairs, bye = found
            tables = tuple(
                Table(table=n, seats=_sides_for(a, b, past, round_number)) for n, (a, b) in enumerate(pairs, start=1)
            )
            relaxed = tuple(c for c in constraints if c not in level)
            return tables, (bye,) if bye else (), relaxed
    raise AssertionError("the last level has no constraint and always pairs")  # pragma: no cover


RELAXED = {
    "sides": _("Side balance was dropped: two players who owe the same side could be paired."),
    "one_bye": _("One bye per player was dropped: the bye could go to a player who has had one."),
    "no_repeat": _("No repeat pairing was dropped: two players could meet again."),
}
"""What each constraint a Swiss round had to drop (`Round.relaxed`, `RoundPaired.relaxed`) means, to
show beside the round (its code stays the round's record)."""


def relaxed_message(constraint: str) -> Message:
    """The sentence that says a round dropped `constraint` (one of `RELAXED`)."""
    return RELAXED[constraint]


BREAKS = {
    "sides": _("This change pairs two players who owe the same side."),
    "one_bye": _("This change gives the bye to a player who has had one."),
    "no_repeat": _("This change pairs two players who have met already."),
}
"""What each pairing rule a hand change broke (`Round.warnings`, `PlayersSwapped.breaks`) means."""


def break_message(rule: str) -> Message:
    """The warning that says a hand change broke `rule` (one of `BREAKS`)."""
    return BREAKS[rule]


# -- knockout -----------------------------------------------------------------------------------------------
def bracket_order(size: int) -> list[int]:
    """The seeds (1 = best) of a bracket of `size` (a power of two) slot by slot, so that the best seeds
    meet as late as possible: 1, 8, 4, 5, 2, 7, 3, 6 for eight."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for first in order for seed in (first, total - first)]
    return order


def knockout_slots(tournament: Tournament, winners: Mapping[str, str | None]) -> list[str | None]:
    """The players still in the knockout, in bracket order, after its rounds so far (None: an empty
    slot, whose neighbour has a bye). A seed beyond the cut, a withdrawn player and a table both players
    forfeited leave a slot empty. `winners` maps each finished knockout game to its winner (None: no
    winner, refused as `no_winner`)."""
    knockout = tournament.knockout
    assert knockout is not None
    size = 1
    while size < knockout.cut:
        size *= 2
    slots: list[str | None] = [knockout.seeds[s - 1] if s <= knockout.cut else None for s in bracket_order(size)]
    for paired in tournament.stage_rounds("knockout"):
        slots = [_advancing(paired, a, b, winners) for a, b in zip(slots[::2], slots[1::2], strict=True)]
    active = set(tournament.active)
    return [p if p in active else None for p in slots]


def _advancing(paired: Round, a: str | None, b: str | None, winners: Mapping[str, str | None]) -> str | None:
    """Who of a pair of slots goes through the round: the winner of their table, or the one given the
    bye (the other's slot empty, or withdrawn when the round was paired)."""
    for player in (a, b):
        if player is None:
            continue
        table = paired.place_of(player)
        if table is None:
            if player in paired.byes:
                return player
            continue
        if table.forfeited:
            present = [p for p in table.seats if p not in table.forfeited]
            return present[0] if len(present) == 1 else None
        winner = winners.get(table.game_id) if table.game_id is not None else None
        if winner is None:
            raise ProjectionError(
                "no_winner",
                _(
                    "Table {table} of round {round} has no winner: a knockout game needs one.",
                    table=table.table,
                    round=paired.number,
                ),
                round=paired.number,
                table=table.table,
            )
        return winner
    return None


def champion(tournament: Tournament, winners: Mapping[str, str | None]) -> str | None:
    """The knockout's winner, once it has one."""
    if tournament.knockout is None:
        return None
    slots = knockout_slots(tournament, winners)
    return slots[0] if len(slots) == 1 else None


def pair_knockout(tournament: Tournament, winners: Mapping[str, str | None], *, draft: bool = False) -> RoundPaired:
    """The knockout's next round: the slots paired two by two, a player alone in a pair given a bye."""
    slots = knockout_slots(tournament, winners)
    if len(slots) == 1:
        raise ProjectionError("knockout_finished", _("The knockout is over."), champion=slots[0])
    number = len(tournament.rounds) + 1
    past = history(tournament.rounds)
    tables: list[Table] = []
    byes: list[str] = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        if a is not None and b is not None:
            tables.append(Table(table=len(tables) + 1, seats=_sides_for(a, b, past, number)))
        elif a is not None or b is not None:
            byes.append(a or b)  # type: ignore[arg-type]
    return RoundPaired(round=number, tables=tuple(tables), byes=tuple(byes), draft=draft, stage="knockout")


def _swiss_level(
    order: list[str], past: History, level: set[str], steps: list[int]
) -> tuple[list[tuple[str, str]], str | None] | None:
    def allowed(a: str, b: str) -> bool:
        if "no_repeat" in level and past.meetings(a, b):
            return False
        if "sides" in level:
            x, y = past.balance(a), past.balance(b)
            if (x > 0 and y > 0) or (x < 0 and y < 0):
                return False
        return True

    candidates: list[str | None] = [None]
    if len(order) % 2:
        bottom_up = list(reversed(order))
        candidates = [p for p in bottom_up if "one_bye" not in level or not past.byes.get(p)]
    for bye in candidates:
        rest = [p for p in order if p != bye]
        pairs = _match(rest, allowed, steps)
        if pairs is not None:
            return pairs, bye
    return None


def _match(players: list[str], allowed: Callable[[str, str], bool], steps: list[int]) -> list[tuple[str, str]] | None:
    """Pair the first player with the nearest one allowed, then the rest; backtrack on a dead end."""
    if not players:
        return []
    steps[0] -= 1
    if steps[0] < 0:
        raise _OutOfBudget()
    first, others = players[0], players[1:]
    for index, partner in enumerate(others):
        if not allowed(first, partner):
            continue
        rest = _match(others[:index] + others[index + 1 :], allowed, steps)
        if rest is not None:
            return [(first, partner), *rest]
    return None


def _sides_for(a: str, b: str, past: History, round_number: int) -> tuple[str, str]:
    """Who takes the first side, or seat 0 where seats are not sides (it plays first): the one who has
    had it less; between equals, the one who had the second seat last time; else the higher-ranked `a`
    on odd rounds."""
    x, y = past.balance(a), past.balance(b)
    if x != y:
        return (a, b) if x < y else (b, a)
    last_a, last_b = (past.seats.get(a) or [-1])[-1], (past.seats.get(b) or [-1])[-1]
    if last_a != last_b:
        return (a, b) if last_a == 1 or last_b == 0 else (b, a)
    return (a, b) if round_number % 2 else (b, a)


def table_sizes(players: int, sizes: tuple[int, int]) -> list[int]:
    """The sizes of the tables for `players`, each within `sizes` and as even as possible (near the
    middle of the range); one short table when there are fewer players than the smallest size."""
    low, high = sizes
    if players < low:
        return [players] if players >= 2 else []
    fewest, most = -(-players // high), players // low
    middle = (low + high) / 2
    count = min(max(round(players / middle), fewest), most)
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def multiplayer_tables(
    order: Sequence[str], past: History, sizes: tuple[int, int]
) -> tuple[tuple[Table, ...], tuple[str, ...]]:
    """Tables built from the standings, then swaps that lower repeat meetings; seats balanced."""
    plan = table_sizes(len(order), sizes)
    if not plan:
        return (), tuple(order)
    remaining = list(order)
    groups: list[list[str]] = []
    for size in plan:
        group = [remaining.pop(0)]
        while len(group) < size:
            window = remaining[: max(3 * size, 12)]
            best = min(window, key=lambda p: (sum(past.meetings(p, q) for q in group), remaining.index(p)))
            group.append(best)
            remaining.remove(best)
        groups.append(group)
    _improve(groups, past)
    tables = tuple(Table(table=n, seats=_seat(group, past)) for n, group in enumerate(groups, start=1))
    return tables, ()


def _repeats(group: Sequence[str], past: History) -> int:
    return sum(past.meetings(a, b) for a, b in combinations(group, 2))


def _improve(groups: list[list[str]], past: History, passes: int = 4) -> None:
    """Swap players between tables while a swap lowers the repeat meetings (first improvement, in order)."""
    for _pass in range(passes):
        improved = False
        for i, j in combinations(range(len(groups)), 2):
            for x in range(len(groups[i])):
                for y in range(len(groups[j])):
                    a, b = groups[i][x], groups[j][y]
                    before = _repeats(groups[i], past) + _repeats(groups[j], past)
                    if before == 0:
                        continue
                    groups[i][x], groups[j][y] = b, a
                    if _repeats(groups[i], past) + _repeats(groups[j], past) < before:
                        improved = True
                    else:
                        groups[i][x], groups[j][y] = a, b
        if not improved:
            return


def _seat(group: Sequence[str], past: History) -> tuple[str, ...]:
    """Seat by seat, the player who has taken that seat least (then the one whose seats were latest on
    average, then the ranking)."""
    left = list(group)
    seats: list[str] = []
    for seat in range(len(group)):

        def key(p: str, seat: int = seat) -> tuple[int, float, int]:
            taken = past.seats.get(p, [])
            average = sum(taken) / len(taken) if taken else 0.0
            return (taken.count(seat), -average, group.index(p))

        chosen = min(left, key=key)
        seats.append(chosen)
        left.remove(chosen)
    return tuple(seats)


# -- standings ------------------------------------------------------------------------------------------------
def as_league(tournament: Tournament) -> League:
    """The tournament seen as a league of its entrants (for the standings' tie-break chains)."""
    definition = tournament.definition
    return League(
        league_id=definition.tournament_id,
        ruleset=definition.ruleset,
        members=tuple(e.player_id for e in tournament.entrants),
        starts=date.min,
        ends=date.max,
        scoring=definition.scoring,
        tie_breaks=definition.tie_breaks,
    )


def tournament_standings(
    tournament: Tournament,
    games: Mapping[str, LeagueGame],
    after_round: int | None = None,
    *,
    scale: int = 1,
    words: Teller = english,
) -> Standings:
    """The standings after round `after_round` (default: the latest): the games attached to the rounds
    so far, and the points of their byes; `words` says their explanations in the reader's language."""
    last = len(tournament.rounds) if after_round is None else after_round
    if not 0 <= last <= len(tournament.rounds):
        raise ProjectionError("no_such_round", _("There is no round {round}.", round=last), round=last)
    rounds = [r for r in tournament.rounds[:last] if r.stage == "swiss" and not r.draft]
    played = [
        games[t.game_id]
        for r in rounds
        for t in r.tables
        if t.game_id is not None and t.game_id in games and not t.forfeited
    ]
    return standings(
        as_league(tournament),
        played,
        scale=scale,
        names=tournament.names(),
        extra_points=extra_points(tournament, rounds),
        words=words,
    )


def forfeit_points(definition: TournamentCreated) -> tuple[int, int]:
    """League points of a forfeit (win, loss): the options' win, by default a win's (or first place's);
    the loss a loss's (or nothing)."""
    scoring = definition.scoring
    win = definition.forfeit_points
    if win is None:
        win = scoring.win_draw_loss[0] if scoring.win_draw_loss else scoring.placement_points.get(1, 0)
    return win, scoring.win_draw_loss[2] if scoring.win_draw_loss else 0


def extra_points(tournament: Tournament, rounds: Sequence[Round]) -> dict[str, int]:
    """League points given outside games in `rounds`: byes, forfeits, and the rounds a late entry missed."""
    definition = tournament.definition
    win, loss = forfeit_points(definition)
    out: dict[str, int] = {}

    def add(player: str, points: int) -> None:
        out[player] = out.get(player, 0) + points

    for paired in rounds:
        for player in paired.byes:
            add(player, definition.bye_points)
        for table in paired.tables:
            for player in table.seats if table.forfeited else ():
                add(player, loss if player in table.forfeited else win)
    if definition.late_entry_points:
        for entrant in tournament.entrants:
            missed = [
                r
                for r in rounds
                if r.number < entrant.entered_before
                and entrant.player_id not in r.byes
                and r.place_of(entrant.player_id) is None
            ]
            if missed:
                add(entrant.player_id, definition.late_entry_points * len(missed))
    return out


def check_definition(definition: TournamentCreated, player_counts: Sequence[int]) -> None:
    """ProjectionError for a tournament that cannot be run: its chain, and a system that fits the game."""
    check_league(
        League(
            league_id=definition.tournament_id,
            ruleset=definition.ruleset,
            members=(),
            starts=date.min,
            ends=date.max,
            scoring=definition.scoring,
            tie_breaks=definition.tie_breaks,
        )
    )
    low, high = definition.table_sizes
    if definition.system == "tables":
        if not 2 <= low <= high:
            raise ProjectionError(
                "bad_table_sizes",
                _("Table sizes run from a smaller to a larger number, 2 or more."),
                table_sizes=[low, high],
            )
        unfit = [n for n in range(low, high + 1) if player_counts and n not in player_counts]
        if unfit:
            raise ProjectionError(
                "table_size_unplayable",
                _("The game is not played at tables of {players}.", players=unfit[0]),
                unplayable=unfit,
                player_counts=list(player_counts),
            )
    elif player_counts and 2 not in player_counts:
        raise ProjectionError(
            "not_two_player",
            _("Round robin pairs two players a table; this game is not played by two.")
            if definition.system == "round_robin"
            else _("Swiss pairs two players a table; this game is not played by two."),
            player_counts=list(player_counts),
        )


def unpublished(events: Sequence[TournamentEvent]) -> set[int]:
    """The versions of the events players do not see: a draft's pairings and the hand changes to it,
    until the round is published (a draft taken back is never seen)."""
    hidden: set[int] = set()
    pending: dict[int, list[int]] = {}
    for version, event in enumerate(events, start=1):
        if (isinstance(event, RoundPaired) and event.draft) or isinstance(event, (PlayersSwapped, TableMoved)):
            pending.setdefault(event.round, []).append(version)
            hidden.add(version)
        elif isinstance(event, RoundPublished):
            hidden.difference_update(pending.pop(event.round, []))
        elif isinstance(event, RoundUnpaired):
            pending.pop(event.round, None)
    return hidden
