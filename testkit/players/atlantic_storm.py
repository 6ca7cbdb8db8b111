"""Atlantic Storm's seeded random table, for the property tests and the benches: generated catalogues, a
physical deck the table shuffles, players that make only legal moves (from `legal_events`), and two
records of the same game: the truth (every card named) and the scorekeeper's (some draws recorded face
down, G-2)."""

from __future__ import annotations

import random
from typing import Any

from domain.atlantic_storm import RULESET
from domain.atlantic_storm.events import (
    CardDiscarded,
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    ConvoysCut,
    ConvoyTurned,
    DeckReshuffled,
    HandDiscarded,
    IntelligencePlayed,
)
from domain.atlantic_storm.state import State
from domain.record import Folded, GameStarted, start
from domain.ruleset import Player, ResourceRef, Setup


def catalogue_ref(data: bytes, resource_id: str = "test") -> ResourceRef:
    """A catalogue parsed by the resource kind, as the service embeds it in a set-up."""
    content = RULESET.resource_kinds["catalogue"].parse(data)
    return ResourceRef(kind="catalogue", resource_id=resource_id, version=1, content_hash="test", content=content)


def seated(names: list[str], variant: str, ref: ResourceRef, **options: Any) -> Setup:
    """A table of `names` in seat order, playing the catalogue `ref`."""
    players = tuple(Player(player_id=f"p-{name.lower()}", name=name, seat=i) for i, name in enumerate(names))
    return Setup(players=players, variant=variant, options=dict(options), resources={"catalogue": ref})


def started(setup: Setup) -> GameStarted:
    return GameStarted(ruleset=RULESET.name, ruleset_version=RULESET.version, setup=setup)


def generated_catalogue(seed: int, per_side: int = 55) -> bytes:
    """A full-size catalogue (40 convoys, 112 force cards; `per_side` force cards of each side less one)
    generated for the property tests: random values within the format, every special behaviour present,
    fate cards against cards and convoys."""
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
        for i in range(1, per_side + 1):
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


class RandomGame:
    """One game played to the end by random legal moves."""

    def __init__(
        self,
        rng: random.Random,
        catalogue: bytes,
        players: int,
        variant: str,
        hidden: float = 0.2,
        audit: float = 0.02,
        **options: Any,
    ) -> None:
        """`options`: the set-up's options (a small catalogue needs a small `pile_size`)."""
        self.rng = rng
        names = ["Alain", "Bea", "Carl", "Dana", "Eve", "Farid"][:players]
        setup = seated(names, variant, _parsed(catalogue), **options)
        self.record_started = started(setup)
        self.truth: Folded = start(RULESET, started(setup))
        self.record: Folded = start(RULESET, started(setup))
        state: State = self.truth.state
        self.forces = sorted(n for n, c in state.cards.items() if c.category != "convoy")
        convoys = sorted(n for n, c in state.cards.items() if c.category == "convoy")
        rng.shuffle(self.forces)
        self.force_set = set(self.forces)
        self.deck = list(self.forces)
        rng.shuffle(convoys)
        self.all_convoys = list(convoys)
        size = state.pile_size * (2 if variant == "advanced" else 1)
        self.convoy_pile = convoys[:size]
        self.hidden = hidden
        self.audit = audit
        self.events = 0
        self.checked_holdings: Any = None

    def play(self, check: Any) -> None:
        """Play to the end, calling `check(self)` after every event."""
        while self.truth.state.phase != "over":
            truth_event, record_event = self.next_events()
            self.truth = self.truth.accept(truth_event)
            self.record = self.record.accept(record_event)
            self.events += 1
            check(self)

    def next_events(self) -> tuple[Any, Any]:
        state: State = self.truth.state
        if state.phase == "cut":
            cuts = tuple(self.rng.sample(self.all_convoys, state.players))
            return ConvoysCut(cuts=cuts), ConvoysCut(cuts=cuts)
        for seat in range(state.players):
            options = RULESET.legal_events(state, seat)
            if options:
                if self.rng.random() < self.audit:
                    for option in options:  # everything listed is accepted (chance forms included)
                        RULESET.validate(state, option)
                return self.chance(state, self.choose(options))
        raise AssertionError(f"nobody can move at phase {state.phase}")

    def choose(self, options: list[Any]) -> Any:
        """Uniform, except that a player who can play mostly plays (a table of discards tests little)."""
        plays = [o for o in options if isinstance(o, CardsPlayed | IntelligencePlayed)]
        if plays and self.rng.random() < 0.75:
            return self.rng.choice(plays)
        return self.rng.choice(options)

    def chance(self, state: State, event: Any) -> tuple[Any, Any]:
        """Fill a listed form with what the physical table did."""
        if isinstance(event, CardsDealt):
            hands = tuple(tuple(self.deck.pop() for _ in hand) for hand in event.hands)
            return CardsDealt(hands=hands), CardsDealt(hands=tuple(self.veil(h) for h in hands))
        if isinstance(event, CardsDrawn):
            cards = tuple(self.deck.pop() for _ in event.cards)
            return (CardsDrawn(seat=event.seat, cards=cards), CardsDrawn(seat=event.seat, cards=self.veil(cards)))
        if isinstance(event, DeckReshuffled):
            self.deck = list(state.discard)
            self.rng.shuffle(self.deck)
            return event, event
        if isinstance(event, ConvoyTurned):
            top = self.convoy_pile.pop()
            if event.discarded is None:
                real = ConvoyTurned(seat=event.seat, convoy=top)
            else:
                other = self.convoy_pile.pop()
                keep, drop = (top, other) if self.rng.random() < 0.5 else (other, top)
                real = ConvoyTurned(seat=event.seat, convoy=keep, discarded=drop)
            return real, real
        if isinstance(event, HandDiscarded):  # what the record does not know of the hand stays unnamed
            known = self.record.state.hands[event.seat]
            return event, HandDiscarded(seat=event.seat, cards=tuple(c if c in known else None for c in event.cards))
        if isinstance(event, CardDiscarded) and event.card is not None:
            # A card the record does not know in that hand goes onto the face-down pile unseen (G-2).
            record = self.record.state
            if event.card not in record.hands[event.seat] and event.card != _intelligence(state):
                return event, CardDiscarded(seat=event.seat, card=None)
        return event, event

    def veil(self, cards: tuple[str, ...]) -> tuple[str | None, ...]:
        return tuple(None if self.rng.random() < self.hidden else c for c in cards)


def _intelligence(state: State) -> str | None:
    """The intelligence card of the delayed turn being taken, if any (discarded face up, AS-7)."""
    battle = state.battle
    return battle.queue[0].intelligence if battle is not None and battle.queue else None


_PARSED: dict[bytes, Any] = {}


def _parsed(catalogue: bytes) -> Any:
    """Parse each generated catalogue once (the import is not what these games test)."""
    if catalogue not in _PARSED:
        _PARSED[catalogue] = catalogue_ref(catalogue)
    return _PARSED[catalogue]


def places(state: State) -> list[str]:
    """Every force card the state places (hands, table, under the convoy, discard, captured), once each
    if all is well."""
    out: list[str] = list(state.discard)
    for hand in state.hands:
        out += hand
    for pile in state.captured:
        out += pile
    battle = state.battle
    if battle is not None:
        if battle.outcome is not None:
            out += [c for c in battle.outcome.trick if state.cards[c].category != "convoy"]
            out += battle.outcome.to_discard
        else:
            for play in battle.plays:
                if not play.cancelled:
                    out += play.cards()
            out += [card for _, card in battle.under]
    return out
