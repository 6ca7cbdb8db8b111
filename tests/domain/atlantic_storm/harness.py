"""The Atlantic Storm tests' harness: the catalogue written for the tests, set-ups and a table that accepts
events one by one (validate, then evolve) as the service would. The seeded random table and the generated
catalogues are in `testkit.players.atlantic_storm` (the benches play them too)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.atlantic_storm import RULESET
from domain.record import Folded, start
from domain.ruleset import ResourceRef, Setup
from testkit.players.atlantic_storm import catalogue_ref, seated, started

HERE = Path(__file__).resolve().parent
EXAMPLES = (HERE / "examples.csv").read_bytes()


def make_setup(
    names: list[str], variant: str = "basic", data: bytes = EXAMPLES, ref: ResourceRef | None = None, **options: Any
) -> Setup:
    """A table of `names` in seat order."""
    if data is EXAMPLES:
        options.setdefault("pile_size", 3)  # examples.csv holds eight convoys
    return seated(names, variant, ref or catalogue_ref(data), **options)


class Table:
    """A game being recorded: `play` checks then applies each event, keeping the stream."""

    def __init__(self, setup: Setup) -> None:
        self.events: list[Any] = [started(setup)]
        self.folded: Folded = start(RULESET, self.events[0])

    @property
    def state(self) -> Any:
        return self.folded.state

    def play(self, *events: Any) -> Table:
        for event in events:
            self.folded = self.folded.accept(event)
            self.events.append(event)
        return self


NAMES = ["Alain", "Bea", "Carl", "Dana", "Eve", "Farid"]


def at_battle(
    hands: list[list[str]],
    convoy: str,
    zone: str | None = "submarine",
    variant: str = "basic",
    discarded: str | None = None,
    pile_size: int = 3,
) -> Table:
    """A table of len(hands) players (Alain deals and leads), each dealt the named cards and face-down
    cards up to six, with `convoy` turned and `zone` declared."""
    from domain.atlantic_storm.events import CardsDealt, ConvoysCut, ConvoyTurned, ZoneDeclared

    table = Table(make_setup(NAMES[: len(hands)], variant=variant, pile_size=pile_size))
    dealt = tuple(tuple([*hand, *([None] * (6 - len(hand)))]) for hand in hands)
    table.play(
        ConvoysCut(cuts=tuple(f"C{i + 1}" for i in range(len(hands)))),
        CardsDealt(hands=dealt),
        ConvoyTurned(seat=0, convoy=convoy, discarded=discarded),
    )
    if zone is not None:
        table.play(ZoneDeclared(seat=0, zone=zone))  # type: ignore[arg-type]
    return table


def refused(table: Table, event: Any) -> Any:
    """The RuleError an event raises (and the table unchanged)."""
    from domain.ruleset import RuleError

    before = table.state
    try:
        table.play(event)
    except RuleError as error:
        assert table.state is before
        return error
    raise AssertionError(f"{event} was accepted")
