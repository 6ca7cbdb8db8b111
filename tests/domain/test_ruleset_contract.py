"""What every game served owes the rest of tablelog, checked on each game's recorded fixtures:
deterministic folds, states that survive a snapshot (encoded and decoded with `state_type`), views and
results that go over the wire, a narration line for every event, and integer scores."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

import domain
from domain.record import Correction, GameStarted, decoder, start
from domain.ruleset import Event, Narration, Viewer
from tests.support.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "tests" / "domain").glob("*/fixtures/*.jsonl"))


def load(path: Path) -> tuple[Any, list[Any]]:
    lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    ruleset = RULESETS.get(msgspec.json.decode(lines[0], type=GameStarted).ruleset)
    return ruleset, [decoder(ruleset).decode(line) for line in lines]


def test_every_built_in_game_has_recorded_fixtures() -> None:
    games = {p.parent.parent.name.replace("_", "") for p in FIXTURES}
    for ruleset in RULESETS:
        if ruleset.name != "tally":
            assert ruleset.name.replace("-", "") in games, f"{ruleset.name} has no recorded fixture"


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_recorded_game_meets_the_ruleset_contract(path: Path) -> None:
    ruleset, events = load(path)
    folded = start(ruleset, events[0])
    seats = [p.seat for p in events[0].setup.players]
    viewers = [Viewer.public(), Viewer.full(), *(Viewer.of_seat(s) for s in seats)]
    for event in events[1:]:
        before = folded.state
        folded = folded.apply(event)
        encoded = msgspec.msgpack.encode(folded.state)
        assert msgspec.msgpack.decode(encoded, type=ruleset.state_type) == folded.state
        if not isinstance(event, Correction):
            line = ruleset.narrate(before, event, folded.state, Viewer.full())
            assert isinstance(line, Narration) and line.text.strip()
        for viewer in viewers:
            msgspec.json.encode(ruleset.view(folded.state, viewer))
        result = ruleset.result(folded.state, Viewer.public())
        assert all(isinstance(p.score, int) for p in result.players)
        assert all(isinstance(v, int) for p in result.players for v in p.breakdown.values())
    assert ruleset.result(folded.state, Viewer.public()).finished
    again = start(ruleset, events[0])
    for event in events[1:]:
        again = again.apply(event)
    assert again.state == folded.state


def _event_classes() -> list[type]:
    """Every event struct the project defines: the record's own and each game package's, found as
    subclasses of `Event` (so a struct left out of its game's union is checked too)."""
    for module in pkgutil.walk_packages(domain.__path__, "domain."):
        importlib.import_module(module.name)
    found: list[type] = []
    pending: list[type] = [Event]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith("domain."):
                found.append(sub)
    return sorted(found, key=lambda t: str(t.__struct_config__.tag))


EVENT_CLASSES = _event_classes()


def test_the_event_classes_found_are_those_of_the_record_and_every_game() -> None:
    assert {GameStarted, Correction} <= set(EVENT_CLASSES)
    for ruleset in RULESETS:
        if ruleset.name in ("tally", "hands"):
            continue
        union = set(getattr(ruleset.event_type, "__args__", (ruleset.event_type,)))
        package = ruleset.state_type.__module__.rpartition(".")[0] + "."
        defined = {t for t in EVENT_CLASSES if t.__module__.startswith(package)}
        assert union and defined == union, f"{ruleset.name}: event structs outside its union, or the reverse"


@pytest.mark.parametrize("event_type", EVENT_CLASSES, ids=lambda t: t.__struct_config__.tag)
def test_every_event_is_built_by_field_names_only(event_type: type) -> None:
    # msgspec's kw_only does not pass to subclasses: a struct that forgets it takes positional arguments,
    # and a field added before another would then shift what old callers meant.
    fields = msgspec.structs.fields(event_type)
    if not fields:
        return  # nothing to pass by position
    with pytest.raises(TypeError, match="positional"):
        event_type(*[None] * len(fields))


TAG = re.compile(r"(?P<namespace>[a-z][a-z0-9_]*)\.[a-z][a-z0-9_]*")


@pytest.mark.parametrize("event_type", EVENT_CLASSES, ids=lambda t: t.__name__)
def test_every_event_tag_is_namespaced_by_its_game_package(event_type: type) -> None:
    # Stored events are decoded by tag alone: a tag is `<package>.<event>` (`tablelog.` for the record's
    # own), so two games can never claim the same tag and a tag says whose event it is.
    tag = event_type.__struct_config__.tag
    assert isinstance(tag, str), f"{event_type.__name__} has no explicit tag"
    match = TAG.fullmatch(tag)
    assert match, f"{tag!r} is not <namespace>.<snake_case_name>"
    parts = event_type.__module__.split(".")
    expected = "tablelog" if event_type.__module__ == "domain.record" else parts[1]
    assert match["namespace"] == expected, f"{tag!r} is defined in {event_type.__module__}"


def test_no_two_events_share_a_tag() -> None:
    tags = [t.__struct_config__.tag for t in EVENT_CLASSES]
    assert len(tags) == len(set(tags))
