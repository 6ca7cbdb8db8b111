"""One person under two ids: a club that merged `p-alain` into `alain` counts both ids' games as
`alain`'s. The record is never rewritten; the projections read the ids through the merges (`People`)
when they fold, so a merge changes every table, ladder and campaign at once, and can be read back."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from domain.ruleset import Player


class People:
    """The club's merges, as `merged id -> id it was merged into` (chains followed to their end)."""

    def __init__(self, merges: Mapping[str, str] | None = None) -> None:
        self._into = dict(merges or {})

    def __bool__(self) -> bool:
        return bool(self._into)

    def __call__(self, player_id: str) -> str:
        """The id a player's games count under (their own, when not merged)."""
        seen = {player_id}
        while player_id in self._into:
            player_id = self._into[player_id]
            if player_id in seen:  # never written (a merge into one's own merged record is refused)
                break
            seen.add(player_id)
        return player_id

    def ids(self, player_ids: Iterable[str]) -> tuple[str, ...]:
        """The ids as people, each person once, in their first order."""
        return tuple(dict.fromkeys(self(p) for p in player_ids))

    def records_of(self, person: str, known: Iterable[str]) -> list[str]:
        """Every id among `known` whose games are `person`'s (theirs first)."""
        return [person, *sorted(p for p in known if p != person and self(p) == person)]

    def seated(self, players: Sequence[Player]) -> tuple[Player, ...]:
        """A table's players with the ids of the people who sat there."""
        if not self._into:
            return tuple(players)
        return tuple(msgspec.structs.replace(p, player_id=self(p.player_id)) for p in players)
