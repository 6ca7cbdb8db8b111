"""A game as a menu names it, so that two games can be told apart: its game, its title or players, when
it was started (date and time, written by the template in the reader's language) and its result."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime

import msgspec

from domain.i18n import Catalogue, Message
from service.pages.render import points
from service.usecases.clubs import Clubs
from service.usecases.collections import ClubCollections
from service.usecases.games import Records
from service.usecases.types import GameRecord, GameSummary

_ = Catalogue("service.pages")


class GameChoice(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    game: str
    """The game's title (its ruleset's)."""
    who: str
    """The title given at the start and the players, or the players alone."""
    started: datetime
    result: Message
    apart: str = ""
    """Where two games read alike (same players, minute and result): the game's id, to tell them apart."""


def result_words(summary: GameSummary | None, names: Mapping[str, str] | None = None) -> Message:
    """A game's result in a few words: "Alain won (12 – 2)", "shared by …", "void", "being played"; the
    players named by `names` (player id -> the name the club's lists tell them apart by) where given."""
    if summary is None or not summary.outcome.finished:
        return _("being played")
    result = summary.outcome.result
    if result.void:
        return _("void")
    by_seat = {p.seat: (names or {}).get(p.player_id, p.name) for p in summary.players}
    scores = " – ".join(points(p.score, result.score_unit) for p in sorted(result.players, key=lambda p: p.seat))
    if len(result.winners) == 1:
        return _("{winner} won ({scores})", winner=by_seat.get(result.winners[0], ""), scores=scores)
    winners = ", ".join(by_seat.get(seat, "") for seat in result.winners)
    return _("shared by {winners} ({scores})", winners=winners, scores=scores)


def game_choices(records: Records, club_id: str, games: Sequence[GameRecord]) -> list[GameChoice]:
    """The games as a menu lists them, newest first."""
    names = Clubs.of(records).names(club_id)
    titles = {r.name: r.title for r in records.rulesets}
    summaries = ClubCollections.of(records).summaries(club_id, [g.game_id for g in games])
    choices = [
        GameChoice(
            game_id=g.game_id,
            game=titles.get(g.ruleset, g.ruleset),
            # A title alone would not tell apart two games titled alike: the players always follow it.
            who=" · ".join(filter(None, (g.title, ", ".join(names.get(p, p) for p in g.player_ids)))),
            started=g.created_at,
            result=result_words(summaries.get(g.game_id), names),
        )
        for g in sorted(games, key=lambda g: g.created_at, reverse=True)
    ]

    def read(c: GameChoice) -> tuple[str, str, datetime, str]:
        return c.game, c.who, c.started.replace(second=0, microsecond=0), c.result.english()

    alike = Counter(read(c) for c in choices)
    return [msgspec.structs.replace(c, apart=c.game_id) if alike[read(c)] > 1 else c for c in choices]
