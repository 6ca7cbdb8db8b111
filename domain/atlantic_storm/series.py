"""The 75 VP series (AS-16): totals carry over from game to game."""

from __future__ import annotations

from collections.abc import Sequence

from domain.atlantic_storm.words import chained
from domain.i18n import Catalogue, Message, joined
from domain.ruleset import RuleError, SeriesGame, SeriesStatus, Setup

_ = Catalogue("domain.atlantic_storm")

TARGET = 75


def series_status(games: Sequence[SeriesGame]) -> SeriesStatus:
    """Where the series stands, its note in English (`series_told` has the note as a message)."""
    return _series(games)[0]


def series_told(games: Sequence[SeriesGame]) -> Message:
    """The series note as a message, which the service tells in the reader's language."""
    return _series(games)[1]


def _series(games: Sequence[SeriesGame]) -> tuple[SeriesStatus, Message]:
    """Cumulative totals; the series ends at the end of a game where someone has 75 VP or more, won by the
    highest cumulative total. Gap reading: when the highest totals tie there, the series is not decided
    and another game is played (as a tied game would be). The highest total so far deals the next game;
    between equal totals, the one seated first in the latest game."""
    totals: dict[str, int] = {}
    seat_order: dict[str, int] = {}
    names: dict[str, str] = {}  # the notes name players as they played, never by their ids
    for number, game in enumerate(games, start=1):
        scores = {p.seat: p.score for p in game.result.players}
        seat_order = {}
        for player in game.setup.players:
            names[player.player_id] = player.name
            totals[player.player_id] = totals.get(player.player_id, 0) + scores.get(player.seat, 0)
            seat_order[player.player_id] = player.seat
        best = max(totals.values(), default=0)
        if best >= TARGET:
            leaders = tuple(sorted(p for p, total in totals.items() if total == best))
            if len(leaders) == 1:
                won = [
                    _(
                        "{player} wins the series with {vp} VP after game {number}.",
                        player=names[leaders[0]],
                        vp=best,
                        number=number,
                    )
                ]
                if number < len(games):
                    won.append(_("The {count} later game(s) do not count.", count=len(games) - number))
                told = joined(won)
                status = SeriesStatus(target=TARGET, totals=totals, finished=True, winners=leaders, note=told.english())
                return status, told
    if not totals:
        none = _("No game played yet.")
        return SeriesStatus(target=TARGET, totals={}, finished=False, note=none.english()), none
    best = max(totals.values())
    tied = [p for p, total in totals.items() if total == best]
    dealer = min(tied, key=lambda p: (seat_order.get(p, 99), p))
    note: Message = _(
        "{player} has the highest total ({vp} VP) and deals the next game.", player=names[dealer], vp=best
    )
    if best >= TARGET:
        tie = _(
            "{players} are tied at {vp} VP: another game decides the series.",
            players=chained(sorted(names[p] for p in tied)),
            vp=best,
        )
        note = joined([tie, note])
    return SeriesStatus(target=TARGET, totals=totals, finished=False, next_dealer=dealer, note=note.english()), note


def series_next(games: Sequence[SeriesGame], setup: Setup) -> None:
    """Whether `setup` may be the next game of the series after `games`: a series is played under one
    set of rules, so every game takes the first game's variant and convoy pile (a reading of AS-16, which
    carries totals from game to game as if one long game). Who deals is decided by the cut recorded in
    the game itself, so it is not a set-up matter."""
    if not games:
        return
    first = games[0].setup
    variant = (first.variant, setup.variant)
    pile = (first.options.get("pile_size", 20), setup.options.get("pile_size", 20))
    if variant[0] != variant[1]:
        said = _(
            "Every game of a series is played with the same variant as the first ({first}, not {given}).",
            first=variant[0],
            given=variant[1],
        )
        _different(said, len(games), *variant)
    if pile[0] != pile[1]:
        said = _(
            "Every game of a series is played with the same convoy pile as the first ({first}, not {given}).",
            first=str(pile[0]),
            given=str(pile[1]),
        )
        _different(said, len(games), *pile)


def _different(said: Message, games: int, theirs: object, ours: object) -> None:
    raise RuleError("AS-16", "different_rules", said, game=games + 1, expected=theirs, given=ours)
