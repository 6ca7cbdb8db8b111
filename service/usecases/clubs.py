"""A club's own records: the club, its players, its games' listing and its imported resources (the
operator creates clubs; a club's `record` key adds players and imports resources)."""

from __future__ import annotations

from collections.abc import Sequence

from service.store.base import Club, ClubPlayer, ClubRecords, GameFilter, GameRecord, Resource
from service.usecases.games import GameRecords, NotFound


class Clubs:
    """The club use cases over the store's club records."""

    def __init__(self, store: ClubRecords) -> None:
        self.store = store

    @classmethod
    def of(cls, records: GameRecords) -> Clubs:
        return cls(records.store)

    def create(self, club_id: str, name: str) -> Club:
        return self.store.create_club(club_id, name)

    def club(self, club_id: str) -> Club:
        """The club, or NotFound."""
        club = self.store.get_club(club_id)
        if club is None:
            raise NotFound("club", club_id)
        return club

    def set_language(self, club_id: str, language: str | None) -> Club:
        """Sets the club's default language (None: the readers' own, else English), or NotFound."""
        club = self.store.set_club_language(club_id, language)
        if club is None:
            raise NotFound("club", club_id)
        return club

    def exists(self, club_id: str) -> bool:
        return self.store.get_club(club_id) is not None

    def add_player(self, club_id: str, player_id: str, name: str) -> ClubPlayer:
        return self.store.create_player(club_id, player_id, name)

    def players(self, club_id: str) -> list[ClubPlayer]:
        return self.store.list_players(club_id)

    def player(self, club_id: str, player_id: str) -> ClubPlayer:
        """A player of the club, or NotFound."""
        found = self.store.get_players(club_id, [player_id])
        if not found:
            raise NotFound("player", player_id)
        return found[0]

    def names(self, club_id: str, player_ids: Sequence[str] | None = None) -> dict[str, str]:
        """The names of the club's players (of those given, when given), by id."""
        players = (
            self.store.list_players(club_id) if player_ids is None else self.store.get_players(club_id, player_ids)
        )
        return {p.player_id: p.name for p in players}

    def games(self, club_id: str, where: GameFilter) -> list[GameRecord]:
        return self.store.list_games(club_id, where)

    def resources(self, club_id: str) -> list[Resource]:
        return self.store.list_resources(club_id)
