"""The 75 VP series (AS-16): totals carry over from game to game."""

from __future__ import annotations

from collections.abc import Sequence

from domain.ruleset import RuleError, SeriesGame, SeriesStatus, Setup

TARGET = 75


def series_status(games: Sequence[SeriesGame]) -> SeriesStatus:
    """Cumulative totals; the series ends at the end of a game where someone has 75 VP or more, won by the
    highest cumulative total. Gap reading: when the highest totals tie there, the series is not decided
    and another game is played (as a tied game would be). The highest total so far deals the next game;
    between equal totals, the one seated first in the latest game."""
    totals: dict[str, int] = {}
    seat_order: dict[str, int] = {}
    for number, game in enumerate(games, start=1):
        scores = {p.seat: p.score for p in game.result.players}
        seat_order = {}
        for player in game.setup.players:
            totals[player.player_id] = totals.get(player.player_id, 0) + scores.get(player.seat, 0)
            seat_order[player.player_id] = player.seat
        best = max(totals.values(), default=0)
        if best >= TARGET:
            leaders = tuple(sorted(p for p, total in totals.items() if total == best))
            if len(leaders) == 1:
                note = f"{leaders[0]} wins the series with {best} VP after game {number}."
                if number < len(games):
                    note += f" The {len(games) - number} later game(s) do not count."
                return SeriesStatus(target=TARGET, totals=totals, finished=True, winners=leaders, note=note)
    if not totals:
        return SeriesStatus(target=TARGET, totals={}, finished=False, note="No game played yet.")
    best = max(totals.values())
    tied = [p for p, total in totals.items() if total == best]
    dealer = min(tied, key=lambda p: (seat_order.get(p, 99), p))
    note = f"{dealer} has the highest total ({best} VP) and deals the next game."
    if best >= TARGET:
        note = f"{' and '.join(sorted(tied))} are tied at {best} VP: another game decides the series. " + note
    return SeriesStatus(target=TARGET, totals=totals, finished=False, next_dealer=dealer, note=note)


def series_next(games: Sequence[SeriesGame], setup: Setup) -> None:
    """Whether `setup` may be the next game of the series after `games`: a series is played under one
    set of rules, so every game takes the first game's variant and convoy pile (a reading of AS-16, which
    carries totals from game to game as if one long game). Who deals is decided by the cut recorded in
    the game itself, so it is not a set-up matter."""
    if not games:
        return
    first = games[0].setup
    for what, ours, theirs in (
        ("variant", setup.variant, first.variant),
        ("convoy pile", setup.options.get("pile_size", 20), first.options.get("pile_size", 20)),
    ):
        if ours != theirs:
            raise RuleError(
                "AS-16",
                "different_rules",
                f"Every game of a series is played with the same {what} as the first ({theirs}, not {ours}).",
                game=len(games) + 1,
                expected=theirs,
                given=ours,
            )
