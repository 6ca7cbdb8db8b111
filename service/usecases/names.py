"""Players told apart where two share a name: what the club's lists show and what a game records at its
start when two of its seats would read alike."""

from __future__ import annotations

from collections.abc import Sequence

from service.store.base import ClubPlayer


def told_apart(players: Sequence[ClubPlayer]) -> dict[str, str]:
    """The name each player is shown by: their name, and where another player shown in the same lists
    has it too, their note (when it tells them apart) or else their id."""
    alike: dict[str, list[ClubPlayer]] = {}
    for player in players:
        alike.setdefault(" ".join(player.name.casefold().split()), []).append(player)
    labels: dict[str, str] = {}
    for group in alike.values():
        notes = [p.note.strip() for p in group]
        by_note = all(notes) and len(set(n.casefold() for n in notes)) == len(notes)
        for player, note in zip(group, notes, strict=True):
            if len(group) == 1:
                labels[player.player_id] = player.name
            else:
                labels[player.player_id] = f"{player.name} ({note if by_note else player.player_id})"
    return labels
