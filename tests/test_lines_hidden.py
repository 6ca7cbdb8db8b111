""" "What if" lines keep hidden information hidden (G-2), as a property, with the hidden-information swaps of
`tests/test_hidden_information.py`: a line opened from the public view (or from a seat that holds neither
swapped card) of two records that differ only in hidden cards starts from the very same state, so its
rules offer and accept the same events, its look-ahead, narration and picture are the same; and it starts
from what that viewer saw: its view is the record's view at that step."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.record import start
from domain.ruleset import RuleError, Ruleset, Viewer
from projections.lines import as_known
from service.pages.recording import look_ahead
from tests.support.rulesets import RULESETS
from tests.test_hidden_information import (
    FIXTURES,
    GAMES,
    SECRETS,
    Mention,
    _fixture,
    _named_in_the_open,
    alternative,
)

SAMPLES = 4
"""Steps of each swapped record a line is opened from (the first, the last comparable, some between)."""


def comparable(ruleset: Ruleset, truth: list[Any], alt: list[Any], a: Mention, b: Mention) -> int:
    """How many steps the two records are alike to a viewer who holds neither swapped card: until an event
    names one in the open, a step shows one, or the alternative stops being a legal record."""
    secrets = SECRETS[ruleset.name]
    cards = frozenset({a.card, b.card})
    told, other = start(ruleset, truth[0]), start(ruleset, alt[0])
    for step in range(1, len(truth)):
        event, swapped = truth[step], alt[step]
        if _named_in_the_open(secrets, event, cards) or _named_in_the_open(secrets, swapped, cards):
            return step
        try:
            other_after = other.accept(swapped)
        except RuleError:
            return step
        told_after = told.apply(event)
        if secrets.shows(told.state, event, told_after.state, cards) or secrets.shows(
            other.state, swapped, other_after.state, cards
        ):
            return step
        told, other = told_after, other_after
    return len(truth)


def watchers(ruleset: Ruleset, truth: list[Any], a: Mention, b: Mention) -> list[Viewer]:
    """The public, and each seat that sees neither swapped card."""
    secrets = SECRETS[ruleset.name]
    state = start(ruleset, truth[0]).state
    hidden = secrets.partners(state, a.seat) | secrets.partners(state, b.seat)
    seats = range(len(truth[0].setup.players))
    return [Viewer.public(), *(Viewer.of_seat(seat) for seat in seats if seat not in hidden)]


def lines_alike(ruleset: Ruleset, truth: list[Any], rng: random.Random, times: int) -> int:
    """Swap hidden cards `times` times; assert lines from sampled steps alike; return how many were compared."""
    compared = 0
    names = {p.seat: p.name for p in truth[0].setup.players}
    for _ in range(times):
        made = alternative(SECRETS[ruleset.name], truth, rng)
        if made is None:
            continue
        alt, a, b = made
        last = comparable(ruleset, truth, alt, a, b)
        steps = sorted({1, last, *rng.sample(range(1, last + 1), min(SAMPLES - 2, last))})
        for viewer in watchers(ruleset, truth, a, b):
            for step in steps:
                one, two = as_known(ruleset, truth, step, viewer), as_known(ruleset, alt, step, viewer)
                assert msgspec.msgpack.encode(one.state) == msgspec.msgpack.encode(two.state), (step, viewer, a, b)
                # What the line starts from is what the viewer saw of the record at that step.
                truly = as_known(ruleset, truth, step, Viewer.full())
                assert ruleset.view(one.state, viewer) == ruleset.view(truly.state, viewer), (step, viewer)
                compared += 1
            if viewer.kind == "public":  # the recorder's choices a public line offers there: the same
                assert msgspec.json.encode(
                    look_ahead(ruleset, names, as_known(ruleset, truth, last, viewer).state)
                ) == msgspec.json.encode(look_ahead(ruleset, names, as_known(ruleset, alt, last, viewer).state))
    return compared


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_line_from_a_recorded_game_starts_alike_whatever_its_hidden_cards(path: Path) -> None:
    ruleset, events = _fixture(path)
    assert lines_alike(ruleset, events, random.Random(path.stem), times=2) > 0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_line_from_a_random_game_starts_alike_whatever_its_hidden_cards(name: str) -> None:
    ruleset = RULESETS.get(name)
    compared = 0
    for number in range(1):
        rng = random.Random(3100 + number)
        compared += lines_alike(ruleset, GAMES[name](rng, number), rng, times=2)
    assert compared > 0
