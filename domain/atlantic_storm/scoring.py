"""Victory points (AS-13): convoy VP plus the VP of captured force cards, and the winner's tie-breaks."""

from __future__ import annotations

from domain.atlantic_storm.state import State
from domain.ruleset import PlayerResult, ReportedResult, Result, Setup, Viewer, checked_report

SCORE_UNIT = "vp"


def convoy_vp(state: State, seat: int) -> int:
    """VP of the convoys a seat holds."""
    return sum(state.cards[c].vp or 0 for c in state.convoys_won[seat])


def card_vp(state: State, seat: int) -> int:
    """VP of the force cards a seat holds face down (captured or taken by fate); bonus, special and
    supply cards are worth none."""
    return sum(state.cards[c].vp or 0 for c in state.captured[seat])


def result(state: State, viewer: Viewer) -> Result:
    """Scores with their breakdown, placements by AS-13 (most VP, then most convoy VP, then the lowest
    numbered convoy held; no convoy ranks last) and the winner once the game is over. Until then a seat's
    captured cards lie face down, so their VP count only for a viewer who sees them (G-2, as in `view`)."""
    seats = range(state.players)
    finished = state.phase == "over"
    convoys = [convoy_vp(state, seat) for seat in seats]
    cards = [card_vp(state, seat) if finished or viewer.sees(seat) else 0 for seat in seats]
    keys = [
        (
            convoys[seat] + cards[seat],
            convoys[seat],
            -min((int(c[1:]) for c in state.convoys_won[seat]), default=10_000),
        )
        for seat in seats
    ]
    players = tuple(
        PlayerResult(
            seat=seat,
            score=convoys[seat] + cards[seat],
            placement=1 + sum(1 for other in keys if other > keys[seat]),
            breakdown={"convoy": convoys[seat], "cards": cards[seat]},
        )
        for seat in seats
    )
    best = max(keys)
    winners = tuple(seat for seat in seats if keys[seat] == best) if finished else ()
    return Result(finished=finished, score_unit=SCORE_UNIT, players=players, winners=winners)


def reported_result(setup: Setup, report: ReportedResult) -> Result:
    """A game recorded by its result only (G-6): each seat's VP, none or more; equal VP may be placed
    apart (AS-13 breaks the tie by convoy VP, then the lowest numbered convoy)."""
    return checked_report(setup, report, score_unit=SCORE_UNIT)
