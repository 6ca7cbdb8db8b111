"""The append's wire structs, shared by the games API and the recording page (which answers an append as
the API does): here, in no controller, so a page imports no controller."""

from __future__ import annotations

from typing import Any

import msgspec

from service.http.positions import PositionTokens
from service.limits import Count
from service.usecases.types import AppendResult


class AppendIn(msgspec.Struct, frozen=True, kw_only=True):
    """A batch of events, appended only if the game is at `expected_version`. Each event is an object
    whose `type` names it (see `GET /rulesets` for each ruleset's event types)."""

    expected_version: Count
    events: list[dict[str, Any]]


class AppendOut(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    first_version: int
    last_version: int
    position: str
    """Read-your-writes token (also the `Tablelog-Position` header): opaque, see `service.http.positions`."""
    replayed: bool

    @classmethod
    def of(cls, tokens: PositionTokens, club_id: str, game_id: str, result: AppendResult) -> AppendOut:
        """The answer to an append of `game_id` (the API's, and the recording page's). Its global positions
        stay sealed in the token: their gaps would tell how much other clubs write (issue 13 part 10)."""
        return cls(
            game_id=game_id,
            first_version=result.first_version,
            last_version=result.last_version,
            position=tokens.seal(club_id, max(result.positions, default=0)),
            replayed=result.replayed,
        )
