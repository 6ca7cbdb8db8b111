"""A spectator's live stream of a game as server-sent events, for the API's `/live` and the pages' (the
steps come from the process's follower of the game, `service.usecases.live`), and a tournament screen's
stream (`LiveTournament`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable

import anyio
from litestar.response.sse import ServerSentEventMessage

from domain.ruleset import Ruleset, Viewer
from service.logs import get_logger
from service.notify import Hub
from service.usecases.access import Watch
from service.usecases.live import Live
from service.usecases.replays import Replays
from service.usecases.types import StreamId


class LiveGame:
    """One spectator's stream of a game: the steps its process's follower of the game told
    (`service.usecases.live`), from where the spectator is, released once the spectator delay allows."""

    def __init__(
        self, live: Live, replays: Replays, ruleset: Ruleset, game_id: StreamId, sent: int, language: str = "en"
    ) -> None:
        self.language = language
        self.live = live
        self.replays = replays
        self.ruleset = ruleset
        self.game_id = game_id
        self.sent = sent
        self.viewer = Viewer.public()

    async def messages(
        self, poll_seconds: float, keepalive_seconds: float, still_valid: Watch
    ) -> AsyncIterator[ServerSentEventMessage]:
        """The stream: steps as they may be sent, a comment now and then to keep the line open. It ends
        once `still_valid` says the key (session, share link) it was opened with is revoked or expired;
        the browser's reconnection is then refused."""
        follower = self.replays.follow(self.live, self.ruleset, self.game_id)
        teller = follower.teller(self.viewer, self.language)
        ended = "closed by the spectator"
        try:
            quiet_since = checked_at = time.monotonic()
            yield ServerSentEventMessage(comment="tablelog live", retry=int(max(poll_seconds, 1.0) * 1000))
            if not await anyio.to_thread.run_sync(still_valid):
                ended = "revoked"
                yield ServerSentEventMessage(event="revoked", data="This key or link is no longer valid.")
                return
            while True:
                # Nothing to read while no revocation was heard; else (or not listening) a look now and then.
                if not still_valid.settled() and time.monotonic() - checked_at >= min(poll_seconds, 1.0):
                    checked_at = time.monotonic()
                    if not await anyio.to_thread.run_sync(still_valid):
                        ended = "revoked"
                        yield ServerSentEventMessage(event="revoked", data="This key or link is no longer valid.")
                        return
                await follower.pump()
                told = min(follower.released, len(teller.steps))
                if self.sent < told:
                    for version, data in await follower.messages(self.viewer, self.sent, told, self.language):
                        yield ServerSentEventMessage(id=version, event="step", data=data)
                    self.sent = told
                    quiet_since = time.monotonic()
                    continue
                if time.monotonic() - quiet_since > keepalive_seconds:
                    quiet_since = time.monotonic()
                    yield ServerSentEventMessage(comment="keep-alive")
                wait = keepalive_seconds - (time.monotonic() - quiet_since)
                await follower.wait(self, wait if still_valid.settled() else min(wait, poll_seconds, 1.0))
        except Exception as error:
            ended = f"failed: {type(error).__name__}: {error}"
            raise
        finally:
            self.live.leave(follower, self)
            get_logger().info("live.ended", why=ended, sent=self.sent)


SETTLING = (0.3, 1.0, 3.0)
"""Seconds after news when a tournament's stream looks again: a game's summary (which the standings
read) is written by the projector a moment after the game's event, and nobody announces that."""


class LiveTournament:
    """One screen's stream of a tournament: an `update` event (its data, the new mark) each time what the
    screen shows changed, found by `look` (the mark of what is shown now, and the game streams it depends
    on) when the tournament's stream or one of its games' streams is heard to grow (`service.notify`),
    shortly after that, and every `poll_seconds` in case a notification was missed, as `LiveGame`'s
    follower does. The page fetches itself again on `update`: the screen never polls."""

    def __init__(
        self, hub: Hub, stream_id: StreamId, look: Callable[[], tuple[str, list[StreamId]]], shown: str
    ) -> None:
        self.hub = hub
        self.stream_id = stream_id
        self.look = look
        self.shown = shown
        self._wake = anyio.Event()
        self._subscriptions: dict[str, Callable[[], None]] = {}

    def _follow(self, streams: list[StreamId]) -> None:
        loop = asyncio.get_running_loop()

        def heard(version: int | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed (the server stops)
                loop.call_soon_threadsafe(lambda: self._wake.set())  # the event current then

        for stream in [self.stream_id, *streams]:
            if stream not in self._subscriptions:
                self._subscriptions[stream] = self.hub.subscribe(stream, heard)

    async def messages(
        self, poll_seconds: float, keepalive_seconds: float, still_valid: Watch
    ) -> AsyncIterator[ServerSentEventMessage]:
        ended = "closed by the screen"
        try:
            self._follow([])
            yield ServerSentEventMessage(comment="tablelog tournament", retry=int(max(poll_seconds, 1.0) * 1000))
            settling: list[float] = []
            quiet_since = time.monotonic()
            while True:
                self._wake = anyio.Event()  # before looking: news heard while looking wakes the next wait
                if not await anyio.to_thread.run_sync(still_valid):
                    ended = "revoked"
                    yield ServerSentEventMessage(event="revoked", data="This key or link is no longer valid.")
                    return
                mark, streams = await anyio.to_thread.run_sync(self.look)
                self._follow(streams)
                if mark != self.shown:
                    self.shown = mark
                    quiet_since = time.monotonic()
                    yield ServerSentEventMessage(id=mark, event="update", data=mark)
                elif time.monotonic() - quiet_since > keepalive_seconds:
                    quiet_since = time.monotonic()
                    yield ServerSentEventMessage(comment="keep-alive")
                now = time.monotonic()
                settling = [t for t in settling if t > now]
                wait = min([poll_seconds, keepalive_seconds, *(t - now for t in settling)])
                with anyio.move_on_after(wait):
                    await self._wake.wait()
                if self._wake.is_set():
                    settling = [time.monotonic() + s for s in SETTLING]
        except Exception as error:
            ended = f"failed: {type(error).__name__}: {error}"
            raise
        finally:
            for unsubscribe in self._subscriptions.values():
                unsubscribe()
            get_logger().info("live.tournament_ended", why=ended)
