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
the games attached to the rounds so far; a bye gives `bye_points` league points.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from itertools import combinations
from typing import Literal

import msgspec

from domain.i18n import Message, english
from domain.ruleset import Event
from projections.errors import ProjectionError
from projections.standings import League, LeagueGame, Scoring, Standings, check_league, standings
from projections.words import Teller, _

System = Literal["round_robin", "swiss", "tables"]
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


class RoundPaired(Event, frozen=True, kw_only=True, tag="tournament.round_paired"):
    """The pairings of a round, as made when it was paired (so a replay never pairs again)."""

    round: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    relaxed: tuple[str, ...] = ()


class RoundUnpaired(Event, frozen=True, kw_only=True, tag="tournament.round_unpaired"):
    """The latest round's pairings are taken back (after a correction changed an earlier result), so
    it can be paired again; its attached games are detached."""

    round: int
    reason: str = ""


class GameAttached(Event, frozen=True, kw_only=True, tag="tournament.game_attached"):
    round: int
    table: int
    game_id: str


TournamentEvent = TournamentCreated | PlayerEntered | PlayerWithdrew | RoundPaired | RoundUnpaired | GameAttached
EVENT_DECODER = msgspec.json.Decoder(TournamentEvent)


# -- state --------------------------------------------------------------------------------------------
class Entrant(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    active: bool = True
    entered_before: int = 1
    """The first round the player could be paired in."""


class Round(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    relaxed: tuple[str, ...] = ()


class Tournament(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament as its events left it."""

    definition: TournamentCreated
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()

    @property
    def active(self) -> list[str]:
        return [e.player_id for e in self.entrants if e.active]

    def names(self) -> dict[str, str]:
        return {e.player_id: e.name for e in self.entrants}


def check(state: Tournament | None, event: TournamentEvent) -> None:
    """Raise ProjectionError when `event` cannot happen to the tournament as it stands."""
    if state is None:
        if not isinstance(event, TournamentCreated):
            raise ProjectionError("no_tournament", "A tournament starts with its creation.")
        return
    if isinstance(event, TournamentCreated):
        raise ProjectionError("already_created", "The tournament exists already.")
    known = {e.player_id: e for e in state.entrants}
    if isinstance(event, PlayerEntered):
        if event.player_id in known and known[event.player_id].active:
            raise ProjectionError("already_entered", f"{event.name} is already entered.", player_id=event.player_id)
    elif isinstance(event, PlayerWithdrew):
        if event.player_id not in known or not known[event.player_id].active:
            raise ProjectionError(
                "not_entered", f"Player {event.player_id} is not playing in this tournament.", player_id=event.player_id
            )
    elif isinstance(event, RoundPaired):
        if event.round != len(state.rounds) + 1:
            raise ProjectionError("wrong_round", f"The next round is round {len(state.rounds) + 1}.", round=event.round)
    elif isinstance(event, RoundUnpaired):
        if not state.rounds or event.round != len(state.rounds):
            raise ProjectionError(
                "not_latest_round",
                "Only the latest round can be paired again.",
                round=event.round,
                latest=len(state.rounds),
            )
    elif isinstance(event, GameAttached):
        table = _table(state, event.round, event.table)
        if table.game_id is not None:
            raise ProjectionError(
                "table_played",
                f"Table {event.table} of round {event.round} already has game {table.game_id}.",
                round=event.round,
                table=event.table,
            )
        attached = {t.game_id for r in state.rounds for t in r.tables}
        if event.game_id in attached:
            raise ProjectionError(
                "game_attached", f"Game {event.game_id} is already attached to a table.", game_id=event.game_id
            )


def _table(state: Tournament, number: int, table: int) -> Table:
    if not 1 <= number <= len(state.rounds):
        raise ProjectionError("no_such_round", f"There is no round {number}.", round=number)
    for candidate in state.rounds[number - 1].tables:
        if candidate.table == table:
            return candidate
    raise ProjectionError("no_such_table", f"Round {number} has no table {table}.", round=number, table=table)


def apply(state: Tournament | None, event: TournamentEvent) -> Tournament:
    """The tournament after an accepted event (never checks: see `check`)."""
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
        paired = Round(number=event.round, tables=event.tables, byes=event.byes, relaxed=event.relaxed)
        return msgspec.structs.replace(state, rounds=(*state.rounds, paired))
    if isinstance(event, RoundUnpaired):
        return msgspec.structs.replace(state, rounds=state.rounds[:-1])
    rounds = list(state.rounds)
    target = rounds[event.round - 1]
    tables = tuple(
        msgspec.structs.replace(t, game_id=event.game_id) if t.table == event.table else t for t in target.tables
    )
    rounds[event.round - 1] = msgspec.structs.replace(target, tables=tables)
    return msgspec.structs.replace(state, rounds=tuple(rounds))


def fold(events: Iterable[TournamentEvent]) -> Tournament:
    """A tournament replayed from its events."""
    state: Tournament | None = None
    for event in events:
        state = apply(state, event)
    if state is None:
        raise ProjectionError("no_tournament", "A tournament starts with its creation.")
    return state


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
def pair(tournament: Tournament, order: Sequence[str], *, budget: int = SEARCH_BUDGET) -> RoundPaired:
    """The next round's pairings for the active players in `order` (the ranking)."""
    definition = tournament.definition
    number = len(tournament.rounds) + 1
    past = history(tournament.rounds)
    if len(order) < 2:
        raise ProjectionError("too_few_players", "A round needs at least two active players.", players=len(order))
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
        raise ProjectionError("no_such_round", f"There is no round {last}.", round=last)
    rounds = tournament.rounds[:last]
    played = [games[t.game_id] for r in rounds for t in r.tables if t.game_id is not None and t.game_id in games]
    byes: dict[str, int] = {}
    for paired in rounds:
        for player in paired.byes:
            byes[player] = byes.get(player, 0) + tournament.definition.bye_points
    return standings(
        as_league(tournament), played, scale=scale, names=tournament.names(), extra_points=byes, words=words
    )


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
                "Table sizes run from a smaller to a larger number, 2 or more.",
                table_sizes=[low, high],
            )
        unfit = [n for n in range(low, high + 1) if player_counts and n not in player_counts]
        if unfit:
            raise ProjectionError(
                "table_size_unplayable",
                f"The game is not played at tables of {unfit[0]}.",
                unplayable=unfit,
                player_counts=list(player_counts),
            )
    elif player_counts and 2 not in player_counts:
        raise ProjectionError(
            "not_two_player",
            f"{definition.system.replace('_', ' ').capitalize()} pairs "
            "two players a table; this game is not played by two.",
            player_counts=list(player_counts),
        )
