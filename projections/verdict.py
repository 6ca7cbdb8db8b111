"""Who won: a finished game's result said the way a club says it (issue 27), for any game through the
ruleset contract's `Result` alone — the winner and their score, a shared first place on a tie, a team's
win, a void game — and every seat's placement and score beside it.

The service reads it at a replay's last step (`verdict_at`, as the step's viewer may know it) and for the
games the club pages list (from the games projection's summaries, `verdict`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.i18n import Message
from domain.record import Folded
from domain.ruleset import Player, Result, Ruleset, Viewer
from projections.replay import Snapshot, seek
from projections.words import _, listed


class Placing(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's place in a finished game: its player, placement (1 = best, None where the game ranks
    no one), score in words, and whether it won."""

    seat: int
    player_id: str
    name: str
    placement: int | None
    score: Message
    winner: bool


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game's outcome: one sentence (`said`) and the seats by placement."""

    said: Message
    placings: tuple[Placing, ...]
    void: bool = False
    winners: tuple[str, ...] = ()
    """The winners' player ids."""


def score_words(score: int, unit: str, scale: int = 1) -> Message:
    """A score in the unit people read: "9 VP", "54.5 points", "3 medals" (`scale` stored units a point)."""
    whole, rest = divmod(score, max(scale, 1))
    value: int | float = score / scale if rest else whole
    if unit == "vp":
        return _.ngettext("{score} VP", "{score} VP", whole, score=value)
    if unit == "medal":
        return _.ngettext("{score} medal", "{score} medals", whole, score=value)
    return _.ngettext("{score} point", "{score} points", whole, score=value)


def verdict(players: Sequence[Player], result: Result, scale: int = 1) -> Verdict | None:
    """What a finished game's `result` says of its `players`; None while the game goes on."""
    if not result.finished:
        return None
    by_seat = {p.seat: p for p in players}
    scores = {r.seat: r for r in result.players}
    placings = tuple(
        sorted(
            (
                Placing(
                    seat=seat,
                    player_id=player.player_id,
                    name=player.name,
                    placement=scores[seat].placement if seat in scores else None,
                    score=score_words(scores[seat].score if seat in scores else 0, result.score_unit, scale),
                    winner=seat in result.winners,
                )
                for seat, player in by_seat.items()
            ),
            key=lambda p: (p.placement is None, p.placement or 0, p.seat),
        )
    )
    won = [p for p in placings if p.winner]
    names: list[Any] = [p.name for p in won]
    if result.void:
        said = _("A void game: nobody scores.")
    elif len(won) == 1:
        top = scores[won[0].seat].score if won[0].seat in scores else 0
        level: list[Any] = [
            p.name for p in placings if not p.winner and p.seat in scores and scores[p.seat].score == top
        ]
        said = (
            _(
                "{player} wins with {score}, ahead of {others} on the game's tie-break.",
                player=won[0].name,
                score=won[0].score,
                others=listed(level),
            )
            if level
            else _("{player} wins with {score}.", player=won[0].name, score=won[0].score)
        )
    elif won and len({by_seat[p.seat].team for p in won}) == 1 and by_seat[won[0].seat].team is not None:
        said = _("{players} win together, with {score}.", players=listed(names), score=won[0].score)
    elif won:
        said = _("A tie: {players} share first place with {score}.", players=listed(names), score=won[0].score)
    else:
        said = _("The game is over; nobody wins it.")
    return Verdict(said=said, placings=placings, void=result.void, winners=tuple(p.player_id for p in won))


def verdict_at(
    ruleset: Ruleset, events: Sequence[Any], step: int, viewer: Viewer, snapshots: Sequence[Snapshot] = ()
) -> Verdict | None:
    """The verdict at `step` of a record as `viewer` may know it (G-2), None while the game goes on there."""
    return verdict_of(seek(ruleset, events, step, snapshots), viewer)


def verdict_of(folded: Folded, viewer: Viewer) -> Verdict | None:
    """The verdict of a fold as `viewer` may know it (G-2), None while the game goes on there."""
    ruleset = folded.ruleset
    return verdict(folded.setup.players, ruleset.result(folded.state, viewer), ruleset.score_scale)
