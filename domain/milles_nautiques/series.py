"""The game of rounds to 200 points (MN-17) and who deals next (MN-19)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.i18n import Catalogue, Message
from domain.milles_nautiques.scoring import GAME_TARGET, in_points
from domain.ruleset import RuleError, SeriesGame, SeriesStatus, Setup

_ = Catalogue("domain.milles_nautiques")


def side_labels(setup: Setup) -> dict[int, str]:
    """Seat -> the label its score is carried under: the player id, or in team play (MN-18) the
    partners' ids joined by "+" in seat order."""
    teams: dict[int, list[str]] = {}
    for player in sorted(setup.players, key=lambda p: p.seat):
        if player.team is not None:
            teams.setdefault(player.team, []).append(player.player_id)
    return {p.seat: "+".join(teams[p.team]) if p.team is not None else p.player_id for p in setup.players}


def side_names(setup: Setup) -> dict[str, str]:
    """A side's label (`side_labels`) -> the names its note gives it: "Alain", or "Alain and Claire"."""
    players = sorted(setup.players, key=lambda p: p.seat)
    labels = side_labels(setup)
    return {
        label: " and ".join(p.name for p in players if labels[p.seat] == label)
        for label in dict.fromkeys(labels.values())
    }


def series_status(games: Sequence[SeriesGame]) -> SeriesStatus:
    """Where the game of rounds stands, its note in English (`series_told` has the note as a message)."""
    return _series(games)[0]


def series_told(games: Sequence[SeriesGame]) -> Message:
    """The game of rounds' note as a message, which the service tells in the reader's language."""
    return _series(games)[1]


def _series(games: Sequence[SeriesGame]) -> tuple[SeriesStatus, Message]:
    """Cumulative half-points over finished rounds in order. The game ends at the end of the round in
    which a side reaches 200 points; the highest total wins, and a tie at the top plays another round."""
    if not games:
        none = _("No round has been played yet.")
        return SeriesStatus(target=GAME_TARGET, totals={}, finished=False, note=none.english()), none
    labels = side_labels(games[0].setup)
    totals = dict.fromkeys(sorted(set(labels.values())), 0)
    winners: tuple[str, ...] = ()
    for number, game in enumerate(games, start=1):
        if winners:
            raise RuleError(
                "MN-17", "game_over", _("The game was won after round {round}.", round=number - 1), round=number
            )
        _same_table(labels, game.setup, number)
        if not game.result.finished:
            raise RuleError(
                "MN-17", "round_not_finished", _("Round {round} is not finished.", round=number), round=number
            )
        scored: set[str] = set()
        for player in game.result.players:
            label = labels[player.seat]
            if label not in scored:  # partners share one team score
                scored.add(label)
                totals[label] += player.score
        best = max(totals.values())
        leaders = tuple(label for label, total in totals.items() if total == best)
        if best >= GAME_TARGET and len(leaders) == 1:
            winners = leaders
    last = games[-1].setup
    if winners:
        points, named = in_points(totals[winners[0]]), side_names(last)[winners[0]]
        won = (
            _("{winners} win the game with {points} points.", winners=named, points=points)
            if "+" in winners[0]  # a team's label (side_labels)
            else _("{winner} wins the game with {points} points.", winner=named, points=points)
        )
        status = SeriesStatus(target=GAME_TARGET, totals=totals, finished=True, winners=winners, note=won.english())
        return status, won
    dealer = last.options.get("dealer")
    next_dealer = None
    if isinstance(dealer, int):
        seat = (dealer + 1) % len(last.players)
        next_dealer = next(p.player_id for p in last.players if p.seat == seat)
    best = max(totals.values())
    note = (
        _("The leaders are level past 200 points: another round is played.")
        if best >= GAME_TARGET
        else _("Another round is needed: nobody has 200 points yet.")
    )
    status = SeriesStatus(
        target=GAME_TARGET, totals=totals, finished=False, next_dealer=next_dealer, note=note.english()
    )
    return status, note


def series_next(games: Sequence[SeriesGame], setup: Setup) -> None:
    """Whether `setup` may be the next round after `games` (the rounds so far, finished or not): the same
    players in the same seats (MN-17), the next round number (MN-17), and the deal passed to the left of
    the last round's dealer (MN-19) where both set-ups name their dealer (a set-up that leaves the dealer
    to the deal event is accepted: the deal itself is checked when it is recorded)."""
    if not games:
        return
    number = len(games) + 1
    _same_table(side_labels(games[0].setup), setup, number)
    stated = setup.options.get("round", 1)
    if stated != number:
        raise RuleError(
            "MN-17",
            "wrong_round",
            _(
                "This is round {round} of the game, not round {stated}.",
                round=number,
                stated=stated if isinstance(stated, int) else str(stated),
            ),
            round=number,
            stated=stated,
        )
    last, dealer = games[-1].setup.options.get("dealer"), setup.options.get("dealer")
    if isinstance(last, int) and isinstance(dealer, int):
        expected = (last + 1) % len(setup.players)
        if dealer != expected:
            name = next(p.name for p in setup.players if p.seat == expected)
            raise RuleError(
                "MN-19",
                "wrong_dealer",
                _("{player} deals round {round}: the deal passes to the left.", player=name, round=number),
                round=number,
                dealer=dealer,
                expected=expected,
            )


def _same_table(labels: dict[int, str], setup: Setup, number: int) -> None:
    if side_labels(setup) != labels:
        # Seats may not change between rounds: the deal passes to the left of the same table.
        raise RuleError(
            "MN-17",
            "different_players",
            _("Every round of a game is played by the same players in the same seats."),
            round=number,
        )
