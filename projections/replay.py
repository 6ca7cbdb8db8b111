"""Replays: a game's record told step by step, and the state at any step in any view.

Steps are numbered by stream version: step N is the N-th event of the stream (step 1 is the
`GameStarted`), and the state at step N is exactly the plain fold of the first N events
(`domain.record.fold`). Events a later `Correction` voided (G-3) stay in the replay as what they
were, marked with the correction that voided them; the correction is a step of its own.

Seeking uses snapshots taken every K events, so jumping to a step folds at most K events after the
nearest snapshot instead of the whole stream. A snapshot carries what `domain.record.Folded` needs to
go on (the set-up, the encoded state and the game events still in effect, which a later correction
refolds from the start); it is ignored when it was made under another ruleset version.

A replay is told for one viewer, as a view is drawn for one: the narration comes from the ruleset's
`narrate` with that viewer, so the public's steps say "draws a card" where the full record names it.

Everything here works for any game through the `Ruleset` contract alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from domain.i18n import Message, english
from domain.record import Correction, Folded, GameStarted, ResultReported, effective_events_of, event_tag, start
from domain.ruleset import Player, Ruleset, Setup, Viewer
from projections.contract import as_points
from projections.diff import Change, diff
from projections.errors import ProjectionError
from projections.words import Teller, _, listed

Chapters = tuple[tuple[str, int], ...]


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One event of the record as a replay shows it.

    `version` is the stream version (the step number), `type` the event's tag, `text` its one-line
    narration, `seat` the seat that acted (None for the table), `chapters` where it belongs
    (outermost first). `voided_by` is the version of the correction that later voided it."""

    version: int
    type: str
    text: str
    seat: int | None = None
    chapters: Chapters = ()
    voided: bool = False
    voided_by: int | None = None


class ChapterMark(msgspec.Struct, frozen=True, kw_only=True):
    """The first step of a chapter path: a viewer jumps to round 2 with `(("round", 2),)` and to its
    seventh turn with `(("round", 2), ("turn", 7))`. Every prefix of a step's chapters is a path."""

    chapters: Chapters
    version: int


class Replay(msgspec.Struct, frozen=True, kw_only=True):
    """A whole game as a list of steps, with the chapter index (in order of first appearance)."""

    ruleset: str
    ruleset_version: str
    players: tuple[Player, ...]
    steps: tuple[Step, ...]
    chapters: tuple[ChapterMark, ...]


class StepView(msgspec.Struct, frozen=True, kw_only=True):
    """The state after step `version` as one viewer sees it, and what changed from the step before
    (for step 1 the whole view is added at the root). `said` is what changed in the game's own words,
    told in the reader's language (none for step 1); None for a game that tells no such lines."""

    version: int
    viewer: Viewer
    view: Any
    changes: tuple[Change, ...]
    said: tuple[str, ...] | None = None


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A fold saved after step `version`: with the stream's events, enough to go on without folding
    the events before it.

    `state` is the MessagePack encoding of the ruleset's state (decoded with `ruleset.state_type`);
    `in_effect` counts the game events then in effect (a later correction loads them from the stream
    and refolds); `last_event` is the MessagePack encoding of the event at `version`, so a snapshot is
    used only with the stream it was made from. Restoring costs the same at any length of game. Store
    it with `encode_snapshot`; `restore` ignores it unless its ruleset name and version match."""

    version: int
    ruleset: str
    ruleset_version: str
    setup: Setup
    state: bytes
    in_effect: int
    last_event: bytes


def replay(ruleset: Ruleset, events: Sequence[Any], viewer: Viewer, *, words: Teller = english) -> Replay:
    """Narrate a whole stream (its `GameStarted` first) in one fold, each line told as `viewer` may know
    it (G-2: the public's replay never names a card the public has not seen) and in the reader's language
    (`words`: English by default)."""
    started = _started(ruleset, events)
    folded, first = opening(ruleset, events, words=words)
    steps = [first]
    for version, event in enumerate(events[1:], start=2):
        folded, _voided = tell(ruleset, folded, event, version, steps, viewer, words=words)
    return Replay(
        ruleset=started.ruleset,
        ruleset_version=started.ruleset_version,
        players=started.setup.players,
        steps=tuple(steps),
        chapters=chapter_index(steps),
    )


def opening(ruleset: Ruleset, events: Sequence[Any], *, words: Teller = english) -> tuple[Folded, Step]:
    """The fold after a stream's `GameStarted`, and its step 1 (told with `words`)."""
    started = _started(ruleset, events)
    return start(ruleset, started), Step(
        version=1, type=event_tag(started), text=words(start_line(ruleset, started.setup))
    )


def tell(
    ruleset: Ruleset,
    folded: Folded,
    event: Any,
    version: int,
    steps: list[Step],
    viewer: Viewer,
    *,
    words: Teller = english,
) -> tuple[Folded, list[int]]:
    """Narrate event `version` as `viewer` may know it (G-2); it follows `folded` and `steps` (the steps so
    far): its step is added to `steps`, and the steps a correction voids are marked in place. Returns the
    fold after it and the versions it voided. A step's narration depends only on the stream up to it, so a
    live stream tells each new step once, with this, as it comes. `words` says it in the reader's language
    (a game's line that is not a message yet stays English)."""
    if isinstance(event, Correction):
        in_effect = {v for v, _event in folded.effective_events()}
        after = folded.apply(event, version)
        still = {v for v, _event in after.effective_events()}
        voided = sorted(in_effect - still)
        for old in voided:
            steps[old - 1] = msgspec.structs.replace(steps[old - 1], voided=True, voided_by=version)
        # A correction happens where the table was: it keeps the previous step's chapters.
        steps.append(
            Step(
                version=version,
                type=event_tag(event),
                text=words(correction_line(event)),
                chapters=steps[-1].chapters,
            )
        )
        return after, voided
    after = folded.apply(event, version)
    if isinstance(event, ResultReported):
        steps.append(
            Step(version=version, type=event_tag(event), text=words(reported_line(after)), chapters=steps[-1].chapters)
        )
        return after, []
    told = ruleset.narrate(folded.state, event, after.state, viewer)
    # Normalised, so a ruleset that builds its chapters as lists still indexes alike.
    chapters = tuple((str(kind), int(number)) for kind, number in told.chapters)
    steps.append(
        Step(version=version, type=event_tag(event), text=told.in_words(words), seat=told.seat, chapters=chapters)
    )
    return after, []


def chapter_index(steps: Sequence[Step]) -> tuple[ChapterMark, ...]:
    """Each distinct chapter path (every prefix of every step's chapters) with its first step."""
    first: dict[Chapters, int] = {}
    for step in steps:
        for depth in range(1, len(step.chapters) + 1):
            first.setdefault(step.chapters[:depth], step.version)
    return tuple(ChapterMark(chapters=path, version=version) for path, version in first.items())


def seek(ruleset: Ruleset, events: Sequence[Any], step: int, snapshots: Sequence[Snapshot] = ()) -> Folded:
    """The fold of the first `step` events, starting from the latest usable snapshot at or before
    `step` (made under this ruleset's name and version, for this game's set-up) rather than from
    the start."""
    _check_step(events, step)
    started = _started(ruleset, events)
    folded: Folded | None = None
    usable = [s for s in snapshots if s.version <= step and _same_rules(ruleset, s)]
    for snap in sorted(usable, key=lambda s: s.version, reverse=True):
        if _belongs(snap, started, events):
            folded = restore(ruleset, snap, events)
            if folded is not None:
                break
    if folded is None:
        folded = start(ruleset, started)
    for version in range(folded.version + 1, step + 1):
        folded = folded.apply(events[version - 1], version)
    return folded


def view_at(
    ruleset: Ruleset,
    events: Sequence[Any],
    step: int,
    viewer: Viewer,
    snapshots: Sequence[Snapshot] = (),
    *,
    words: Teller = english,
) -> StepView:
    """What `viewer` sees after step `step`, the structural diff from the step before, and what changed
    in the game's words (`said`, told with `words`)."""
    _check_step(events, step)
    if step == 1:
        return _first_view(ruleset, viewer, ruleset.view(seek(ruleset, events, 1, snapshots).state, viewer))
    before = seek(ruleset, events, step - 1, snapshots)
    after = before.apply(events[step - 1], step)
    old = ruleset.view(before.state, viewer)
    new = ruleset.view(after.state, viewer)
    said = what_changed(ruleset, before.state, after.state, viewer, words=words)
    return StepView(version=step, viewer=viewer, view=new, changes=diff(old, new), said=said)


def step_views(
    ruleset: Ruleset, events: Sequence[Any], viewer: Viewer, *, words: Teller = english
) -> Iterator[tuple[StepView, Folded]]:
    """Every step's `view_at` in one fold (a whole game drawn step after step, as a report is), each with
    the fold after it."""
    folded = start(ruleset, _started(ruleset, events))
    old = ruleset.view(folded.state, viewer)
    yield _first_view(ruleset, viewer, old), folded
    for version in range(2, len(events) + 1):
        after = folded.apply(events[version - 1], version)
        new = ruleset.view(after.state, viewer)
        said = what_changed(ruleset, folded.state, after.state, viewer, words=words)
        yield StepView(version=version, viewer=viewer, view=new, changes=diff(old, new), said=said), after
        folded, old = after, new


def _first_view(ruleset: Ruleset, viewer: Viewer, view: Any) -> StepView:
    """Step 1's view: the whole of it added at the root."""
    return StepView(
        version=1,
        viewer=viewer,
        view=view,
        changes=(Change(path=(), op="added", new=msgspec.to_builtins(view, str_keys=True)),),
        said=None if ruleset.what_changed is None else (),
    )


def what_changed(
    ruleset: Ruleset, before: Any, after: Any, viewer: Viewer, *, words: Teller = english
) -> tuple[str, ...] | None:
    """What one step changed, from state `before` to state `after`, in the game's own words as `viewer`
    may know it (G-2), told with `words`; None when the game tells no such lines."""
    if ruleset.what_changed is None:
        return None
    return tuple(words(line) for line in ruleset.what_changed(before, after, viewer))


def snapshot(folded: Folded) -> Snapshot:
    """Save a fold. Raises ProjectionError if the game's state does not come back equal from its
    encoding (a ruleset whose `state_type` cannot hold its state must be fixed, not half-replayed)."""
    ruleset = folded.ruleset
    if folded.result_only:
        # Its result is the report's, which a snapshot of the state would not keep: it replays from the
        # start (its stream is a few events).
        raise ProjectionError("result_only", _("A result-only game is not snapshotted."), version=folded.version)
    state = msgspec.msgpack.encode(folded.state)
    if _decode_state(ruleset, state) != folded.state:
        raise ProjectionError(
            "state_does_not_round_trip",
            _(
                "The {ruleset} state does not decode back to itself, so it cannot be snapshotted.",
                ruleset=ruleset.name,
            ),
            ruleset=ruleset.name,
            version=folded.version,
        )
    return Snapshot(
        version=folded.version,
        ruleset=ruleset.name,
        ruleset_version=ruleset.version,
        setup=folded.setup,
        state=state,
        in_effect=folded.effective_count,
        last_event=_last_event(folded),
    )


def restore(ruleset: Ruleset, snap: Snapshot, events: Sequence[Any]) -> Folded | None:
    """The fold a snapshot saved, for the stream `events` it was made from, or None when it was made
    under other rules (another ruleset or version) or no longer decodes: the caller then folds from
    the start and may snapshot again."""
    if not _same_rules(ruleset, snap):
        return None
    try:
        state = _decode_state(ruleset, snap.state)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    prefix = events[: snap.version]
    return Folded.resume_lazily(
        ruleset, snap.setup, state, snap.version, snap.in_effect, lambda: effective_events_of(prefix)
    )


def snapshots_for(ruleset: Ruleset, events: Sequence[Any], every: int = 100) -> tuple[Snapshot, ...]:
    """Snapshots after steps `every`, `2 * every`, ... of a stream, in one fold."""
    if every < 1:
        raise ProjectionError("bad_snapshot_interval", _("Snapshots are taken every one event or more."), every=every)
    folded = start(ruleset, _started(ruleset, events))
    out: list[Snapshot] = []
    for version in range(1, len(events) + 1):
        if version > 1:
            folded = folded.apply(events[version - 1], version)
        if version % every == 0:
            out.append(snapshot(folded))
    return tuple(out)


def encode_snapshot(snap: Snapshot) -> bytes:
    """A snapshot as bytes to store (MessagePack)."""
    return msgspec.msgpack.encode(snap)


def decode_snapshot(data: bytes) -> Snapshot:
    """A stored snapshot back from its bytes."""
    return msgspec.msgpack.decode(data, type=Snapshot)


def _decode_state(ruleset: Ruleset, data: bytes) -> Any:
    return msgspec.msgpack.decode(data, type=ruleset.state_type)


def _last_event(folded: Folded) -> bytes:
    return msgspec.msgpack.encode([folded.version, folded.latest_event])


def _belongs(snap: Snapshot, started: GameStarted, events: Sequence[Any]) -> bool:
    # Snapshots are stored per game; this guards against one of another game all the same, cheaply:
    # the set-up and the event the snapshot ends on must be this stream's.
    if snap.setup != started.setup or snap.version > len(events):
        return False
    event = events[snap.version - 1]
    last = None if isinstance(event, (GameStarted, Correction)) else event
    return snap.last_event == msgspec.msgpack.encode([snap.version, last])


def _same_rules(ruleset: Ruleset, snap: Snapshot) -> bool:
    return snap.ruleset == ruleset.name and snap.ruleset_version == ruleset.version


def _started(ruleset: Ruleset, events: Sequence[Any]) -> GameStarted:
    if not events or not isinstance(events[0], GameStarted):
        raise ProjectionError("missing_start", _("A game's record must start with its set-up."))
    return events[0]


def _check_step(events: Sequence[Any], step: int) -> None:
    if not 1 <= step <= len(events):
        raise no_such_step(step, len(events))


def no_such_step(step: int, steps: int) -> ProjectionError:
    """The refusal of a step a game does not have (the API answers it as a 404)."""
    return ProjectionError("no_such_step", _("This game has steps 1 to {steps}.", steps=steps), step=step, steps=steps)


def start_line(ruleset: Ruleset, setup: Setup) -> Message:
    """Step 1's line: the game and who plays it (by team, where it is played by teams)."""
    players = sorted(setup.players, key=lambda p: p.seat)
    if any(p.team is not None for p in players):
        teams: dict[int | None, list[str]] = {}
        for player in players:
            teams.setdefault(player.team, []).append(player.name)
        sides = [
            _("{players} (team {team})", players=listed(names), team=team) if team is not None else listed(names)
            for team, names in teams.items()
        ]
        against = sides[0]
        for side in sides[1:]:
            against = _("{side} against {other}", side=against, other=side)
        return _("A game of {game} starts: {sides}.", game=ruleset.title, sides=against)
    return _("A game of {game} starts with {players}.", game=ruleset.title, players=listed([p.name for p in players]))


def correction_line(event: Correction) -> Message:
    """A correction's line: how many events it voids, and why where it says."""
    if event.reason:
        return _.ngettext(
            "Correction: voids the last event ({reason}).",
            "Correction: voids the last {count} events ({reason}).",
            event.voids,
            reason=event.reason,
        )
    return _.ngettext("Correction: voids the last event.", "Correction: voids the last {count} events.", event.voids)


def reported_line(folded: Folded) -> Message:
    """A reported result's line (G-6): each player's score and place, best first."""
    assert folded.reported is not None
    names = {p.seat: p.name for p in folded.setup.players}
    scale = folded.ruleset.score_scale
    ranked = sorted(folded.reported.players, key=lambda p: (p.placement or 0, p.seat))
    said = [
        _(
            "{name} {score} (place {place})",
            name=names.get(p.seat, str(p.seat + 1)),
            score=as_points(p.score, scale),
            place=p.placement or 0,
        )
        for p in ranked
    ]
    return _("Result reported, the game not recorded event by event: {players}.", players=listed(said))
