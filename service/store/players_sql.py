"""`PlayerRecords` in SQL both backends run: the columns and tables of migration 010 keep times as ISO
text on both, so the SQL lives here once, composed with a backend's `Database` (as `access_sql`)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import msgspec

from service.store.base import AlreadyExists, ClubPlayer, Duplicate, PlayerMerge
from service.store.sql import Database

_MERGE_COLUMNS = "club_id, player_id, into_id, key_id, merged_at"


@dataclasses.dataclass(frozen=True)
class _PlayerSql:
    player: str = (
        "SELECT club_id, player_id, name, created_at, note, retired_at FROM players WHERE club_id = ? AND player_id = ?"
    )
    rename: str = "UPDATE players SET name = ? WHERE club_id = ? AND player_id = ?"
    note: str = "UPDATE players SET note = ? WHERE club_id = ? AND player_id = ?"
    retire: str = "UPDATE players SET retired_at = coalesce(retired_at, ?) WHERE club_id = ? AND player_id = ?"
    bring_back: str = "UPDATE players SET retired_at = NULL WHERE club_id = ? AND player_id = ?"
    merge: str = f"INSERT INTO player_merges ({_MERGE_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
    merges: str = f"SELECT {_MERGE_COLUMNS} FROM player_merges WHERE club_id = ? ORDER BY merged_at, player_id"
    next_number: str = (
        "INSERT INTO game_numbers (club_id, prefix, last) VALUES (?, ?, 1) "
        "ON CONFLICT (club_id, prefix) DO UPDATE SET last = game_numbers.last + 1 RETURNING last"
    )


class PlayerTables:
    """`PlayerRecords` in SQL both backends run (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._sql = db.dialect.prepare(_PlayerSql())

    def update_player(
        self,
        club_id: str,
        player_id: str,
        *,
        name: str | None = None,
        note: str | None = None,
        retired: bool | None = None,
        at: datetime | None = None,
    ) -> ClubPlayer | None:
        key = (club_id, player_id)
        with self._db.writing() as conn:
            if name is not None:
                conn.execute(self._sql.rename, (name, *key))
            if note is not None:
                conn.execute(self._sql.note, (note, *key))
            if retired is True:
                conn.execute(self._sql.retire, ((at or datetime.now(UTC)).astimezone(UTC).isoformat(), *key))
            elif retired is False:
                conn.execute(self._sql.bring_back, key)
        rows = self._db.records(self._sql.player, key)
        return msgspec.convert(rows[0], ClubPlayer) if rows else None

    def merge_player(
        self, club_id: str, player_id: str, into_id: str, key_id: str | None, at: datetime | None = None
    ) -> PlayerMerge:
        merged_at = (at or datetime.now(UTC)).astimezone(UTC)
        try:
            with self._db.writing() as conn:
                conn.execute(self._sql.merge, (club_id, player_id, into_id, key_id, merged_at.isoformat()))
        except Duplicate:
            raise AlreadyExists("merge", player_id) from None
        return PlayerMerge(club_id=club_id, player_id=player_id, into_id=into_id, key_id=key_id, merged_at=merged_at)

    def player_merges(self, club_id: str) -> list[PlayerMerge]:
        return [msgspec.convert(row, PlayerMerge) for row in self._db.records(self._sql.merges, (club_id,))]

    def next_game_number(self, club_id: str, prefix: str) -> int:
        with self._db.writing() as conn:
            # A number lost in a crash costs nothing: a game holding it is passed over when the number is
            # taken again (`GameRecords._given_id`), so the counter commits without waiting for the disk.
            for statement in self._db.dialect.projection_tx:
                conn.execute(statement)
            row = conn.execute(self._sql.next_number, (club_id, prefix)).fetchone()
        return int(row[0])
