"""A game's record: the events every stream shares, and the fold that turns a stream into state.

Every stream starts with `GameStarted` (G-5: the ruleset, its version and the set-up). A scorekeeper's
mistake is never rewritten: a `Correction` voids the latest events still in effect (G-3), and the fold
skips them. Folding the same events always gives the same state.

A game played at the table but not recorded event by event is started `result_only`: its one further
event is `ResultReported`, checked by the ruleset (`Ruleset.reported_result`, G-6), and its result is
that one wherever a result is read (`Folded.result`); a correction voids it and another is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Union

import msgspec

from domain.i18n import Catalogue
from domain.ruleset import Event, ReportedResult, Result, RuleError, Ruleset, Setup, Viewer

_ = Catalogue("domain")


class GameStarted(Event, frozen=True, kw_only=True, tag="tablelog.game_started", omit_defaults=True):
    """The first event of every game's stream (G-5). `ruleset` names the game's rules and
    `ruleset_version` the version of its rules core the game is recorded under. `setup` is how the game
    starts: players, variant, options and resources. `result_only`: the game is recorded by its result
    alone (G-6; left out of the record when false, as every game recorded before it was)."""

    ruleset: str
    ruleset_version: str
    setup: Setup
    result_only: bool = False


class ResultReported(Event, frozen=True, kw_only=True, tag="tablelog.result_reported"):
    """The result of a game started `result_only` (G-6). `result` is the result as the table reports
    it."""

    result: ReportedResult


class Correction(Event, frozen=True, kw_only=True, tag="tablelog.correction"):
    """Voids the latest `voids` events still in effect (G-3). `reason` says why, for the replay.
    Corrections themselves are never voided: to take one back, report the voided events again."""

    voids: int
    reason: str = ""


class _Link(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A cons cell of the events in effect, newest first, so appending is O(1) and states share it."""

    version: int
    event: Event
    previous: _Link | None
    depth: int


class Folded:
    """A stream folded up to `version`: the set-up, the state, and the events still in effect.

    The events in effect are a chain of links, newest first, over an optional base: the events in
    effect when the fold was resumed from a snapshot, counted but loaded only if a later correction
    needs them (so resuming is O(1), whatever the game's length)."""

    __slots__ = ("_base", "_effective", "_finished", "reported", "result_only", "ruleset", "setup", "state", "version")

    def __init__(
        self,
        ruleset: Ruleset,
        setup: Setup,
        state: Any,
        version: int,
        effective: _Link | None,
        base: tuple[int, Callable[[], list[tuple[int, Any]]]] | None = None,
        *,
        result_only: bool = False,
        reported: Result | None = None,
    ):
        self.ruleset = ruleset
        self.setup = setup
        self.state = state
        self.version = version
        self._effective = effective
        self._base = base
        self.result_only = result_only
        self.reported = reported
        """The result reported and in effect, in a result-only game (G-6)."""
        self._finished: bool | None = None

    def result(self, viewer: Viewer) -> Result:
        """The game's result as `viewer` may know it: the one reported, in a result-only game (G-6)."""
        if self.reported is not None:
            return self.reported
        return self.ruleset.result(self.state, viewer)

    @property
    def finished(self) -> bool:
        """Whether the game is over, as the public result says (worked out once per fold: an append asks
        it of the fold before and after its batch, and the fold after is the next append's before)."""
        if self._finished is None:
            self._finished = self.result(Viewer.public()).finished
        return self._finished

    @classmethod
    def resume(
        cls, ruleset: Ruleset, setup: Setup, state: Any, version: int, effective: Iterable[tuple[int, Any]]
    ) -> Folded:
        """A fold saved earlier (a snapshot): its state, version and the events then in effect."""
        link: _Link | None = None
        for depth, (event_version, event) in enumerate(effective, start=1):
            link = _Link(event_version, event, link, depth)
        return cls(ruleset, setup, state, version, link)

    @classmethod
    def resume_lazily(
        cls,
        ruleset: Ruleset,
        setup: Setup,
        state: Any,
        version: int,
        in_effect: int,
        load: Callable[[], list[tuple[int, Any]]],
    ) -> Folded:
        """A fold saved earlier, whose `in_effect` events in effect are loaded by `load` only when a
        correction needs them (see `effective_events_of`)."""
        return cls(ruleset, setup, state, version, None, (in_effect, load))

    @property
    def effective_count(self) -> int:
        """How many game events are in effect (not voided)."""
        if self._effective is not None:
            return self._effective.depth
        return self._base[0] if self._base else 0

    @property
    def latest_event(self) -> Event | None:
        """The game event at `version` if it is in effect and at hand, else None (a correction, the
        set-up, or a fold just resumed from a snapshot)."""
        if self._effective is not None and self._effective.version == self.version:
            return self._effective.event
        return None

    def effective_events(self) -> list[tuple[int, Event]]:
        """The game events in effect, oldest first, with their stream versions."""
        out: list[tuple[int, Event]] = []
        link = self._effective
        while link is not None:
            out.append((link.version, link.event))
            link = link.previous
        out.reverse()
        if self._base:
            count, load = self._base
            base = load()
            assert len(base) == count, "the events loaded for a snapshot do not match it"
            out = base + out
        return out

    def check(self, event: Event) -> None:
        """Raise RuleError if `event` cannot be appended now."""
        if isinstance(event, GameStarted):
            raise RuleError("G-5", "already_started", _("This game has already started."))
        if isinstance(event, ResultReported):
            if not self.result_only:
                raise RuleError(
                    "G-6", "not_result_only", _("This game is recorded event by event: its result is not reported.")
                )
            if self.reported is not None:
                raise RuleError(
                    "G-6", "result_reported", _("This game's result is reported already: correct it to report another.")
                )
            self.reported_result(event)
            return
        if self.result_only and not isinstance(event, Correction):
            raise RuleError(
                "G-6", "result_only", _("This game is recorded by its result only: report its result, not its events.")
            )
        if isinstance(event, Correction):
            if event.voids < 1:
                raise RuleError("G-3", "empty_correction", _("A correction must void at least one event."))
            if event.voids > self.effective_count:
                raise RuleError(
                    "G-3",
                    "correction_too_long",
                    # English says "the 1 events" as it always has; a language may word the one event apart.
                    _.ngettext(
                        "A correction can void at most the {in_effect} events still in effect.",
                        "A correction can void at most the {in_effect} events still in effect.",
                        self.effective_count,
                        in_effect=self.effective_count,
                    ),
                    voids=event.voids,
                    in_effect=self.effective_count,
                )
            return
        self.ruleset.validate(self.state, event)

    def reported_result(self, event: ResultReported) -> Result:
        """The result a report stands for, as the ruleset checks it (RuleError G-6 when it cannot)."""
        if self.ruleset.reported_result is None:
            raise RuleError(
                "G-6", "no_reported_results", _("{game} takes no result-only game.", game=self.ruleset.title)
            )
        return self.ruleset.reported_result(self.setup, event.result)

    def apply(self, event: Event, version: int | None = None) -> Folded:
        """Apply an event already accepted (or read from the record) and return the new fold."""
        version = self.version + 1 if version is None else version
        if isinstance(event, Correction):
            kept = self.effective_events()[: self.effective_count - event.voids]
            state = self.ruleset.initial(self.setup)
            reported = None
            for _, still in kept:
                if isinstance(still, ResultReported):
                    reported = self.reported_result(still)
                else:
                    state = self.ruleset.evolve(state, still)
            folded = Folded.resume(self.ruleset, self.setup, state, version, kept)
            folded.result_only, folded.reported = self.result_only, reported
            return folded
        link = _Link(version, event, self._effective, self.effective_count + 1)
        if isinstance(event, ResultReported):
            return Folded(
                self.ruleset,
                self.setup,
                self.state,
                version,
                link,
                self._base,
                result_only=self.result_only,
                reported=self.reported_result(event),
            )
        state = self.ruleset.evolve(self.state, event)
        return Folded(self.ruleset, self.setup, state, version, link, self._base, result_only=self.result_only)

    def accept(self, event: Event) -> Folded:
        """Check then apply: the append path."""
        self.check(event)
        return self.apply(event)


def effective_events_of(events: Sequence[Any]) -> list[tuple[int, Any]]:
    """The game events of a stream (its set-up first) still in effect after all of it (G-3), with their
    versions, found from the corrections alone: nothing is folded."""
    kept: list[tuple[int, Any]] = []
    for version, event in enumerate(events, start=1):
        if isinstance(event, Correction):
            del kept[max(0, len(kept) - event.voids) :]
        elif not isinstance(event, GameStarted):
            kept.append((version, event))
    return kept


def start(ruleset: Ruleset, started: GameStarted, version: int = 1) -> Folded:
    """The fold after the stream's first event."""
    if started.ruleset != ruleset.name:
        raise RuleError(
            "G-5",
            "wrong_ruleset",
            _("This record is of {recorded}, not {ruleset}.", recorded=started.ruleset, ruleset=ruleset.name),
        )
    return Folded(
        ruleset, started.setup, ruleset.initial(started.setup), version, None, result_only=started.result_only
    )


def fold(ruleset: Ruleset, events: Iterable[Any]) -> Folded:
    """Fold a whole stream (its `GameStarted` first) with `evolve` alone."""
    iterator = iter(events)
    first = next(iterator, None)
    if not isinstance(first, GameStarted):
        raise RuleError("G-5", "missing_start", _("A game's record must start with its set-up."))
    folded = start(ruleset, first)
    for event in iterator:
        folded = folded.apply(event)
    return folded


_unions: dict[tuple[str, str, int], Any] = {}
_decoders: dict[tuple[str, str, int], msgspec.json.Decoder[Any]] = {}


def _key(ruleset: Ruleset) -> tuple[str, str, int]:
    return (ruleset.name, ruleset.version, id(ruleset))


def event_union(ruleset: Ruleset) -> Any:
    """Every event type a stream of `ruleset` may hold."""
    key = _key(ruleset)
    if key not in _unions:
        _unions[key] = Union[GameStarted, Correction, ResultReported, ruleset.event_type]  # noqa: UP007 (built at run time)
    return _unions[key]


def decoder(ruleset: Ruleset) -> msgspec.json.Decoder[Any]:
    """One JSON decoder per ruleset, built once."""
    key = _key(ruleset)
    if key not in _decoders:
        _decoders[key] = msgspec.json.Decoder(event_union(ruleset))
    return _decoders[key]


def event_tag(event: Event) -> str:
    """The stable type name of an event struct."""
    return str(type(event).__struct_config__.tag)


def schema_version(event: Event) -> int:
    """The schema version of an event's struct."""
    return int(getattr(type(event), "schema_version", 1))
