"""A small client-side helper for API tests: clubs, keys, players and games in one line each."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg

from service.store import open_store
from service.store.base import Store

OPERATOR = "operator-secret-for-tests"


class Api:
    def __init__(self, client: Any, app: Any = None) -> None:
        """`client`: a litestar TestClient, or an HTTP client of a real server whose `app` is given."""
        self.client = client
        self.app = app if app is not None else getattr(client, "app", None)

    def opened(self, club_id: str, token: str) -> int:
        """The global position behind a read-your-writes token (the test opens it with the app's key; a
        club is never shown the position itself)."""
        return int(self.app.state.tokens.open(club_id, token))

    @staticmethod
    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def club(self, club_id: str) -> str:
        """Create a club and return a fresh API key's token for it."""
        created = self.client.post(
            "/clubs", json={"club_id": club_id, "name": f"Club {club_id}"}, headers=self.auth(OPERATOR)
        )
        assert created.status_code == 201, created.text
        key = self.client.post(f"/clubs/{club_id}/keys", json={"name": "scorer"}, headers=self.auth(OPERATOR))
        assert key.status_code == 201, key.text
        return str(key.json()["token"])

    def players(self, club_id: str, token: str, *player_ids: str) -> None:
        for player_id in player_ids:
            response = self.client.post(
                f"/clubs/{club_id}/players",
                headers=self.auth(token),
                json={"player_id": player_id, "name": player_id.capitalize()},
            )
            assert response.status_code == 201, response.text

    def game(self, club_id: str, token: str, body: dict[str, Any]) -> str:
        response = self.client.post(f"/clubs/{club_id}/games", headers=self.auth(token), json=body)
        assert response.status_code == 201, response.text
        return str(response.json()["game_id"])

    def tally_game(
        self, club_id: str, token: str, players: Sequence[str] = ("alain", "bea"), options: dict[str, Any] | None = None
    ) -> str:
        return self.game(
            club_id,
            token,
            {"ruleset": "tally", "players": [{"player_id": p} for p in players], "options": options or {}},
        )

    def played_game(self, club_id: str, events: list[dict[str, Any]]) -> tuple[str, str]:
        """A new club with alain and bea, and a Tally game of theirs with `events` appended: (token, game id)."""
        token = self.club(club_id)
        self.players(club_id, token, "alain", "bea")
        game_id = self.tally_game(club_id, token)
        assert self.append(club_id, token, game_id, 1, events).status_code == 201
        return token, game_id

    def append(
        self,
        club_id: str,
        token: str,
        game_id: str,
        expected: int,
        events: list[dict[str, Any]],
        key: str | None = None,
    ) -> Any:
        headers = self.auth(token) | ({"Idempotency-Key": key} if key else {})
        return self.client.post(
            f"/clubs/{club_id}/games/{game_id}/events",
            headers=headers,
            json={"expected_version": expected, "events": events},
        )

    def version(self, club_id: str, token: str, game_id: str) -> int:
        response = self.client.get(f"/clubs/{club_id}/games/{game_id}", headers=self.auth(token))
        assert response.status_code == 200, response.text
        return int(response.json()["version"])


@contextmanager
def club_store(database_url: str, **options: Any) -> Iterator[Store]:
    """A migrated store with club `c1` and its players alain and bea, closed afterwards."""
    opened = open_store(database_url, **options)
    opened.migrate()
    opened.create_club("c1", "Club")
    for player in ("alain", "bea"):
        opened.create_player("c1", player, player.capitalize())
    try:
        yield opened
    finally:
        opened.close()


def write_around(url: str, *statements: tuple[str, tuple[Any, ...]], triggers_off: bool = True) -> None:
    """Rows written around the service, by someone who holds the database's own keys (the append-only
    triggers turned off first, as the owner can)."""
    if url.startswith("sqlite"):
        conn = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        if triggers_off:
            for trigger in ("events_no_update", "events_no_delete"):
                conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        for sql, params in statements:
            conn.execute(sql.replace("%s", "?"), params)
        conn.close()
        return
    with psycopg.connect(url, autocommit=True) as pg:
        if triggers_off:
            pg.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        for sql, params in statements:
            pg.execute(sql, params)  # type: ignore[arg-type]
        if triggers_off:
            pg.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")
