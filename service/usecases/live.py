"""Live spectating: each game followed once per server process, however many watch it.

A `Follower` per game and process reads the game's new events once, narrates each new step once per
kind of viewer watching (today the public, for spectators) with a running fold, and keeps the encoded
messages; every stream of the game (`LiveGame`) sends them from there. The follower wakes when the
process hears that the stream grew (`service.notify`: PostgreSQL's NOTIFY, or an append in this process
on SQLite), when a step held back by the spectator delay becomes due, and otherwise looks at the store
every `poll_seconds` in case a notification was missed (once per game, never once per stream).

A tournament's screens (`service.http.live.LiveTournament`) are followed the same way: a
`TournamentFollower` per tournament and kind of reader (spectators see delayed games as released) looks
at what the screens show once per change, whatever the number of screens, and wakes them only when it
changed.

Narration of a step depends only on the stream up to it, except that a later correction marks the
steps it voids: the follower marks them as it tells the correction (`projections.replay.tell`), and only
ever tells the steps spectators may see now, so a step is sent as the record up to the release horizon
shows it, as a full replay of that much would.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import anyio
import msgspec

from domain.record import Folded, decoder
from domain.ruleset import Ruleset, Viewer
from projections.replay import Snapshot, Step, opening, seek, tell
from service.i18n import Translator
from service.logs import get_logger
from service.notify import Hub
from service.store.base import SpectatorDelay, StreamId
from service.usecases.spectators import DelayedStreams, released

KEPT = 1000
"""Encoded public states kept per game (the latest steps): a spectator resuming further back is caught up
by a fold of its own, from the nearest snapshot."""

Audience = tuple[Viewer, str]
"""Who a step is told for: a kind of viewer, in a language."""
Snapshots = Callable[[int], list[Snapshot]]
"""The game's stored snapshots up to a step."""


class LiveStep(msgspec.Struct, frozen=True, kw_only=True):
    """One step pushed to spectators: its narration and the public state after it."""

    step: Step
    state: Any


class Teller:
    """A game told step by step for one kind of viewer in one language, with its running fold."""

    def __init__(self, ruleset: Ruleset, viewer: Viewer, language: str = "en") -> None:
        self.ruleset = ruleset
        self.viewer = viewer
        self.words = Translator(language)
        self.folded: Folded | None = None
        self.steps: list[Step] = []
        self.states: dict[int, bytes] = {}
        """The encoded view after each of the latest `KEPT` steps."""

    def tell(self, events: Sequence[Any], upto: int) -> set[int]:
        """Tell the steps up to `upto`; the versions whose step is new or changed (voided)."""
        changed: set[int] = set()
        for version in range(len(self.steps) + 1, upto + 1):
            if self.folded is None:
                self.folded, first = opening(self.ruleset, events, words=self.words)
                self.steps.append(first)
            else:
                self.folded, voided = tell(
                    self.ruleset, self.folded, events[version - 1], version, self.steps, self.viewer, words=self.words
                )
                changed.update(voided)
            self.states[version] = msgspec.json.encode(self.ruleset.view(self.folded.state, self.viewer))
            self.states.pop(version - KEPT, None)
            changed.add(version)
        return changed

    def message(self, version: int, state: bytes) -> str:
        return msgspec.json.encode(LiveStep(step=self.steps[version - 1], state=msgspec.Raw(state))).decode()


WAKE_GRID = 0.25
"""Seconds: a stream's time-out (keep-alive, poll, key check, a held-back step due) comes at most this late."""


class Follower:
    """One game followed for every stream of this process that watches it."""

    def __init__(
        self, store: DelayedStreams, ruleset: Ruleset, game_id: StreamId, snapshots: Snapshots, poll_seconds: float
    ) -> None:
        self.store = store
        self.ruleset = ruleset
        self.game_id = game_id
        self.snapshots = snapshots
        self.poll_seconds = poll_seconds
        self.events: list[Any] = []
        self.recorded: list[datetime] = []
        self.tellers: dict[Audience, Teller] = {}
        self.released = 0
        """Steps spectators may see now, all told."""
        self.streams = 0
        self._heard = 0
        self._stale = True
        """Something other than an append changed (the spectator delay) or nothing was read yet."""
        self._read_at = -math.inf
        self._due_at: float | None = None
        """When (wall clock) the next step held back by a delay in seconds comes out."""
        self._messages: dict[tuple[Audience, int], str] = {}
        self._poller: object | None = None
        self._lock = anyio.Lock()
        self._wake = anyio.Event()
        self._loop = asyncio.get_running_loop()
        self._alarms: set[float] = set()
        """The times (on `WAKE_GRID`) at which every stream is woken: each stream's time-out falls on one."""

    # -- told by the hub (any thread) ------------------------------------------------------------
    def heard(self, version: int | None) -> None:
        self._soon(self._on_heard, version)

    def _soon(self, work: Callable[..., None], *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed (the server stops): nobody watches
            self._loop.call_soon_threadsafe(work, *args)

    def _on_heard(self, version: int | None) -> None:
        if version is None:
            self._stale = True
        else:
            self._heard = max(self._heard, version)
        self.wake()

    def wake_soon(self) -> None:
        """`wake`, from any thread (the hub's)."""
        self._soon(self.wake)

    def wake(self) -> None:
        """Wake every stream of the game (a new step, or something for each stream to check)."""
        woken, self._wake = self._wake, anyio.Event()
        woken.set()

    # -- reading and telling ---------------------------------------------------------------------
    def _due(self) -> bool:
        return (
            self._stale
            or self._heard > len(self.events)
            or time.monotonic() - self._read_at >= self.poll_seconds
            or (self._due_at is not None and time.time() >= self._due_at)
        )

    async def pump(self) -> None:
        """Read and tell what is new, if anything may be (the first stream to ask does it; the others
        find it done)."""
        if not self._due():
            return
        async with self._lock:
            if not self._due():
                return
            self._stale, self._read_at = False, time.monotonic()
            last, changed = await anyio.to_thread.run_sync(self._read_and_tell)
            for key in changed:
                self._messages.pop(key, None)
            self.released = last  # only now, on the loop: no stream sends a step before its message is current
        if changed:
            self.wake()

    def _read_and_tell(self) -> tuple[int, list[tuple[Audience, int]]]:
        """Read the new events and the delay, and tell the steps now released (a worker thread): how many
        are released, and the steps (by viewer and version) new or changed."""
        stored = self.store.read_stream(self.game_id, after_version=len(self.events))
        dec = decoder(self.ruleset)
        self.events += [dec.decode(e.data) for e in stored]
        self.recorded += [e.recorded_at for e in stored]
        delay = self.store.spectator_delay(self.game_id)
        last = released(self.recorded, delay)
        tellers = list(self.tellers.items())  # a stream may add one meanwhile: told on the next pump
        changed = [(audience, v) for audience, teller in tellers for v in teller.tell(self.events, last)]
        self._due_at = _next_release(self.recorded, last, delay)
        return last, changed

    def teller(self, viewer: Viewer, language: str = "en") -> Teller:
        known = self.tellers.get((viewer, language))
        if known is None:
            known = self.tellers[(viewer, language)] = Teller(self.ruleset, viewer, language)
            self._stale = True  # told on the next pump
        return known

    async def messages(self, viewer: Viewer, after: int, upto: int, language: str = "en") -> list[tuple[int, str]]:
        """The encoded messages of steps `after + 1` to `upto` (already told) for `viewer` in `language`."""
        audience = (viewer, language)
        teller = self.tellers[audience]
        first = after + 1
        older = [v for v in range(first, upto + 1) if v not in teller.states]
        caught = await anyio.to_thread.run_sync(self._catch_up, teller, older) if older else {}
        out = []
        for version in range(first, upto + 1):
            if version in caught:
                out.append((version, caught[version]))
                continue
            key = (audience, version)
            message = self._messages.get(key)
            if message is None:
                message = self._messages[key] = teller.message(version, teller.states[version])
                self._messages.pop((audience, version - KEPT), None)
            out.append((version, message))
        return out

    def _catch_up(self, teller: Teller, versions: list[int]) -> dict[int, str]:
        """Messages for steps older than the kept ones: one stream's own fold from the nearest snapshot
        (a worker thread; a spectator resuming far back, or joining a long game from its start)."""
        folded: Folded | None = None
        out = {}
        for version in versions:
            if folded is None or folded.version != version - 1:
                folded = seek(self.ruleset, self.events, version, self.snapshots(version))
            else:
                folded = folded.apply(self.events[version - 1], version)
            state = msgspec.json.encode(self.ruleset.view(folded.state, teller.viewer))
            out[version] = teller.message(version, state)
        return out

    async def wait(self, stream: object, timeout: float) -> None:
        """Until woken, the next held-back step is due, or `timeout` seconds pass. One stream of the game
        (the first to wait) also wakes for the fallback poll; the others sleep until there is news."""
        if self._poller is None:
            self._poller = stream
        if self._due_at is not None:
            timeout = min(timeout, max(0.0, self._due_at - time.time()))
        if self._poller is stream:
            timeout = min(timeout, max(0.0, self._read_at + self.poll_seconds - time.monotonic()))
        # No timer per stream (arming and disarming one cost 6.5 µs a stream a step, a tenth of a delivery
        # at 1,000 streams, bench/): the time-out is rounded up onto a grid and the game's streams share
        # the alarm set there, which wakes them all; a stream woken early finds nothing to do and waits again.
        alarm = math.ceil((self._loop.time() + timeout) / WAKE_GRID) * WAKE_GRID
        if alarm not in self._alarms:
            self._alarms.add(alarm)
            self._loop.call_at(alarm, self._ring, alarm)
        await self._wake.wait()

    def _ring(self, alarm: float) -> None:
        self._alarms.discard(alarm)
        self.wake()

    def left(self, stream: object) -> None:
        """A stream closed: if it kept the poll, another takes it over."""
        if self._poller is stream:
            self._poller = None
            self.wake()


def _next_release(recorded: Sequence[datetime], last: int, delay: SpectatorDelay) -> float | None:
    """When the first step held back only by the delay in seconds comes out (None: no such step)."""
    if not delay.seconds or last >= len(recorded) - delay.events:
        return None
    return recorded[last].timestamp() + delay.seconds


SETTLING = (0.3, 1.0, 3.0)
"""Seconds after news when a tournament's follower looks again: a game's summary (which the standings
read) is written by the projector a moment after the game's event, and nobody announces that."""
Look = Callable[[], tuple[str, list[StreamId]]]
"""What a tournament's screens show, as a mark (a digest: a change of it is news), and the game streams
it depends on (a worker thread)."""
TournamentKey = tuple[StreamId, bool]
"""A tournament followed: its stream, and whether its readers see hidden information (else they see the
games held back by a spectator delay as released, which another mark may show)."""


class TournamentFollower:
    """One tournament followed for every screen of this process that shows it: it looks (`look`) when the
    tournament's stream or one of its games' streams is heard to grow, again at each of `SETTLING` after
    that, every `poll_seconds` in case a notification was missed, and when a screen joins showing another
    mark than the last look's. Its screens are woken only when the mark changed (or a revocation was heard,
    for each to check its own key)."""

    def __init__(self, hub: Hub, key: TournamentKey, look: Look, poll_seconds: float) -> None:
        self.hub = hub
        self.key = key
        self.look = look
        self.poll_seconds = poll_seconds
        self.mark: str | None = None
        """The mark of the latest look (None: none succeeded yet)."""
        self.screens = 0
        self.looks = 0
        """Looks made, counted (what the tests and the bench read)."""
        self.generation = 0
        """Moves each time the screens are woken."""
        self._begun = 0
        self._ended = 0
        self._heard = False
        self._asked = False
        self._news = anyio.Event()
        self._told = anyio.Event()
        self._looked = anyio.Event()
        self._loop = asyncio.get_running_loop()
        self._subscriptions: dict[StreamId, Callable[[], None]] = {}
        self._off_access = hub.on_access(lambda: self._soon(self._tell))
        self._follow([])
        self._task: asyncio.Task[None] | None = self._loop.create_task(self._run())

    # -- told by the hub (any thread) ------------------------------------------------------------
    def _soon(self, work: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed (the server stops): nobody watches
            self._loop.call_soon_threadsafe(work)

    def _heard_of(self, version: int | None) -> None:
        self._soon(self._on_news)

    def _on_news(self) -> None:
        self._heard = True
        self._news.set()

    def _follow(self, streams: list[StreamId]) -> None:
        """Listen to the tournament's stream and `streams` (its games), and to those only."""
        wanted = {self.key[0], *streams}
        for stream in wanted - self._subscriptions.keys():
            self._subscriptions[stream] = self.hub.subscribe(stream, self._heard_of)
        for stream in self._subscriptions.keys() - wanted:
            self._subscriptions.pop(stream)()

    # -- looking ---------------------------------------------------------------------------------
    async def _run(self) -> None:
        settling: list[float] = []
        looked_at = -math.inf
        while True:
            self._news = anyio.Event()  # before the flags: news told from here on wakes the wait below
            now = time.monotonic()
            due = any(t <= now for t in settling)
            settling = [t for t in settling if t > now]
            if self._heard:
                settling = [now + s for s in SETTLING]
            if self._heard or self._asked or due or now - looked_at >= self.poll_seconds:
                self._heard = self._asked = False
                looked_at = now
                await self._look()
                continue
            with anyio.move_on_after(min([looked_at + self.poll_seconds - now, *(t - now for t in settling)])):
                await self._news.wait()

    async def _look(self) -> None:
        self._begun += 1
        changed = False
        try:
            mark, streams = await anyio.to_thread.run_sync(self.look)
            self.looks += 1
            self._follow(streams)
            changed, self.mark = mark != self.mark, mark
        except Exception as error:  # the next news or poll looks again; the screens keep what they show
            get_logger().warning(
                "live.tournament_look_failed", stream=self.key[0], error=f"{type(error).__name__}: {error}"
            )
        finally:
            self._ended += 1
            looked, self._looked = self._looked, anyio.Event()
            looked.set()
        if changed:
            self._tell()

    async def fresh(self, timeout: float) -> None:
        """Until a look begun after this call has ended (a joining screen compares its mark with what is
        shown now, not with what was), or `timeout` seconds pass."""
        wanted = self._begun + 1
        self._asked = True
        self._news.set()
        with anyio.move_on_after(timeout):
            while self._ended < wanted:
                await self._looked.wait()

    # -- the screens -----------------------------------------------------------------------------
    def _tell(self) -> None:
        self.generation += 1
        told, self._told = self._told, anyio.Event()
        told.set()

    async def wait(self, seen: int, timeout: float) -> None:
        """Until the screens are woken after `generation` was `seen`, or `timeout` seconds pass."""
        if self.generation != seen:
            return
        with anyio.move_on_after(timeout):
            await self._told.wait()

    def stop(self) -> None:
        """The last screen left: no more looks, no more listening."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._off_access()
        for unsubscribe in self._subscriptions.values():
            unsubscribe()
        self._subscriptions.clear()


class Live:
    """The followers of one server process, by game and by tournament, and their subscription to the hub."""

    def __init__(self, hub: Hub, poll_seconds: float) -> None:
        self.hub = hub
        self.poll_seconds = poll_seconds
        self._followers: dict[str, tuple[Follower, Callable[[], None], Callable[[], None]]] = {}
        self.tournaments: dict[TournamentKey, TournamentFollower] = {}

    def join(self, store: DelayedStreams, ruleset: Ruleset, game_id: StreamId, snapshots: Snapshots) -> Follower:
        """The game's follower (made for the first stream), counting one more stream."""
        known = self._followers.get(game_id)
        if known is None:
            follower = Follower(store, ruleset, game_id, snapshots, self.poll_seconds)
            known = (follower, self.hub.subscribe(game_id, follower.heard), self.hub.on_access(follower.wake_soon))
            self._followers[game_id] = known
        known[0].streams += 1
        return known[0]

    def leave(self, follower: Follower, stream: object) -> None:
        follower.left(stream)
        follower.streams -= 1
        if follower.streams == 0:
            _, unsubscribe, off_access = self._followers.pop(follower.game_id)
            unsubscribe()
            off_access()

    def join_tournament(self, key: TournamentKey, look: Look) -> TournamentFollower:
        """The tournament's follower for readers of `key` (made, with `look`, for the first screen),
        counting one more screen. A look depends on the records only (neither the reader's language nor
        the address the page was asked at), so every such screen shares it."""
        known = self.tournaments.get(key)
        if known is None:
            known = self.tournaments[key] = TournamentFollower(self.hub, key, look, self.poll_seconds)
        known.screens += 1
        return known

    def leave_tournament(self, follower: TournamentFollower) -> None:
        follower.screens -= 1
        if follower.screens == 0:
            if self.tournaments.get(follower.key) is follower:
                del self.tournaments[follower.key]
            follower.stop()
