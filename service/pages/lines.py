""" "What if" lines in the replay viewer: the lines under the step shown and what the form that opens one
offers (a line's own page is `service.pages.line_pages`). Read through the lines use case
(`service.usecases.lines`), as the API does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.i18n import Catalogue, Message
from domain.ruleset import Player
from projections.lines import MAX_NAME
from service.usecases.access import Principal
from service.usecases.games import Records
from service.usecases.lines import Lines
from service.usecases.types import GameRecord

_ = Catalogue("service.pages")


def view_options(players: Sequence[Player]) -> list[tuple[str, Message]]:
    """The views a line may start from: the public's, one seat's, or the full record's."""
    return [
        ("public", _("What everyone saw (public view)")),
        *((f"seat-{p.seat}", _("What {player} saw", player=p.name)) for p in players),
        ("full", _("Everything the record knows")),
    ]


def view_label(view: str, seat: int | None, players: Sequence[Player]) -> Message:
    if view == "seat":
        name = next((p.name for p in players if p.seat == seat), str(seat))
        return _("as {player} saw it", player=name)
    return _("as the record knows it") if view == "full" else _("as everyone saw it")


def at_step(records: Records, principal: Principal, record: GameRecord, at: int) -> dict[str, Any]:
    """The replay page's lines context at step `at`: a member's (a share link reads only its own line)."""
    member = principal.sees_hidden and principal.share is None
    lines = Lines.of(records).lines(principal, record.club_id, record.game_id, at) if member else []
    return {"lines_here": lines, "may_line": member, "line_max": MAX_NAME}
