"""What a changed game result changes: when a correction (G-3) voids events of a finished game,
the service re-derives the standings and campaigns from scratch (they are pure folds), then these
helpers compare before and after and list what changed, with old and new values, as structural
diffs (`projections.diff`): paths such as `("points",)`, `("rank",)`, `("tie_breaks", "buchholz")`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from projections.campaigns import CampaignStatus
from projections.diff import Change, diff
from projections.standings import Standings


class RowChange(msgspec.Struct, frozen=True, kw_only=True):
    """One keyed row that changed (a member's standings row, or a campaign's step after one game):
    `key` is the player id or game id."""

    key: str
    changes: tuple[Change, ...]


class StandingsChanges(msgspec.Struct, frozen=True, kw_only=True):
    """What the changed result of `game_id` changed in a league table: the game's own line (counted
    or not, each player's placement, outcome, points and score) and every member row whose rank,
    points, counts, tie-break values or separating criterion changed."""

    game_id: str
    game: tuple[Change, ...]
    rows: tuple[RowChange, ...]

    @property
    def changed(self) -> bool:
        """Whether anything changed at all."""
        return bool(self.game or self.rows)


class CampaignChanges(msgspec.Struct, frozen=True, kw_only=True):
    """What the changed result of `game_id` changed in a campaign: the steps from that game on, and
    where the campaign stands now (totals, finished, winners, next dealer)."""

    game_id: str
    steps: tuple[RowChange, ...]
    status: tuple[Change, ...]

    @property
    def changed(self) -> bool:
        """Whether anything changed at all."""
        return bool(self.steps or self.status)


def standings_changes(before: Standings, after: Standings, game_id: str) -> StandingsChanges:
    """Compare a league table before and after game `game_id`'s result changed."""
    return StandingsChanges(
        game_id=game_id,
        game=diff(_game_line(before, game_id), _game_line(after, game_id)),
        rows=_keyed_changes(_rows(before), _rows(after)),
    )


def campaign_changes(before: CampaignStatus, after: CampaignStatus, game_id: str) -> CampaignChanges:
    """Compare a campaign before and after game `game_id`'s result changed."""
    return CampaignChanges(
        game_id=game_id,
        steps=_keyed_changes({s.game_id: s for s in before.steps}, {s.game_id: s for s in after.steps}),
        status=diff(before.status, after.status),
    )


def _game_line(table: Standings, game_id: str) -> Any:
    # Entries keyed by player, so a change reads ("entries", "ana", "points") not a list index.
    for line in table.games:
        if line.game_id == game_id:
            data = msgspec.to_builtins(line)
            data["entries"] = {entry.pop("player_id"): entry for entry in data["entries"]}
            return data
    return None


def _rows(table: Standings) -> dict[str, Any]:
    # Each row with the criterion that separates it from the next one, so a change of explanation
    # shows on the row it concerns.
    below = {s.upper: s.criterion for s in table.separations}
    rows: dict[str, Any] = {}
    for row in table.rows:
        data = msgspec.to_builtins(row)
        data["separated_from_next_by"] = below.get(row.player_id)
        rows[row.player_id] = data
    return rows


def _keyed_changes(before: dict[str, Any], after: dict[str, Any]) -> tuple[RowChange, ...]:
    keys: Sequence[str] = [*before, *(key for key in after if key not in before)]
    out = []
    for key in keys:
        changes = diff(before.get(key), after.get(key))
        if changes:
            out.append(RowChange(key=key, changes=changes))
    return tuple(out)
