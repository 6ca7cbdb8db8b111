"""A club's own records: the club, its players, its games' listing and its imported resources (the
operator creates clubs; a club's `record` key adds players and imports resources)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Protocol

import msgspec

from domain.i18n import Catalogue, Message
from projections.people import People
from service.limits import ID_PATTERN
from service.store.base import (
    Club,
    ClubPlayer,
    ClubRecords,
    GameFilter,
    GameRecord,
    PlayerMerge,
    PlayerRecords,
    Recorder,
    Resource,
)
from service.usecases.games import NotFound, Records
from service.usecases.names import told_apart

_ = Catalogue("service.usecases")

ID_LENGTH = 64
NAME_LENGTH = 200
"""As the API's `max_name_length` by default."""
NOTE_LENGTH = 80


class PlayerError(Exception):
    """A change to a club's players that cannot be made: the field it is about, a stable `code`, and the
    sentence a club member reads (a page shows it beside the field, the API as its problem)."""

    def __init__(self, field: str, code: str, message: Message) -> None:
        super().__init__(message.english())
        self.field = field
        self.code = code
        self.message = message


class PlayersStore(ClubRecords, PlayerRecords, Protocol):
    """What the club use cases read and write: its records, and its players' changes."""


def _checked_text(field: str, value: str, longest: int, *, required: bool) -> str:
    text = " ".join(value.split())
    if required and not text:
        raise PlayerError(field, "blank", _("Write a name."))
    if len(text) > longest:
        raise PlayerError(field, "too_long", _("At most {count} characters.", count=longest))
    return text


class Clubs:
    """The club use cases over the store's club records."""

    def __init__(self, store: PlayersStore) -> None:
        self.store = store

    @classmethod
    def of(cls, records: Records) -> Clubs:
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

    def add_player(self, club_id: str, player_id: str | None, name: str, note: str = "") -> ClubPlayer:
        """Add a player; with no id given, one made from the name that no player of the club has
        (`alain`, then `alain-2`). AlreadyExists when a given id is taken."""
        name = _checked_text("name", name, NAME_LENGTH, required=True)
        note = _checked_text("note", note, NOTE_LENGTH, required=False)
        if player_id is None:
            player_id = self._free_id(club_id, name)
        elif not re.search(ID_PATTERN, player_id) or len(player_id) > ID_LENGTH:
            raise PlayerError(
                "player_id",
                "bad_id",
                _("An id is letters, digits, '-', '_' or '.', starting with a letter or digit (no space)."),
            )
        player = self.store.create_player(club_id, player_id, name)
        if note:
            return self.store.update_player(club_id, player_id, note=note) or player
        return player

    def _free_id(self, club_id: str, name: str) -> str:
        """An id made from a name: its letters without accents, lower case, words joined by '-'."""
        plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
        stem = "-".join(re.findall(r"[a-z0-9]+", plain))[:40].strip("-") or "player"
        taken = {p.player_id for p in self.store.list_players(club_id)}
        return next(c for c in (stem, *(f"{stem}-{n}" for n in range(2, len(taken) + 3))) if c not in taken)

    def change_player(
        self,
        club_id: str,
        player_id: str,
        *,
        name: str | None = None,
        note: str | None = None,
        retired: bool | None = None,
    ) -> ClubPlayer:
        """Rename a player, change their note, retire them or bring them back (what is given); NotFound."""
        name = None if name is None else _checked_text("name", name, NAME_LENGTH, required=True)
        note = None if note is None else _checked_text("note", note, NOTE_LENGTH, required=False)
        changed = self.store.update_player(club_id, player_id, name=name, note=note, retired=retired)
        if changed is None:
            raise NotFound("player", player_id)
        return changed

    def merge(self, recorder: Recorder, player_id: str, into_id: str) -> PlayerMerge:
        """Record that `player_id` is the same person as `into_id` (who and when): from now on every table
        counts the first's games as the second's. The games and their events are not changed."""
        club_id = recorder.club_id
        found = {p.player_id for p in self.store.get_players(club_id, [player_id, into_id])}
        for field, ident in (("player_id", player_id), ("into", into_id)):
            if ident not in found:
                raise PlayerError(
                    field, "unknown_player", _("{player} is not one of the club's players.", player=ident)
                )
        people = self.people(club_id)
        if people(player_id) != player_id:
            raise PlayerError(
                "player_id",
                "already_merged",
                _("{player} is already merged into {into}.", player=player_id, into=people(player_id)),
            )
        if people(into_id) == player_id:
            raise PlayerError("into", "same_person", _("Choose another player to merge with."))
        # Merged into the record the other one counts under, so that a person has one id in the tables.
        return self.store.merge_player(club_id, player_id, people(into_id), recorder.key_id)

    def merges(self, club_id: str) -> list[PlayerMerge]:
        return self.store.player_merges(club_id)

    def people(self, club_id: str) -> People:
        """How the club's ids count as people (see `projections.people`)."""
        return People({m.player_id: m.into_id for m in self.store.player_merges(club_id)})

    def players(self, club_id: str) -> list[ClubPlayer]:
        return self.store.list_players(club_id)

    def menu(self, club_id: str) -> list[ClubPlayer]:
        """The players to choose from (seat menus, a league's members): not retired, not merged into
        another, each shown by a name no other one in the menu has (`told_apart`), by that name."""
        people = self.people(club_id)
        active = [
            p for p in self.store.list_players(club_id) if p.retired_at is None and people(p.player_id) == p.player_id
        ]
        labels = told_apart(active)
        chosen = [msgspec.structs.replace(p, name=labels[p.player_id]) for p in active]
        return sorted(chosen, key=lambda p: (p.name.casefold(), p.player_id))

    def player(self, club_id: str, player_id: str) -> ClubPlayer:
        """A player of the club, or NotFound."""
        found = self.store.get_players(club_id, [player_id])
        if not found:
            raise NotFound("player", player_id)
        return found[0]

    def names(self, club_id: str, player_ids: Sequence[str] | None = None) -> dict[str, str]:
        """The names of the club's players (of those given, when given), by id, told apart where two
        share one (`told_apart`); a merged record is shown by the name of the person it was merged into."""
        players = self.store.list_players(club_id)
        people = self.people(club_id)
        labels = told_apart([p for p in players if people(p.player_id) == p.player_id])
        wanted = None if player_ids is None else set(player_ids)
        return {
            p.player_id: labels.get(people(p.player_id), p.name)
            for p in players
            if wanted is None or p.player_id in wanted
        }

    def games(self, club_id: str, where: GameFilter) -> list[GameRecord]:
        return self.store.list_games(club_id, where)

    def resources(self, club_id: str) -> list[Resource]:
        return self.store.list_resources(club_id)

    def resource(self, club_id: str, ruleset: str, kind: str, resource_id: str, version: int) -> Resource:
        """One version of a club resource (NotFound when the club has no such version): it never changes."""
        found = self.store.get_resource(club_id, ruleset, kind, resource_id, version)
        if found is None:
            raise NotFound("resource version", f"{ruleset}/{kind}/{resource_id} version {version}")
        return found
