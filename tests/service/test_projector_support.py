"""Helpers the projection API tests share (no tests here): an app with a fast projector, waiting
for it to apply our events, and JSON comparisons."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from testkit.waiting import wait_until
from tests.service.api_support import OPERATOR, Api
from tests.support.rulesets import RULESETS


@contextmanager
def projection_api(database_url: str, **settings: Any) -> Iterator[Api]:
    """The app with its projector polling every 50 ms."""
    base = Settings(database_url=database_url, operator_key=OPERATOR, log_format="json", projector_poll_seconds=0.05)
    with TestClient(create_app(msgspec.structs.replace(base, **settings), rulesets=RULESETS)) as client:
        yield Api(client)


def roll(seat: int, face: int) -> dict[str, Any]:
    return {"type": "tally.rolled", "seat": seat, "face": face}


def correction(voids: int, reason: str = "") -> dict[str, Any]:
    return {"type": "tablelog.correction", "voids": voids, "reason": reason}


def append(api: Api, token: str, game_id: str, events: list[dict[str, Any]], club_id: str = "c1") -> int:
    """Append at the game's current version; returns the last global position written (the test opens the
    read-your-writes token the club was given: the position itself is never shown to a club)."""
    response = api.append(club_id, token, game_id, api.version(club_id, token, game_id), events)
    assert response.status_code == 201, response.text
    return api.opened(club_id, response.json()["position"])


def wait_for_projector(api: Api, position: int) -> None:
    """Until every projection has applied `position` (the last one our appends wrote: on PostgreSQL a
    reader may wait for other tests' transactions, so "no lag" alone could come too early)."""
    wait_until(
        lambda: all(
            p["checkpoint"] >= position
            for p in api.client.get("/ready", headers=api.auth(OPERATOR)).json()["checks"]["projections"].values()
        ),
        f"the projections' reaching position {position}",
        30,
        interval=0.05,
    )


def as_json(value: Any) -> Any:
    """A value as the API's JSON reads back."""
    return msgspec.json.decode(msgspec.json.encode(value))


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
