"""Milles Nautiques scores, in half-points (MN-17: never floats).

Tables from the French rulebook ("Article 11 : faites vos comptes"), read with MN-13 (a cell is the
value itself, not an addition to the 0-mile row), MN-21 (detected convoys) and MN-14; bonuses MN-16;
who scores at all MN-15 and MN-20 (never the trawler).
"""

from __future__ import annotations

import msgspec

from domain.milles_nautiques.catalogue import BY_NAME, TRAWLER
from domain.milles_nautiques.state import Convoy, State, seen_by
from domain.ruleset import PlayerResult, ReportedResult, Result, Setup, Viewer, checked_report

# Columns: 2,500 / 5,000 / 10,000 / 20,000 tons. Rows: the distance bands of MN-13. Half-points.
TONNAGE_COLUMN: dict[int, int] = {2500: 0, 5000: 1, 10000: 2, 20000: 3}
CONVOY_POINTS: tuple[tuple[int, int, int, int], ...] = (
    (0, 0, 2, 4),  # 0 miles
    (1, 2, 4, 8),  # 200 - 1,000
    (2, 4, 8, 16),  # 1,200 - 2,000
    (3, 6, 12, 24),  # 2,200 - 3,000
    (4, 8, 16, 32),  # 3,200 - 3,800
    (5, 10, 20, 40),  # 4,000 or more
)
CAPTURE_POINTS: tuple[int, int, int, int] = (5, 10, 20, 40)
ROUND_WINNER_BONUS = 20  # MN-16: +10 points
SLOWNESS_BONUS = 14  # MN-16: +7 points
ROUND_TARGET = 80  # MN-15: 40 points
GAME_TARGET = 400  # MN-17: 200 points


class SideScore(msgspec.Struct, frozen=True, kw_only=True):
    """One side's round score in half-points, split as a club writes it on the score sheet."""

    convoy: int = 0
    capture: int = 0
    round_bonus: int = 0
    slowness_bonus: int = 0

    @property
    def total(self) -> int:
        return self.convoy + self.capture + self.round_bonus + self.slowness_bonus


def distance_band(distance: int) -> int:
    """The row of the MN-13 table for a distance in miles."""
    if distance <= 0:
        return 0
    if distance <= 1000:
        return 1
    if distance <= 2000:
        return 2
    if distance <= 3000:
        return 3
    if distance < 4000:
        return 4
    return 5


def convoy_points(card: str | None, distance: int, detected: bool) -> int:
    """MN-13: a convoy's value for its owner. MN-21: a detected convoy scores as a convoy of twice its
    tonnage (the next column), a detected 20,000 twice its own cell. The trawler and a card the record
    does not know yet are worth 0 (G-2: it is scored once revealed)."""
    if card is None:
        return 0
    column = TONNAGE_COLUMN.get(BY_NAME[card].tons)
    if column is None:  # MN-3: the trawler
        return 0
    row = CONVOY_POINTS[distance_band(distance)]
    if not detected:
        return row[column]
    return row[column + 1] if column + 1 < len(row) else 2 * row[column]


def capture_points(card: str | None, detected: bool) -> int:
    """MN-14: a destroyed convoy's value for its captor; trawler 0; double if detected."""
    if card is None:
        return 0
    column = TONNAGE_COLUMN.get(BY_NAME[card].tons)
    if column is None:
        return 0
    value = CAPTURE_POINTS[column]
    return value * 2 if detected else value


def _convoy_value(convoy: Convoy) -> int:
    return convoy_points(convoy.card, convoy.distance, convoy.detected)


def counts_as_arrived(convoy: Convoy) -> bool:
    """An arrived convoy that gives its side the right to score (MN-15): never the trawler (MN-20),
    and not one the record cannot name yet, which may be the trawler (it counts once revealed)."""
    return convoy.status == "arrived" and convoy.card is not None and convoy.card != TRAWLER


def hidden_in_port(state: State, side: int) -> bool:
    """Whether `side` has a convoy in port whose card `state` (as a viewer knows it, `seen_by`) does not
    show: the side's score is then hidden, not 0 (MN-15, MN-20: it may be the trawler)."""
    return any(c.side == side and c.status == "arrived" and c.card is None for c in state.convoys)


def arrived_sides(state: State) -> frozenset[int]:
    """The sides with at least one convoy arrived (MN-15: only they score)."""
    return frozenset(c.side for c in state.convoys if counts_as_arrived(c))


def points(state: State) -> tuple[tuple[int, int], ...]:
    """(convoy points, capture points) of each side now, counting only for sides with an arrived
    convoy (MN-15). This is the score the 40-point check reads."""
    sides = len(state.side_seats)
    convoy = [0] * sides
    capture = [0] * sides
    scoring = arrived_sides(state)
    if not scoring:
        return ((0, 0),) * sides
    side_of = state.side_of
    for c in state.convoys:
        if c.status == "destroyed":
            captor_side = side_of[c.captor] if c.captor is not None else -1
            if captor_side in scoring:
                capture[captor_side] += capture_points(c.card, c.detected)
        elif c.side in scoring:
            convoy[c.side] += _convoy_value(c)
    return tuple(zip(convoy, capture, strict=True))


def slow_sides(state: State) -> frozenset[int]:
    """MN-16: sides with an arrived convoy none of whose arrived convoys ever took a miles card over 600."""
    arrived = [c for c in state.convoys if counts_as_arrived(c)]  # MN-20: a trawler neither earns nor spoils it
    fast = {c.side for c in arrived if c.fast}
    return frozenset(c.side for c in arrived) - fast


def round_winners(state: State) -> tuple[int, ...]:
    """The winning side(s) of a finished round (MN-15): the side that reached 40 points, else the highest
    scorer among the sides with an arrived convoy; none in a void round. Sides level at the top share
    the win (gap reading, see the package docstring)."""
    if state.phase != "over":
        return ()
    totals = [convoy + capture for convoy, capture in points(state)]
    if state.ended == "forty":
        candidates: tuple[int, ...] | frozenset[int] = state.forty_sides
    else:
        candidates = arrived_sides(state)
    if not candidates:
        return ()
    best = max(totals[side] for side in candidates)
    return tuple(sorted(side for side in candidates if totals[side] == best))


def side_scores(state: State) -> tuple[SideScore, ...]:
    """Each side's score: convoy and capture points now, and once the round is over its bonuses."""
    base = points(state)
    winners = set(round_winners(state))
    slow = slow_sides(state) if state.phase == "over" else frozenset()
    return tuple(
        SideScore(
            convoy=convoy,
            capture=capture,
            round_bonus=ROUND_WINNER_BONUS if side in winners else 0,
            slowness_bonus=SLOWNESS_BONUS if side in slow else 0,
        )
        for side, (convoy, capture) in enumerate(base)
    )


SCORE_UNIT = "half_point"


def result(state: State, viewer: Viewer) -> Result:
    """Scores per seat (a team's score for each partner), with the split in `breakdown`. Until the round
    is over they count only what `viewer` has seen (G-2: a face-down convoy's tonnage stays hidden)."""
    state = seen_by(state, viewer)
    scores = side_scores(state)
    totals = [score.total for score in scores]
    finished = state.phase == "over"
    winners = set(round_winners(state))
    players = tuple(
        PlayerResult(
            seat=seat,
            score=totals[side],
            placement=1 + sum(1 for total in totals if total > totals[side]),
            breakdown={
                "convoy": scores[side].convoy,
                "capture": scores[side].capture,
                "round_bonus": scores[side].round_bonus,
                "slowness_bonus": scores[side].slowness_bonus,
            },
        )
        for seat, side in enumerate(state.side_of)
    )
    return Result(
        finished=finished,
        score_unit=SCORE_UNIT,
        players=players,
        winners=tuple(seat for seat, side in enumerate(state.side_of) if side in winners),
        void=finished and not winners,
    )


def in_points(half_points: int) -> float:
    """Half-points as the number of points a message says: 26.5, written "26,5" in French."""
    return half_points / 2


def points_text(half_points: int) -> str:
    """Half-points as people read points: 53 -> "26.5", 54 -> "27" (scores are kept in half-points)."""
    whole, half = divmod(half_points, 2)
    return f"{whole}.5" if half else str(whole)


def reported_result(setup: Setup, report: ReportedResult) -> Result:
    """A round recorded by its result only (G-6): each seat's score in half-points, none or more,
    partners with their team's score; places follow the scores alone (equal scores share a place)."""
    return checked_report(setup, report, score_unit=SCORE_UNIT, ties_split=False)
