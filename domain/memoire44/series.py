"""A Mémoire 44 match: the same scenario twice, sides swapped, medals summed per player."""

from __future__ import annotations

from collections.abc import Sequence

from domain.i18n import Message
from domain.memoire44.setup import seat_sides
from domain.memoire44.words import _, listed
from domain.ruleset import RuleError, SeriesGame, SeriesStatus, Setup, player_totals

MATCH_GAMES = 2


def series_status(games: Sequence[SeriesGame]) -> SeriesStatus:
    """Totals of medals per club player over the match's games. Finished after two games; the winner is
    the higher total. Equal totals are a drawn match: both players are listed as winners (a gap reading,
    a club plays a third game if it wants a single winner)."""
    totals = _totals(games)
    finished = len(games) >= MATCH_GAMES
    winners: tuple[str, ...] = ()
    if finished and totals:
        best = max(totals.values())
        winners = tuple(sorted(p for p, s in totals.items() if s == best))
    told = series_told(games)
    return SeriesStatus(
        totals=totals, finished=finished, winners=winners, note=told.english() if told is not None else ""
    )


def _totals(games: Sequence[SeriesGame]) -> dict[str, int]:
    return player_totals(games[:MATCH_GAMES])


def series_told(games: Sequence[SeriesGame]) -> Message | None:
    """The match's note as a message (the status's `note` is its English): a second game played without
    swapping sides or on another scenario, a drawn match; None when there is nothing to note."""
    notes: list[Message] = []
    if len(games) >= MATCH_GAMES:
        first, second = games[0].setup, games[1].setup
        if _sides(first) == _sides(second):
            notes.append(_("the second game was not played with sides swapped"))
        if _scenario(first) != _scenario(second):
            notes.append(_("the two games were not the same scenario"))
        totals = _totals(games)
        if totals and sum(1 for score in totals.values() if score == max(totals.values())) > 1:
            notes.append(_("drawn match"))
    if not notes:
        return None
    line = notes[0]
    for note in notes[1:]:
        line = _("{first}; {then}", first=line, then=note)
    return line


def _sides(setup: Setup) -> dict[str, str]:
    sides = seat_sides(setup)
    return {p.player_id: sides[p.seat] for p in setup.players if p.seat < len(sides)}


def _scenario(setup: Setup) -> str | None:
    ref = setup.resources.get("scenario")
    return None if ref is None else ref.content_hash


def series_next(games: Sequence[SeriesGame], setup: Setup) -> None:
    """Whether `setup` may be the next game of the match after `games`: the second game is the first
    one's scenario with each player on the other side; a match has two games (M44-MT-1)."""
    if not games:
        return
    if len(games) >= MATCH_GAMES:
        raise RuleError("M44-MT-1", "match_over", _("A match is {count} games.", count=MATCH_GAMES), games=len(games))
    first = games[0].setup
    if _scenario(setup) != _scenario(first):
        raise RuleError(
            "M44-MT-1", "different_scenario", _("The second game of a match is played on the first game's scenario.")
        )
    before, now = _sides(first), _sides(setup)
    kept = sorted(p.name for p in setup.players if before.get(p.player_id) == now.get(p.player_id))
    if kept:
        raise RuleError(
            "M44-MT-1",
            "sides_not_swapped",
            _(
                "The second game of a match swaps sides: {players} would command the same side again.",
                players=listed(kept, sep=" and "),
            ),
            sides=now,
        )
