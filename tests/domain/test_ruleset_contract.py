"""What every registered game owes the rest of tablelog, checked on each game's recorded fixtures:
deterministic folds, states that survive a snapshot (encoded and decoded with `state_type`), views and
results that go over the wire, a narration line for every event, and integer scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain import registry
from domain.record import Correction, GameStarted, decoder, start
from domain.ruleset import Narration, Viewer

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "tests" / "domain").glob("*/fixtures/*.jsonl"))


def load(path: Path) -> tuple[Any, list[Any]]:
    lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    ruleset = registry.get(msgspec.json.decode(lines[0], type=GameStarted).ruleset)
    return ruleset, [decoder(ruleset).decode(line) for line in lines]


def test_every_built_in_game_has_recorded_fixtures() -> None:
    games = {p.parent.parent.name.replace("_", "") for p in FIXTURES}
    for ruleset in registry.all_rulesets():
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
    found: list[type] = [GameStarted, Correction]
    for ruleset in registry.all_rulesets():
        found += list(getattr(ruleset.event_type, "__args__", (ruleset.event_type,)))
    return found


@pytest.mark.parametrize("event_type", _event_classes(), ids=lambda t: t.__struct_config__.tag)
def test_every_event_is_built_by_field_names_only(event_type: type) -> None:
    # msgspec's kw_only does not pass to subclasses: a struct that forgets it takes positional arguments,
    # and a field added before another would then shift what old callers meant.
    fields = msgspec.structs.fields(event_type)
    if not fields:
        return
    with pytest.raises(TypeError, match="positional"):
        event_type(*[None] * len(fields))
