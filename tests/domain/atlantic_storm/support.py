"""Helpers for the Atlantic Storm tests: catalogues written for the tests, set-ups and a table that
accepts events one by one (validate, then evolve) as the service would."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from domain.atlantic_storm import RULESET
from domain.record import Folded, GameStarted, start
from domain.ruleset import Player, ResourceRef, Setup

HERE = Path(__file__).resolve().parent
EXAMPLES = (HERE / "examples.csv").read_bytes()


def catalogue_ref(data: bytes, resource_id: str = "test") -> ResourceRef:
    """A catalogue parsed by the resource kind, as the service embeds it in a set-up."""
    content = RULESET.resource_kinds["catalogue"].parse(data)
    return ResourceRef(kind="catalogue", resource_id=resource_id, version=1, content_hash="test", content=content)


def make_setup(
    names: list[str], variant: str = "basic", data: bytes = EXAMPLES, ref: ResourceRef | None = None, **options: Any
) -> Setup:
    """A table of `names` in seat order."""
    if data is EXAMPLES:
        options.setdefault("pile_size", 3)  # examples.csv holds eight convoys
    players = tuple(Player(player_id=f"p-{name.lower()}", name=name, seat=i) for i, name in enumerate(names))
    return Setup(
        players=players, variant=variant, options=dict(options), resources={"catalogue": ref or catalogue_ref(data)}
    )


def started(setup: Setup) -> GameStarted:
    return GameStarted(ruleset=RULESET.name, ruleset_version=RULESET.version, setup=setup)


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


def generated_catalogue(seed: int) -> bytes:
    """A full-size catalogue (40 convoys, 112 force cards) generated for the property tests: random
    values within the format, every special behaviour present, fate cards against cards and convoys."""
    rng = random.Random(seed)
    header = (
        "number,name,side,nationality,type,unit,air,surface,submarine,years,ocean,vp,special,"
        "fate_victim,victim,cargo,source"
    )
    rows = [f"# Generated for the property tests (seed {seed}); not the real cards.", header]
    convoy_victims = set(rng.sample(range(1, 41), 8))
    for i in range(1, 41):
        year = 1940 + (i - 1) % 4
        ocean = "arctic" if i % 3 == 0 else "north_atlantic"
        cargo = ("full", "half", "empty")[i % 3]
        victim = "yes" if i in convoy_victims else ""
        rows.append(f"C{i},Convoy {i},,,,,,,,{year},{ocean},{1 + i % 7},,,{victim},{cargo},generated")
    specials = {
        "A": [
            ("Admiral A", "SPECIAL", "admiral"),
            ("Raid", "SPECIAL", "raid"),
            ("Ultra", "SPECIAL", "intelligence"),
            ("Tanker A", "SUPPLY", "supply"),
            ("Minefield", "BONUS", "standalone"),
            ("CAM Ship", "BONUS", "standalone"),
        ],
        "G": [
            ("Admiral G", "SPECIAL", "admiral"),
            ("Happy Time", "SPECIAL", "happy_time"),
            ("B-Dienst", "SPECIAL", "intelligence"),
            ("Milk Cow", "SUPPLY", "milk_cow"),
            ("Tanker G", "SUPPLY", "supply"),
            ("Black Gap", "BONUS", "black_gap"),
        ],
    }
    units = {
        "air": ("aircraft", "carrier"),
        "surface": ("ship",),
        "submarine": ("submarine", "wolfpack", "escort_group"),
    }
    normals: dict[str, list[str]] = {"A": [], "G": []}
    lines: list[tuple[str, list[str]]] = []
    for prefix, side in (("A", "allied"), ("G", "german")):
        for i in range(1, 56):
            number = f"{prefix}{i}"
            years = _years(rng)
            ocean = rng.choice(("any", "any", "north_atlantic", "arctic"))
            if i <= len(specials[prefix]):
                name, vp, special = specials[prefix][i - 1]
                frame = "any" if special != "standalone" else rng.choice(("any", "air"))
                values = ["0", "0", "0"]
                if vp == "BONUS":
                    values = [f"+{rng.randint(0, 2)}" for _ in range(3)]
                if special in ("admiral", "raid", "happy_time", "intelligence"):
                    years, ocean = "1940-1943", "any"
                unit = "ship" if vp == "SUPPLY" else "event"
                lines.append((number, [number, name, side, "", frame, unit, *values, years, ocean, vp, special]))
            elif i <= 14:
                frame = rng.choice(("air", "surface", "submarine", "any"))
                values = [f"+{rng.randint(0, 2)}" for _ in range(3)]
                lines.append(
                    (number, [number, f"Bonus {number}", side, "", frame, "weapon", *values, years, ocean, "BONUS", ""])
                )
            else:
                frame = rng.choice(("air", "surface", "submarine"))
                values = [_value(rng) for _ in range(3)]
                lines.append(
                    (
                        number,
                        [
                            number,
                            f"Unit {number}",
                            side,
                            "",
                            frame,
                            rng.choice(units[frame]),
                            *values,
                            years,
                            ocean,
                            str(rng.randint(0, 5)),
                            "",
                        ],
                    )
                )
                normals[prefix].append(number)
    # Fate cards: some units are destined against units of the other side, some against convoys.
    victims: set[str] = set()
    fate: dict[str, str] = {}
    for prefix, other in (("A", "G"), ("G", "A")):
        for number in rng.sample(normals[prefix], 6):
            if rng.random() < 0.5:
                target = rng.choice(normals[other])
                if target in victims:
                    continue
                victims.add(target)
                fate[number] = f"Unit {target}"
            else:
                fate[number] = f"Convoy {rng.choice(sorted(convoy_victims))}"
    for number, fields in lines:
        victim = "yes" if number in victims else ""
        rows.append(",".join([*fields, fate.get(number, ""), victim, "", "generated"]))
    rows.append("S1,Atlantic Storm,either,,any,event,0,0,0,1940-1943,north_atlantic,SPECIAL,storm,,,,generated")
    rows.append("S2,Arctic Storm,either,,any,event,0,0,0,1940-1943,arctic,SPECIAL,storm,,,,generated")
    return ("\n".join(rows) + "\n").encode()


def _years(rng: random.Random) -> str:
    first = rng.randint(1940, 1942)
    last = rng.randint(first + 1, 1943)
    return f"{first}-{last}"


def _value(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.08:
        return "?"
    if roll < 0.1:
        return "??"
    return str(rng.choice((0, 0, 1, 1, 2, 2, 3, 4, 5, 6)))


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
