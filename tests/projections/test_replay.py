"""Replays: steps, voids, chapters, the state at every step, snapshots and the diff of two views."""

from __future__ import annotations

import dataclasses

import msgspec
import pytest

from domain.record import Correction, GameStarted, fold
from domain.ruleset import Viewer
from projections.diff import Change, diff
from projections.errors import ProjectionError
from projections.replay import (
    Snapshot,
    StepView,
    decode_snapshot,
    encode_snapshot,
    replay,
    restore,
    seek,
    snapshot,
    snapshots_for,
    view_at,
)
from testkit.tally import RULESET, Noted, Rolled
from tests.projections import hands
from tests.projections.games import random_hands_game, random_tally_game, tally_setup

STARTED = GameStarted(ruleset="tally", ruleset_version="1.0.0", setup=tally_setup(2, target=10))
SEEDS = range(12)
VIEWERS = (Viewer.public(), Viewer.full(), Viewer.of_seat(0), Viewer.of_seat(1))


def _views(state: object) -> list[object]:
    return [RULESET.view(state, viewer) for viewer in VIEWERS]


def test_generated_games_contain_corrections_and_voided_events():
    # Guards the generator the other tests rely on: without corrections they would prove little.
    steps = [step for seed in SEEDS for step in replay(RULESET, random_tally_game(seed), Viewer.public()).steps]
    assert any(step.type == "tablelog.correction" for step in steps)
    assert any(step.voided for step in steps)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_state_at_every_step_is_the_plain_fold_of_the_first_n_events_in_every_view(seed):
    events = random_tally_game(seed)
    snapshots = snapshots_for(RULESET, events, every=5)
    for step in range(1, len(events) + 1):
        expected = fold(RULESET, events[:step]).state
        for viewer in VIEWERS:
            seen = view_at(RULESET, events, step, viewer, snapshots)
            assert seen.view == RULESET.view(expected, viewer)
        assert seek(RULESET, events, step, snapshots).state == expected
        assert seek(RULESET, events, step).state == expected


@pytest.mark.parametrize("seed", SEEDS)
def test_seeking_with_snapshots_equals_seeking_without_including_the_events_in_effect(seed):
    events = random_tally_game(seed, length=90)
    snapshots = snapshots_for(RULESET, events, every=4)
    for step in range(1, len(events) + 1):
        with_snapshots = seek(RULESET, events, step, snapshots)
        without = seek(RULESET, events, step)
        assert with_snapshots.state == without.state
        assert with_snapshots.version == without.version == step
        # What a later correction needs must survive the snapshot too.
        assert with_snapshots.effective_events() == without.effective_events()


def test_a_correction_after_a_snapshot_refolds_the_events_in_effect_from_the_snapshot():
    # G-3: the snapshot at step 4 holds the rolls of steps 2-4; the correction voids two of them.
    events = [
        STARTED,
        Rolled(seat=0, face=3),
        Rolled(seat=1, face=5),
        Rolled(seat=0, face=2),
        Rolled(seat=1, face=1),
        Correction(voids=2),
    ]
    snap = snapshot(seek(RULESET, events, 4))
    folded = seek(RULESET, events, 6, [snap])
    assert folded.state.scores == (3, 5)
    assert [v for v, _ in folded.effective_events()] == [2, 3]


def test_a_snapshot_survives_its_bytes():
    events = random_tally_game(4)
    snap = snapshots_for(RULESET, events, every=10)[-1]
    back = decode_snapshot(encode_snapshot(snap))
    assert back == snap
    restored = restore(RULESET, back, events)
    assert restored is not None
    assert restored.state == fold(RULESET, events[: snap.version]).state


def test_a_snapshot_made_under_another_ruleset_version_is_ignored():
    events = [STARTED, Rolled(seat=0, face=3), Rolled(seat=1, face=5), Rolled(seat=0, face=2)]
    newer = dataclasses.replace(RULESET, version="2.0.0")
    made_under_v2 = snapshot(seek(newer, events, 3))
    # Forge a different state under v2 so using it would show: the v1 seek must ignore it.
    forged = msgspec.structs.replace(
        made_under_v2,
        state=msgspec.msgpack.encode(msgspec.structs.replace(fold(RULESET, events[:3]).state, scores=(6, 6))),
    )
    assert restore(RULESET, forged, events) is None
    assert seek(RULESET, events, 4, [forged]).state.scores == (5, 5)
    assert restore(newer, forged, events) is not None
    assert seek(newer, events, 4, [forged]).state.scores == (8, 6)


def test_a_snapshot_of_another_game_is_ignored():
    events = [STARTED, Rolled(seat=0, face=3), Rolled(seat=1, face=5)]
    other_setup = tally_setup(3, target=10)
    other = [
        GameStarted(ruleset="tally", ruleset_version="1.0.0", setup=other_setup),
        Rolled(seat=0, face=6),
        Rolled(seat=1, face=6),
    ]
    assert seek(RULESET, events, 3, [snapshot(seek(RULESET, other, 2))]).state.scores == (3, 5)
    # Same table, other rolls: still another game.
    same_table = [STARTED, Rolled(seat=0, face=6), Rolled(seat=1, face=6)]
    assert seek(RULESET, events, 3, [snapshot(seek(RULESET, same_table, 2))]).state.scores == (3, 5)


def test_a_snapshot_that_no_longer_decodes_is_ignored():
    events = [STARTED, Rolled(seat=0, face=3), Rolled(seat=1, face=5)]
    good = snapshot(seek(RULESET, events, 2))
    broken = msgspec.structs.replace(good, state=b"\xc1")
    assert restore(RULESET, broken, events) is None
    assert seek(RULESET, events, 3, [broken]).state.scores == (3, 5)


def test_snapshots_are_taken_every_k_events():
    events = [STARTED, *(Noted(seat=0, text=f"note {n}") for n in range(59))]
    assert [s.version for s in snapshots_for(RULESET, events, every=25)] == [25, 50]
    assert all(isinstance(s, Snapshot) for s in snapshots_for(RULESET, events))
    with pytest.raises(ProjectionError) as error:
        snapshots_for(RULESET, events, every=0)
    assert error.value.code == "bad_snapshot_interval"


def test_a_replay_marks_voided_events_and_narrates_the_correction():
    events = [
        STARTED,
        Rolled(seat=0, face=3),
        Noted(seat=1, text="coffee"),
        Rolled(seat=1, face=5),
        Correction(voids=2, reason="wrong die"),
        Rolled(seat=1, face=4),
    ]
    steps = replay(RULESET, events, Viewer.public()).steps
    assert [s.voided for s in steps] == [False, False, True, True, False, False]
    assert steps[2].voided_by == steps[3].voided_by == 5
    # Voided events show as what they were.
    assert steps[3].text == "Seat 1 rolls a 5"
    assert steps[4].text == "Correction: voids the last 2 events (wrong die)."
    assert steps[4].seat is None
    assert steps[0].text == "A game of Tally (test ruleset) starts with Alain and Bea."
    assert [s.version for s in steps] == [1, 2, 3, 4, 5, 6]
    assert [s.type for s in steps][-2:] == ["tablelog.correction", "tally.rolled"]
    assert steps[1].seat == 0


def test_a_correction_of_one_event_says_so_without_a_reason():
    events = [STARTED, Rolled(seat=0, face=3), Correction(voids=1)]
    assert replay(RULESET, events, Viewer.public()).steps[-1].text == "Correction: voids the last event."


def test_every_step_is_narrated_from_the_states_around_it():
    for seed in SEEDS:
        events = random_tally_game(seed)
        steps = replay(RULESET, events, Viewer.public()).steps
        for step in steps[1:]:
            event = events[step.version - 1]
            if isinstance(event, Correction):
                continue
            before = fold(RULESET, events[: step.version - 1]).state
            after = fold(RULESET, events[: step.version]).state
            told = RULESET.narrate(before, event, after, Viewer.public())
            assert (step.text, step.seat, step.chapters) == (told.text, told.seat, told.chapters)


def test_the_chapter_index_gives_the_first_step_of_each_chapter():
    events = [
        STARTED,
        Rolled(seat=0, face=3),
        Noted(seat=1, text="coffee"),
        Rolled(seat=1, face=5),
        Correction(voids=1),
        Rolled(seat=1, face=4),
    ]
    index = {mark.chapters: mark.version for mark in replay(RULESET, events, Viewer.public()).chapters}
    # Turn 2 starts with the note; the correction (step 5) and the new roll stay in turn 2.
    assert index == {(("turn", 1),): 2, (("turn", 2),): 3}


def test_asking_for_a_step_outside_the_game_is_refused():
    events = [STARTED, Rolled(seat=0, face=3)]
    for step in (0, 3):
        with pytest.raises(ProjectionError) as error:
            view_at(RULESET, events, step, Viewer.public())
        assert error.value.code == "no_such_step"


def test_the_first_step_shows_its_whole_view_as_added():
    events = [STARTED, Rolled(seat=0, face=3)]
    first = view_at(RULESET, events, 1, Viewer.public())
    assert first.changes == (Change(path=(), op="added", new=msgspec.to_builtins(first.view)),)


def test_the_diff_of_two_steps_names_the_changed_paths_with_old_and_new_values():
    events = [STARTED, Rolled(seat=0, face=3), Rolled(seat=1, face=5)]
    step = view_at(RULESET, events, 3, Viewer.full())
    assert step.changes == (
        Change(path=("scores", 1), op="changed", old=0, new=5),
        Change(path=("to_play",), op="changed", old=1, new=0),
        Change(path=("turn",), op="changed", old=2, new=3),
    )


def test_the_diff_of_two_json_values_lists_added_removed_and_changed_paths():
    old = {"a": 1, "b": [1, 2, 3], "c": {"d": True}, "gone": "x"}
    new = {"a": 1, "b": [1, 5], "c": {"d": 1, "e": None}, "new": [1]}
    assert diff(old, new) == (
        Change(path=("b", 1), op="changed", old=2, new=5),
        Change(path=("b", 2), op="removed", old=3),
        # A boolean that becomes a number is a change, though True == 1 in Python.
        Change(path=("c", "d"), op="changed", old=True, new=1),
        Change(path=("c", "e"), op="added", new=None),
        Change(path=("gone",), op="removed", old="x"),
        Change(path=("new",), op="added", new=[1]),
    )
    assert diff(old, old) == ()
    assert diff([1], {"0": 1}) == (Change(path=(), op="changed", old=[1], new={"0": 1}),)


def test_the_diff_reads_structs_and_integer_keys_as_json_does():
    assert diff({1: (1, 2)}, {1: [1, 3]}) == (Change(path=("1", 1), op="changed", old=2, new=3),)
    assert diff(STARTED.setup, STARTED.setup) == ()


HAND_VIEWERS = (Viewer.public(), Viewer.full(), *(Viewer.of_seat(seat) for seat in range(4)))


@pytest.mark.parametrize("seed", range(6))
def test_with_hidden_cards_every_view_at_every_step_is_the_plain_fold_of_the_first_n_events(seed):
    # G-2: the seat views show their own hand, the public view only hand sizes.
    events = random_hands_game(seed, players=4, teams=seed % 2 == 1)
    snapshots = snapshots_for(hands.RULESET, events, every=7)
    differs = False
    for step in range(1, len(events) + 1):
        expected = fold(hands.RULESET, events[:step]).state
        public = hands.RULESET.view(expected, Viewer.public())
        for viewer in HAND_VIEWERS:
            seen = view_at(hands.RULESET, events, step, viewer, snapshots).view
            assert seen == hands.RULESET.view(expected, viewer)
            differs = differs or seen != public
    assert differs


def test_a_hidden_draw_shows_in_the_seats_view_and_only_as_a_size_in_public():
    events = [GameStarted(ruleset="hands", ruleset_version="1.0.0", setup=tally_setup(2)), hands.Drew(seat=0, card="a")]
    own = view_at(hands.RULESET, events, 2, Viewer.of_seat(0))
    assert own.changes == (
        Change(path=("hands", 0, "known", 0), op="added", new="a"),
        Change(path=("phase",), op="changed", old="draw", new="play"),
    )
    public = view_at(hands.RULESET, events, 2, Viewer.public())
    assert public.changes == (
        Change(path=("hands", 0, "size"), op="changed", old=0, new=1),
        Change(path=("phase",), op="changed", old="draw", new="play"),
    )


def test_nested_chapters_index_every_round_and_every_turn_of_it():
    events = random_hands_game(2, players=3)
    replayed = replay(hands.RULESET, events, Viewer.public())
    index = {mark.chapters: mark.version for mark in replayed.chapters}
    assert index[(("round", 1),)] == 2
    second = index[(("round", 2),)]
    assert index[(("round", 2), ("turn", 1))] == second
    assert replayed.steps[second - 1].chapters == (("round", 2), ("turn", 1))
    # Each chapter's first step really is the first step carrying it.
    for mark in replayed.chapters:
        first = next(s for s in replayed.steps if s.chapters[: len(mark.chapters)] == mark.chapters)
        assert first.version == mark.version


def test_a_team_game_starts_with_its_sides_named():
    events = random_hands_game(1, players=4, teams=True)
    assert replay(hands.RULESET, events, Viewer.public()).steps[0].text == (
        "A game of Hands starts: Alain and Carla (team 0) against Bea and Dan (team 1)."
    )


def test_a_replay_and_a_step_view_survive_json():
    events = random_hands_game(3, players=4, teams=True)
    replayed = replay(hands.RULESET, events, Viewer.public())
    assert msgspec.json.decode(msgspec.json.encode(replayed), type=type(replayed)) == replayed
    step = view_at(hands.RULESET, events, 9, Viewer.of_seat(2))
    back = msgspec.json.decode(msgspec.json.encode(step), type=StepView)
    assert (back.version, back.viewer, back.changes) == (9, Viewer.of_seat(2), step.changes)
    assert back.changes
