"""A spectator's live stream of a game as server-sent events, for the API's `/live` and the pages' (the
steps come from the process's follower of the game, `service.usecases.live`), and a tournament screen's
stream (`LiveTournament`)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import anyio
from litestar.response.sse import ServerSentEventMessage

from domain.ruleset import Ruleset, Viewer
from service.logs import get_logger
from service.usecases.access import Watch
from service.usecases.live import Live, Look, TournamentKey
from service.usecases.replays import Replays
from service.usecases.types import StreamId


class KeyCheck:
    """A live stream's look at the key (session, share link) it was opened with: nothing read while no
    revocation was heard (`Watch.settled`), else (or when not listening) a read now and then."""

    def __init__(self, still_valid: Watch, poll_seconds: float) -> None:
        self.still_valid = still_valid
        self.every = min(poll_seconds, 1.0)
        self.checked_at = time.monotonic()

    async def revoked(self) -> bool:
        if self.still_valid.settled() or time.monotonic() - self.checked_at < self.every:
            return False
        self.checked_at = time.monotonic()
        return not await anyio.to_thread.run_sync(self.still_valid)


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
            quiet_since = time.monotonic()
            yield ServerSentEventMessage(comment="tablelog live", retry=int(max(poll_seconds, 1.0) * 1000))
            if not await anyio.to_thread.run_sync(still_valid):
                ended = "revoked"
                yield ServerSentEventMessage(event="revoked", data="This key or link is no longer valid.")
                return
            key = KeyCheck(still_valid, poll_seconds)
            while True:
                if await key.revoked():
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


FRESH_SECONDS = 10.0
"""The longest a joining screen waits for its tournament's follower to look (a look that fails or hangs
leaves it with the last mark)."""


class LiveTournament:
    """One screen's stream of a tournament: an `update` event (its data, the new mark) each time what the
    screen shows changed. The looking is not the screen's: the process's follower of the tournament
    (`service.usecases.live.TournamentFollower`, shared by every screen of the tournament) looks once per
    change and wakes its screens; each screen sends its own mark, checks its own key and keeps its own
    line open. The page fetches itself again on `update`: the screen never polls."""

    def __init__(self, live: Live, key: TournamentKey, look: Look, shown: str) -> None:
        self.live = live
        self.key = key
        self.look = look
        self.shown = shown

    async def messages(
        self, poll_seconds: float, keepalive_seconds: float, still_valid: Watch
    ) -> AsyncIterator[ServerSentEventMessage]:
        """The stream: an `update` for each new mark, a comment now and then to keep the line open. It ends
        once `still_valid` says the key (session, share link) it was opened with is revoked or expired."""
        follower = self.live.join_tournament(self.key, self.look)
        ended = "closed by the screen"
        try:
            yield ServerSentEventMessage(comment="tablelog tournament", retry=int(max(poll_seconds, 1.0) * 1000))
            if not await anyio.to_thread.run_sync(still_valid):
                ended = "revoked"
                yield ServerSentEventMessage(event="revoked", data="This key or link is no longer valid.")
                return
            if follower.mark != self.shown:
                # What the screen shows is compared with what there is now, not with an earlier look.
                await follower.fresh(max(poll_seconds, FRESH_SECONDS))
            quiet_since = time.monotonic()
            key = KeyCheck(still_valid, poll_seconds)
            while True:
                seen = follower.generation  # before reading the mark: a change from here on ends the wait
                if await key.revoked():
                    ended = "revoked"
                    yield ServerSentEventMessage(event="revoked", data="This key or link is no longer valid.")
                    return
                mark = follower.mark
                if mark is not None and mark != self.shown:
                    self.shown = mark
                    quiet_since = time.monotonic()
                    yield ServerSentEventMessage(id=mark, event="update", data=mark)
                elif time.monotonic() - quiet_since > keepalive_seconds:
                    quiet_since = time.monotonic()
                    yield ServerSentEventMessage(comment="keep-alive")
                wait = keepalive_seconds - (time.monotonic() - quiet_since)
                await follower.wait(seen, wait if still_valid.settled() else min(wait, poll_seconds, 1.0))
        except Exception as error:
            ended = f"failed: {type(error).__name__}: {error}"
            raise
        finally:
            self.live.leave_tournament(follower)
            get_logger().info("live.tournament_ended", why=ended)
