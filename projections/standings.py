"""League standings: a table of the league's members from the finished games assigned to it, ranked
by a declarative chain of tie-break criteria chosen per league, and explained pair by pair.

How a game counts
-----------------
Only finished games count, and only those finished within the league's period (dates compared with
the date of `finished_at`; pass local timestamps for local dates). Each player's placement is the
one in the game's `Result` (1 = best, shared on ties); a result without placements is ranked by
score, higher first. Players of one team (`Player.team`) form one *side*; other players are each a
side of their own. A player's *opponents* in a game are the players of the other sides.

- Outcome: a *win* when the player's side placed first alone, a *draw* when it shared first place
  with another side, a *loss* otherwise.
- League points: a game between two sides scores `win_draw_loss` when the league sets it; any other
  game scores `placement_points[placement]` (0 for a placement not listed), falling back to
  `win_draw_loss` when the league sets no placement points. With `score_as_points` the player's own
  score (VP, medals, in the ruleset's unit) is added.
- A void game (`Result.void`, nobody scores) counts as played with no points: it adds to
  `played` and `games_played` only, not to wins, draws, losses, scores or any pairwise tie-break.

Criteria (higher ranks first unless said)
-----------------------------------------
Every multiplayer game is read as the set of *pairwise results* between each player and each
opponent, by placement: better placement beats worse, equal placements draw. Pairwise results are
counted in half-points as integers: 2 for a win, 1 for a draw, 0 for a loss.

- `points`: league points.
- `wins`: games won (first place alone).
- `score`: the player's own scores summed over the games (VP or medal totals).
- `score_difference`: for every game and every opponent in it, own score minus that opponent's
  score, summed. In a two-player game this is the usual difference; in a four-player game each
  game counts three differences, so a player who outscores the table average gains.
- `head_to_head`: among the tied players only (the group still tied when this criterion is
  reached), the half-points of the pairwise results between them, in every game where they met.
- `sonneborn_berger`: for every game and every opponent in it, the pairwise result in half-points
  times that opponent's league points (so a win over an opponent adds twice their points, a draw
  once: the chess Sonneborn–Berger score, doubled to stay an integer).
- `buchholz`: for every game and every opponent in it, that opponent's league points, summed.
- `games_played`: games played, FEWER ranking first: equal points from fewer games is the better
  record.

Opponents' league points are their points in the same standings (the same as-of date); guests who
are not members of the league are kept for these sums but get no row. Players still tied after the
whole chain share a rank and are listed by name.

Points people read
------------------
Every value above is an exact integer; where the game keeps scores in half-points (`scale` 2), league
points and scores are kept in half-points too. Rows give `points`, `score` and `score_difference` in
points (26.5) beside the exact integers, `tie_break_points` each criterion in the league's own points
(head-to-head as games won, a draw a half; Sonneborn–Berger as the points of the opponents beaten plus
half those drawn), and the explanations (`separations`, `ties`) speak in those, with names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime
from itertools import groupby, pairwise
from typing import Literal

import msgspec

from domain.i18n import Arg, Message, english
from domain.ruleset import Player, Result
from projections.contract import Points, as_points
from projections.errors import ProjectionError
from projections.words import Teller, _, listed

Outcome = Literal["win", "draw", "loss", "void"]

_CRITERION = {
    "points": _.pgettext("criterion", "points"),
    "wins": _.pgettext("criterion", "wins"),
    "score": _.pgettext("criterion", "score"),
    "score_difference": _.pgettext("criterion", "score difference"),
    "head_to_head": _.pgettext("criterion", "head-to-head"),
    "sonneborn_berger": _.pgettext("criterion", "Sonneborn–Berger"),
    "buchholz": _.pgettext("criterion", "Buchholz"),
    "games_played": _.pgettext("criterion", "games played, fewer first"),
}
# The same names where an explanation's first sentence starts with one.
_CRITERION_FIRST = {
    "points": _.pgettext("criterion, starting a sentence", "Points"),
    "wins": _.pgettext("criterion, starting a sentence", "Wins"),
    "score": _.pgettext("criterion, starting a sentence", "Score"),
    "score_difference": _.pgettext("criterion, starting a sentence", "Score difference"),
    "head_to_head": _.pgettext("criterion, starting a sentence", "Head-to-head"),
    "sonneborn_berger": _.pgettext("criterion, starting a sentence", "Sonneborn–Berger"),
    "buchholz": _.pgettext("criterion, starting a sentence", "Buchholz"),
    "games_played": _.pgettext("criterion, starting a sentence", "Games played, fewer first"),
}
_NOTES = {
    "not finished": _("not finished"),
    "outside the league's period": _("outside the league's period"),
    "void: played, no points": _("void: played, no points"),
}
"""Why a game line does not count, or counts without points (`GameLine.note`, in English)."""

CRITERIA: tuple[str, ...] = tuple(_CRITERION)
"""The criteria a league may chain, in no particular order (see the module docstring)."""


def _unit(criterion: str, value: Points) -> Message:
    """What a tie on the chain's first criterion is counted in ("3 points each"): English says "points"
    whatever the number, a language whose words agree with it ("1 point", "2 points") says it by the
    whole part of the value (French reads 1.5 as singular too)."""
    count = int(value)
    if criterion == "points":
        return _.ngettext("points", "points", count)
    if criterion == "wins":
        return _.ngettext("wins", "wins", count)
    if criterion == "score":
        return _.ngettext("points of score", "points of score", count)
    if criterion == "games_played":
        return _.ngettext("games", "games", count)
    return _CRITERION[criterion]


# What one point of each criterion is in its exact integer value, given the score scale `s` (score
# units per point): league points and scores are kept in 1/s points, pairwise results in half-games
# (2 a win), and Sonneborn–Berger in both.
_PER_POINT: dict[str, Callable[[int], int]] = {
    "points": lambda s: s,
    "wins": lambda s: 1,
    "score": lambda s: s,
    "score_difference": lambda s: s,
    "head_to_head": lambda s: 2,
    "sonneborn_berger": lambda s: 2 * s,
    "buchholz": lambda s: s,
    "games_played": lambda s: 1,
}


class Scoring(msgspec.Struct, frozen=True, kw_only=True):
    """How a game gives league points: `placement_points` per placement (e.g. {1: 5, 2: 3, 3: 1}),
    `win_draw_loss` for games between two sides (e.g. (3, 1, 0)), and with `score_as_points` the
    player's own score added (a VP or medal league). At least one must be set."""

    placement_points: dict[int, int] = msgspec.field(default_factory=dict)
    win_draw_loss: tuple[int, int, int] | None = None
    score_as_points: bool = False


class League(msgspec.Struct, frozen=True, kw_only=True):
    """A league: one ruleset, its members (club player ids), its period (inclusive dates), its
    scoring and its tie-break chain of criterion names (see `CRITERIA`), applied in order. An
    `automatic` league takes every finished game of its ruleset and period by itself (see
    `service.usecases.collections`), besides the games assigned to it."""

    league_id: str
    ruleset: str
    members: tuple[str, ...]
    starts: date
    ends: date
    scoring: Scoring
    tie_breaks: tuple[str, ...] = ("points",)
    automatic: bool = False


class LeagueGame(msgspec.Struct, frozen=True, kw_only=True):
    """A game assigned to a league: its id, when it finished, who sat where, and its result."""

    game_id: str
    finished_at: datetime
    players: tuple[Player, ...]
    result: Result


class GameEntry(msgspec.Struct, frozen=True, kw_only=True):
    """What one game gave one player (`points` and `score` exact, in 1/`Standings.scale` points)."""

    player_id: str
    placement: int
    outcome: Outcome
    points: int
    score: int


class GameLine(msgspec.Struct, frozen=True, kw_only=True):
    """How one game counted in the standings (`note` says why a game did not count)."""

    game_id: str
    finished_at: datetime
    counted: bool
    note: str = ""
    entries: tuple[GameEntry, ...] = ()
    result_only: bool = False
    """The game was recorded by its result only (G-6)."""


class Row(msgspec.Struct, frozen=True, kw_only=True):
    """One member's line, in points (`points`, `score`, `score_difference`: 54, 26.5) with the exact
    integers beside them (`*_exact`, in 1/`Standings.scale` points). `tie_breaks` holds the exact value
    of every criterion of the chain as it was used (`head_to_head` is None when the member was no
    longer tied with anyone when it came), `tie_break_points` the same read as points."""

    rank: int
    player_id: str
    name: str
    played: int
    wins: int
    draws: int
    losses: int
    points: Points
    score: Points
    score_difference: Points
    tie_breaks: dict[str, int | None]
    tie_break_points: dict[str, Points | None] = msgspec.field(default_factory=dict)
    points_exact: int = 0
    score_exact: int = 0
    score_difference_exact: int = 0


class Separation(msgspec.Struct, frozen=True, kw_only=True):
    """Why `upper` is listed above `lower` (adjacent rows): the first criterion of the chain on which
    they differ with both exact values, or `tied` when none separates them (they share a rank). `text`
    says it with names, in points."""

    upper: str
    lower: str
    criterion: str
    upper_value: int | None = None
    lower_value: int | None = None
    text: str = ""


class Removal(msgspec.Struct, frozen=True, kw_only=True):
    """A game taken out of a league or campaign (`removed`) or put back (`restored`): by which key
    (None: the operator), when and why. A game taken out is not counted until it is put back."""

    game_id: str
    action: Literal["removed", "restored"]
    reason: str
    key_id: str | None
    recorded_at: datetime


class Tie(msgspec.Struct, frozen=True, kw_only=True):
    """Players level on the chain's first criterion, and how the rest of the chain ranked them, told
    with names in the league's points ("Cleo, Dan and Eve beat each other once each: head-to-head does
    not separate them; Sonneborn–Berger does: ...")."""

    players: tuple[str, ...]
    text: str


class Standings(msgspec.Struct, frozen=True, kw_only=True):
    """A league table as of a date (None: every game given). `scale`: exact values are in 1/scale
    points (2 where the game keeps half-points)."""

    league_id: str
    as_of: date | None
    criteria: tuple[str, ...]
    rows: tuple[Row, ...]
    separations: tuple[Separation, ...]
    games: tuple[GameLine, ...]
    ties: tuple[Tie, ...] = ()
    scale: int = 1
    removals: tuple[Removal, ...] = ()
    """Games taken out of the league and put back, oldest first."""


def check_league(league: League) -> None:
    """Raise ProjectionError for a league that cannot be ranked: no, unknown or repeated criteria,
    no scoring, a period that ends before it starts, a member listed twice."""
    if not league.tie_breaks:
        raise ProjectionError("no_criteria", _("A league needs at least one ranking criterion."), known=list(CRITERIA))
    unknown = [name for name in league.tie_breaks if name not in CRITERIA]
    if unknown:
        raise ProjectionError(
            "unknown_criterion",
            _(
                "Unknown ranking criterion {unknown}; the criteria are {known}.",
                unknown=", ".join(map(repr, unknown)),
                known=", ".join(CRITERIA),
            ),
            unknown=unknown,
            known=list(CRITERIA),
        )
    repeated = sorted({name for name in league.tie_breaks if league.tie_breaks.count(name) > 1})
    if repeated:
        raise ProjectionError(
            "duplicate_criterion",
            _("Criterion {criterion} is listed twice.", criterion=repr(repeated[0])),
            repeated=repeated,
        )
    scoring = league.scoring
    if not scoring.placement_points and scoring.win_draw_loss is None and not scoring.score_as_points:
        raise ProjectionError("no_scoring", _("A league must say how games give points."))
    if league.ends < league.starts:
        raise ProjectionError(
            "bad_period",
            _("A league's period ends before it starts."),
            starts=league.starts.isoformat(),
            ends=league.ends.isoformat(),
        )
    if len(set(league.members)) != len(league.members):
        raise ProjectionError("duplicate_member", _("A member is listed twice in the league."))


def standings(
    league: League,
    games: Iterable[LeagueGame],
    as_of: date | None = None,
    *,
    scale: int = 1,
    names: Mapping[str, str] | None = None,
    extra_points: Mapping[str, int] | None = None,
    words: Teller = english,
) -> Standings:
    """The league table from the games assigned to it, counting only those finished on or before
    the date `as_of` (the date of `finished_at`; None: every game given). `scale` is the ruleset's score
    units per point (league points are then kept in 1/scale points); `names` the members' names (else
    the names they played under); `extra_points` league points given outside games (a tournament's
    byes). `words` says the explanations and notes in the reader's language (English by default)."""
    check_league(league)
    if isinstance(as_of, datetime):
        # A timestamp would compare differently from a date (and is a date to Python): refuse it.
        raise ProjectionError("as_of_not_a_date", _("Standings are given as of a date, not a time."))
    lines: list[GameLine] = []
    seen: set[str] = set()
    names = dict(names or {})
    counted: list[tuple[LeagueGame, dict[str, GameEntry]]] = []
    for game in sorted(games, key=lambda g: (g.finished_at, g.game_id)):
        if game.game_id in seen:
            raise ProjectionError(
                "duplicate_game", _("Game {game_id} is given twice.", game_id=game.game_id), game_id=game.game_id
            )
        seen.add(game.game_id)
        if as_of is not None and game.finished_at.date() > as_of:
            continue
        line = _count(league, game, scale)
        lines.append(msgspec.structs.replace(line, note=words(note_message(line.note))) if line.note else line)
        if line.counted:
            counted.append((game, {entry.player_id: entry for entry in line.entries}))
            names.update((p.player_id, p.name) for p in game.players if p.player_id not in names)

    tally = _Tally(counted)
    for player, extra in (extra_points or {}).items():
        tally.points[player] = tally.points.get(player, 0) + extra * scale
    rows_data = {member: tally.base(member) for member in league.members}
    order, values = _rank(list(league.members), league.tie_breaks, tally, lambda p: (names.get(p, p), p))
    rows: list[Row] = []
    for index, member in enumerate(order):
        # Players tied through the whole chain share the first one's rank (1, 2, 2, 4).
        rank = rows[-1].rank if index and _tied(values[order[index - 1]], values[member]) else index + 1
        base = rows_data[member]
        exact = dict(zip(league.tie_breaks, values[member], strict=True))
        rows.append(
            Row(
                rank=rank,
                player_id=member,
                name=names.get(member, member),
                played=base["played"],
                wins=base["wins"],
                draws=base["draws"],
                losses=base["losses"],
                points=as_points(base["points"], scale),
                score=as_points(base["score"], scale),
                score_difference=as_points(base["score_difference"], scale),
                tie_breaks=exact,
                tie_break_points={c: None if v is None else _read(c, v, scale) for c, v in exact.items()},
                points_exact=base["points"],
                score_exact=base["score"],
                score_difference_exact=base["score_difference"],
            )
        )
    separations = [_separate(upper, lower, league.tie_breaks, words) for upper, lower in pairwise(rows)]
    ties = [
        Tie(players=players, text=words(said))
        for players, said in _Explainer(tally, league.tie_breaks, scale, names).ties(order, values)
    ]
    return Standings(
        league_id=league.league_id,
        as_of=as_of,
        criteria=league.tie_breaks,
        rows=tuple(rows),
        separations=tuple(separations),
        games=tuple(lines),
        ties=tuple(ties),
        scale=scale,
    )


def placements(result: Result) -> dict[int, int]:
    """Each seat's placement: the result's own, or (when it gives none) by score, higher first,
    equal scores sharing a placement."""
    if all(p.placement is not None for p in result.players):
        return {p.seat: int(p.placement or 0) for p in result.players}
    scores = sorted((p.score for p in result.players), reverse=True)
    return {p.seat: scores.index(p.score) + 1 for p in result.players}


def _count(league: League, game: LeagueGame, scale: int = 1) -> GameLine:
    """How one game counts: its entries, or why it does not."""
    if not game.result.finished:
        return GameLine(game_id=game.game_id, finished_at=game.finished_at, counted=False, note="not finished")
    day = game.finished_at.date()
    if not league.starts <= day <= league.ends:
        return GameLine(
            game_id=game.game_id, finished_at=game.finished_at, counted=False, note="outside the league's period"
        )
    by_seat = {p.seat: p for p in game.result.players}
    missing = [p.seat for p in game.players if p.seat not in by_seat]
    if missing:
        raise ProjectionError(
            "seat_mismatch",
            _("Game {game_id} has no result for seat {seat}.", game_id=game.game_id, seat=missing[0]),
            game_id=game.game_id,
            seats=missing,
        )
    placed = placements(game.result)
    side = {p.seat: _side(p) for p in game.players}
    best = min(placed[p.seat] for p in game.players)
    first_sides = {side[p.seat] for p in game.players if placed[p.seat] == best}
    two_sides = len(set(side.values())) == 2
    scoring = league.scoring
    entries: list[GameEntry] = []
    for player in game.players:
        placement = placed[player.seat]
        score = by_seat[player.seat].score
        if game.result.void:
            entries.append(
                GameEntry(player_id=player.player_id, placement=placement, outcome="void", points=0, score=0)
            )
            continue
        outcome: Outcome = "loss" if placement != best else "win" if len(first_sides) == 1 else "draw"
        if scoring.win_draw_loss is not None and (two_sides or not scoring.placement_points):
            win, draw, loss = scoring.win_draw_loss
            points = {"win": win, "draw": draw, "loss": loss}[outcome] * scale
        else:
            points = scoring.placement_points.get(placement, 0) * scale
        if scoring.score_as_points:
            points += score
        entries.append(
            GameEntry(player_id=player.player_id, placement=placement, outcome=outcome, points=points, score=score)
        )
    return GameLine(
        game_id=game.game_id,
        finished_at=game.finished_at,
        counted=True,
        note="void: played, no points" if game.result.void else "",
        entries=tuple(entries),
        result_only=game.result.reported,
    )


def _side(player: Player) -> tuple[str, int]:
    return ("team", player.team) if player.team is not None else ("seat", player.seat)


class _Tally:
    """The sums every criterion reads, over the counted games."""

    def __init__(self, counted: Sequence[tuple[LeagueGame, dict[str, GameEntry]]]) -> None:
        self.points: dict[str, int] = {}
        self.played: dict[str, int] = {}
        self.outcomes: dict[str, dict[str, int]] = {}
        self.score: dict[str, int] = {}
        self.score_difference: dict[str, int] = {}
        # player -> (opponent, pairwise result in half-points), one per game where they met.
        self.meetings: dict[str, list[tuple[str, int]]] = {}
        for game, entries in counted:
            for entry in entries.values():
                player = entry.player_id
                self.points[player] = self.points.get(player, 0) + entry.points
                self.played[player] = self.played.get(player, 0) + 1
                counts = self.outcomes.setdefault(player, {})
                counts[entry.outcome] = counts.get(entry.outcome, 0) + 1
                self.score[player] = self.score.get(player, 0) + entry.score
            if game.result.void:
                continue
            for a in game.players:
                for b in game.players:
                    if _side(a) == _side(b):
                        continue
                    ea, eb = entries[a.player_id], entries[b.player_id]
                    half = 2 if ea.placement < eb.placement else 1 if ea.placement == eb.placement else 0
                    self.meetings.setdefault(a.player_id, []).append((b.player_id, half))
                    self.score_difference[a.player_id] = self.score_difference.get(a.player_id, 0) + ea.score - eb.score

    def base(self, player: str) -> dict[str, int]:
        """The plain columns of a member's row."""
        outcomes = self.outcomes.get(player, {})
        return {
            "played": self.played.get(player, 0),
            "wins": outcomes.get("win", 0),
            "draws": outcomes.get("draw", 0),
            "losses": outcomes.get("loss", 0),
            "points": self.points.get(player, 0),
            "score": self.score.get(player, 0),
            "score_difference": self.score_difference.get(player, 0),
        }

    def value(self, criterion: str, player: str, group: Sequence[str]) -> int:
        """A criterion's value for `player`, the tied `group` it is in given for head-to-head."""
        if criterion in ("points", "wins", "score", "score_difference"):
            return self.base(player)[criterion]
        if criterion == "games_played":
            return self.played.get(player, 0)
        met = self.meetings.get(player, [])
        if criterion == "head_to_head":
            among = set(group)
            return sum(half for b, half in met if b in among)
        if criterion == "sonneborn_berger":
            return sum(half * self.points.get(b, 0) for b, half in met)
        if criterion == "buchholz":
            return sum(self.points.get(b, 0) for b, _half in met)
        raise ProjectionError(
            "unknown_criterion", _("Unknown ranking criterion {criterion}.", criterion=repr(criterion))
        )


def _rank(
    players: list[str], criteria: Sequence[str], tally: _Tally, display: Callable[[str], tuple[str, str]]
) -> tuple[list[str], dict[str, list[int | None]]]:
    """Order players by the chain: each criterion splits the groups still tied, in order. Returns
    the order and, per player, the value of each criterion as used (None for head-to-head reached
    alone)."""
    values: dict[str, list[int | None]] = {p: [] for p in players}
    groups: list[list[str]] = [sorted(players, key=display)]
    for criterion in criteria:
        split: list[list[str]] = []
        for group in groups:
            if criterion == "head_to_head" and len(group) == 1:
                values[group[0]].append(None)
                split.append(group)
                continue
            keyed = {p: tally.value(criterion, p, group) for p in group}
            for p in group:
                values[p].append(keyed[p])
            # Fewer games played ranks first; every other criterion ranks the higher value first.
            sign = 1 if criterion == "games_played" else -1
            ordered = sorted(group, key=lambda p: (sign * keyed[p], display(p)))
            run: list[str] = []
            for p in ordered:
                if run and keyed[run[-1]] != keyed[p]:
                    split.append(run)
                    run = []
                run.append(p)
            split.append(run)
        groups = split
    return [p for group in groups for p in group], values


def _tied(a: Sequence[int | None], b: Sequence[int | None]) -> bool:
    return list(a) == list(b)


def _read(criterion: str, value: int, scale: int) -> Points:
    """A criterion's exact value as people read it (points, games, wins)."""
    return as_points(value, _PER_POINT[criterion](scale))


def note_message(note: str) -> Message:
    """A game line's note (`GameLine.note`, in English) as a message to tell in another language."""
    return _NOTES[note]


def separation_message(upper: Row, lower: Row, criterion: str) -> Message:
    """Why `upper` is above `lower` (adjacent rows), `criterion` the first of the chain on which they
    differ (`tied` when none does): what `Separation.text` says."""
    if criterion == "tied":
        return _("{upper} and {lower} are tied.", upper=upper.name, lower=lower.name)
    return _(
        "{upper} is above {lower} on {criterion} ({upper_value} to {lower_value}).",
        upper=upper.name,
        lower=lower.name,
        criterion=_CRITERION[criterion],
        upper_value=_number(upper.tie_break_points[criterion]),
        lower_value=_number(lower.tie_break_points[criterion]),
    )


def _number(value: Points | None) -> Points:
    assert value is not None, "a criterion that separates two rows has a value for both"
    return value


def _separate(upper: Row, lower: Row, criteria: Sequence[str], words: Teller) -> Separation:
    for criterion in criteria:
        above, below = upper.tie_breaks[criterion], lower.tie_breaks[criterion]
        if above != below:
            return Separation(
                upper=upper.player_id,
                lower=lower.player_id,
                criterion=criterion,
                upper_value=above,
                lower_value=below,
                text=words(separation_message(upper, lower, criterion)),
            )
    return Separation(
        upper=upper.player_id,
        lower=lower.player_id,
        criterion="tied",
        text=words(separation_message(upper, lower, "tied")),
    )


EXPLAINED_TIE = 40
"""The largest group level on the first criterion whose tie is told in one sentence: past it (a big
Swiss after a round or two) the sentence would name hundreds of players, and its nested words would
outgrow Python's recursion limit; each row's separation from the next still says why."""


class _Explainer:
    """Tells how the chain ranked each group of players level on its first criterion."""

    def __init__(self, tally: _Tally, criteria: Sequence[str], scale: int, names: Mapping[str, str]) -> None:
        self.tally = tally
        self.criteria = criteria
        self.scale = scale
        self.names = names

    def name(self, player: str) -> str:
        return self.names.get(player, player)

    def ties(
        self, order: Sequence[str], values: Mapping[str, Sequence[int | None]]
    ) -> list[tuple[tuple[str, ...], Message]]:
        """Each group level on the chain's first criterion, and how the rest of the chain ranked it."""
        out: list[tuple[tuple[str, ...], Message]] = []
        first = self.criteria[0]
        for _key, run in groupby(order, key=lambda p: values[p][0]):
            group = list(run)
            if len(group) < 2:
                continue
            value = _read(first, self.tally.value(first, group[0], group), self.scale)
            if len(group) > EXPLAINED_TIE:
                said = _.ngettext(
                    "{count} player has {value} {unit}: the rows say how the rest of the chain ranks them.",
                    "{count} players have {value} {unit} each: the rows say how the rest of the chain ranks them.",
                    len(group),
                    value=value,
                    unit=_unit(first, value),
                )
                out.append((tuple(group), said))
                continue
            said = _(
                "{players} have {value} {unit} each. {explanation}.",
                players=self._names(group),
                value=value,
                unit=_unit(first, value),
                explanation=self._explain(group, 1, opening=True),
            )
            out.append((tuple(group), said))
        return out

    def _names(self, group: Sequence[str]) -> Arg:
        return listed([self.name(p) for p in group])

    def _explain(self, group: list[str], index: int, *, opening: bool = False) -> Message:
        """How the chain from `criteria[index]` on ranks `group`; `opening`: the sentence starts with it."""
        if index == len(self.criteria):
            if opening:
                return _("Nothing in the chain separates {players}: they share a rank", players=self._names(group))
            return _("nothing in the chain separates {players}: they share a rank", players=self._names(group))
        criterion = self.criteria[index]
        label = (_CRITERION_FIRST if opening else _CRITERION)[criterion]
        keyed = {p: self.tally.value(criterion, p, group) for p in group}
        if len(set(keyed.values())) == 1:
            rest = self._explain(group, index + 1)
            if criterion == "head_to_head":
                return _(
                    "{cycle}: {criterion} does not separate them; {rest}",
                    cycle=self._cycle(group, opening=opening),
                    criterion=_CRITERION[criterion],
                    rest=rest,
                )
            if opening:
                return _.pgettext("opening", "{criterion} does not separate them; {rest}", criterion=label, rest=rest)
            return _("{criterion} does not separate them; {rest}", criterion=label, rest=rest)
        sign = 1 if criterion == "games_played" else -1
        ordered = sorted(group, key=lambda p: sign * keyed[p])
        said: str | Message = ""
        for index_in_order, p in enumerate(ordered):
            one = _("{player} {value}", player=self.name(p), value=_read(criterion, keyed[p], self.scale))
            said = one if index_in_order == 0 else _("{first}, {then}", first=said, then=one)
        if opening:
            told = _.pgettext("opening", "{criterion} does: {said}", criterion=label, said=said)
        else:
            told = _("{criterion} does: {said}", criterion=label, said=said)
        for _key, run in groupby(ordered, key=lambda p: keyed[p]):
            level = list(run)
            if len(level) > 1:
                told = _(
                    "{first}; between {players}, {rest}",
                    first=told,
                    players=self._names(level),
                    rest=self._explain(level, index + 1),
                )
        return told

    def _cycle(self, group: Sequence[str], *, opening: bool) -> Message:
        """What happened between the players of a group that head-to-head leaves level."""
        among = set(group)
        wins: dict[str, int] = {}
        draws = 0
        for player in group:
            for opponent, half in self.tally.meetings.get(player, []):
                if opponent in among:
                    wins[player] = wins.get(player, 0) + (half == 2)
                    draws += half == 1
        counts = {wins.get(p, 0) for p in group}
        if not wins:
            return _("They did not play each other") if opening else _("they did not play each other")
        if draws == 0 and len(counts) == 1:
            each = counts.pop()
            if each == 1:
                return _("They beat each other once each") if opening else _("they beat each other once each")
            if each == 2:
                return _("They beat each other twice each") if opening else _("they beat each other twice each")
            if opening:
                return _.ngettext(
                    "They beat each other {count} time each", "They beat each other {count} times each", each
                )
            return _.ngettext("they beat each other {count} time each", "they beat each other {count} times each", each)
        if opening:
            return _("They scored the same against each other")
        return _("they scored the same against each other")
