"""Mémoire 44's seeded random table, for the property tests and the benches: set-ups of the shipped
scenarios (two players, or Overlord teams of six) with expansion settings on top, the test club resources
(memoire44_resources/, made up for tests), a player that plays only events `legal_events` offers, fills in
chance itself (a physical deck it shuffles, dice it rolls) and checks invariants after every event."""

from __future__ import annotations

import random
from itertools import permutations
from pathlib import Path
from typing import Any

import msgspec

from domain.memoire44 import RULESET
from domain.memoire44.battlefield import commissar_camp, italian_camp
from domain.memoire44.board import distance
from domain.memoire44.catalogue import AIR_SORTIE, CARDS, DECK_SIZE, FACES
from domain.memoire44.eastfront import from_hand
from domain.memoire44.events import (
    AirCardDrawn,
    AirStrike,
    AntiAircraft,
    Battle,
    Bombing,
    CardCommitted,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsGiven,
    CardTaken,
    CombatCardDrawn,
    CombatCardPlayed,
    DeckReshuffled,
    DiceRolled,
    Dogfight,
    Gift,
    GroundTaken,
    InitiativeTaken,
    PlaneDeployed,
    PlaneMoved,
    ReinforcementPlaced,
    ReinforcementsRolled,
    Retreated,
    UnitMoved,
    VisibilityRolled,
    WireRemoved,
)
from domain.memoire44.rules.air import AIR_EVENTS, air_pile
from domain.memoire44.rules.base import plays_from_token
from domain.memoire44.rules.combat_cards import combat_pile
from domain.memoire44.rules.common import pile_size
from domain.memoire44.rules.overlord import hands_out_token, token_cards_fit
from domain.memoire44.scenario import content_hash
from domain.memoire44.state import State
from domain.record import GameStarted
from domain.ruleset import Player, ResourceRef, RuleError, Setup

KIND = RULESET.resource_kinds["scenario"]
RESOURCES = Path(__file__).parent / "memoire44_resources"


def with_options(scenario_id: str, options: dict[str, Any]) -> bytes:
    """A shipped scenario's `.m44` file with more expansion settings turned on (M44-SC-1)."""
    raw = msgspec.json.decode(KIND.builtin()[scenario_id])
    raw["game_info"]["options"] = (raw["game_info"].get("options") or {}) | options
    return msgspec.json.encode(raw)


def scenario_ref(scenario_id: str, data: bytes) -> ResourceRef:
    """A scenario's `.m44` file as a set-up embeds it (version 1)."""
    return ResourceRef(
        kind="scenario", resource_id=scenario_id, version=1, content_hash=content_hash(data), content=KIND.parse(data)
    )


def setup_for(
    scenario_id: str,
    sides: tuple[str, str] | None = None,
    players: tuple[str, str] = ("Alain", "Bea"),
    options: dict[str, Any] | None = None,
) -> Setup:
    """A two-player set-up embedding a shipped scenario, with `options` added to its settings."""
    ref = scenario_ref(scenario_id, with_options(scenario_id, options) if options else KIND.builtin()[scenario_id])
    setup = Setup(
        players=tuple(Player(player_id=f"p-{name.lower()}", name=name, seat=seat) for seat, name in enumerate(players)),
        options={"sides": list(sides)} if sides else {},
        resources={"scenario": ref},
    )
    if (options or {}).get("combat_cards"):
        setup = with_resource(setup, "combat_deck", TEST_COMBAT_DECK)
    if (options or {}).get("air_rules"):
        setup = with_resource(setup, "air_pack", TEST_AIR_PACK)
    if ref.content["expansions"]["dday"]:
        setup = with_resource(setup, "reinforcement_table", TEST_REINFORCEMENTS)
    return setup


# An Overlord table of six (M44-OV-2): per side a commander-in-chief and two generals, team 0 Axis.
SIX = (
    ("Alain", 0, "commander"),
    ("Bea", 0, "left"),
    ("Chloe", 0, "centre+right"),
    ("Denis", 1, "commander+centre"),
    ("Emma", 1, "left"),
    ("Fred", 1, "right"),
)
# A test initiative table (initiative_table.json: values made up for tests, not the published table's).
TEST_INITIATIVE: dict[str, Any] = msgspec.json.decode((RESOURCES / "initiative_table.json").read_bytes())


# A test combat deck (combat_deck.json, made up for tests: the rules summary names the effects, not the deck).
TEST_COMBAT_DECK: dict[str, Any] = msgspec.json.decode((RESOURCES / "combat_deck.json").read_bytes())


# A test air pack (air_pack.json, made up for tests: the rules summary relies on tables it does not print).
# The recorded air games embed that file as it is; games played now add the move orders a command card gives
# on a Breakthrough board (M44-AIR-14), made up too: Attack 1, Probe 2, Recon 0, the other cards not listed.
TEST_AIR_PACK: dict[str, Any] = msgspec.json.decode((RESOURCES / "air_pack.json").read_bytes()) | {
    "move_orders": {
        **{f"attack_{section}": 1 for section in ("left", "centre", "right")},
        **{f"probe_{section}": 2 for section in ("left", "centre", "right")},
        **{f"recon_1_{section}": 0 for section in ("left", "centre", "right")},
    }
}
# A test D-Day reinforcement table (reinforcement_table.json, made up for tests: the summary does not print it).
TEST_REINFORCEMENTS: dict[str, Any] = msgspec.json.decode((RESOURCES / "reinforcement_table.json").read_bytes())


def figures_held(state: State) -> dict[tuple[int, str], int]:
    """D-Day (M44-DD-8, M44-DD-9): per camp and unit kind, the figures in reserve, on the board, and the one
    each eliminated unit left as a medal; reinforcements and losses only move figures between them."""
    held: dict[tuple[int, str], int] = {}
    for camp, reserve in enumerate(state.reserve):
        for kind, figures in reserve.items():
            held[(camp, kind)] = held.get((camp, kind), 0) + figures
    for unit in state.units:
        held[(unit.camp, unit.kind)] = held.get((unit.camp, unit.kind), 0) + (unit.figures or 1)
    return held


def with_resource(setup: Setup, kind: str, content: dict[str, Any]) -> Setup:
    """`setup` with a club resource of `kind` embedded (an initiative table, a combat deck)."""
    data = msgspec.json.encode(content)
    ref = ResourceRef(
        kind=kind,
        resource_id="test",
        version=1,
        content_hash=content_hash(data),
        content=RULESET.resource_kinds[kind].parse(data),
    )
    return msgspec.structs.replace(setup, resources=setup.resources | {kind: ref})


def team_setup_for(
    scenario_id: str,
    seats: tuple[tuple[str, int, str], ...] = SIX,
    sides: tuple[str, str] | None = None,
    options: dict[str, Any] | None = None,
    initiative: dict[str, Any] | None = None,
) -> Setup:
    """An Overlord team set-up: each seat's name, team (0 or 1) and role (M44-OV-2)."""
    base = setup_for(scenario_id, sides=sides, options=options)
    if initiative is not None:
        base = with_resource(base, "initiative_table", initiative)
    if (options or {}).get("combat_cards"):
        base = with_resource(base, "combat_deck", TEST_COMBAT_DECK)
    return Setup(
        players=tuple(
            Player(player_id=f"p-{name.lower()}", name=name, seat=seat, team=team)
            for seat, (name, team, _) in enumerate(seats)
        ),
        options=base.options | {"roles": [role for _, _, role in seats]},
        resources=base.resources,
    )


def started(setup: Setup) -> GameStarted:
    return GameStarted(ruleset=RULESET.name, ruleset_version=RULESET.version, setup=setup)


def expected_medals(state: State) -> tuple[int, int]:
    """Medals recomputed from scratch: enemy units eliminated plus objectives held (M44-6, seed; the
    D-Day control of villages, beaches and bridges, M44-DD-1 to M44-DD-3)."""
    medals = [0, 0]
    board = state.board
    for unit in state.units:
        if unit.figures == 0:
            medals[1 - unit.camp] += 1
    bombed = dict(state.air.bombed) if state.air else {}  # M44-AIR-11, M44-AIR-16: held by a bombing
    for index, objective in enumerate(state.objectives):
        owners = [u.camp for u in state.units if u.hex in objective.hexes]
        mine = owners.count(objective.camp)
        around = {spot for h in objective.hexes for spot in (h, *board.neighbours(h))}
        near = {u.camp for u in state.units if u.hex in around}
        holder = {
            "temporary": objective.camp if mine > 0 else None,
            "majority": objective.camp if mine > len(owners) - mine else None,
            "permanent": objective.camp if index in state.permanent else None,
            "village": dict(state.villages).get(index, objective.camp),
            "beach": objective.camp if 1 - objective.camp not in near else None,
            "bridge": near.pop() if len(near) == 1 else None,
        }[objective.kind]
        holder = bombed.get(index, holder)
        if holder is not None:
            medals[holder] += objective.medals
    if state.air is not None:  # M44-AIR-7, M44-AIR-8: a plane shot down is a medal for the enemy
        for plane in state.air.planes:
            medals[1 - plane.camp] += plane.lost
    return medals[0] + state.special[0], medals[1] + state.special[1]


def check_invariants(state: State) -> None:
    """What must hold after every event."""
    seen: set[tuple[int, int]] = set()
    for unit in state.units:
        assert 0 <= unit.figures <= unit.size, unit
        assert (unit.hex is None) == (unit.figures == 0), unit
        if unit.hex is not None:
            assert unit.hex not in seen, f"two units in {unit.hex}"
            seen.add(unit.hex)
            assert state.occupant[unit.hex] == unit.uid
            assert state.board.passable(unit.hex)
    assert len(state.occupant) == len(seen)
    assert all(figures >= 0 for reserve in state.reserve for figures in reserve.values()), state.reserve
    assert state.medals == expected_medals(state), (state.medals, expected_medals(state))
    assert pile_size(state) >= 0
    if state.air is not None:  # M44-AIR-11: no enemy unit stands on an objective a bombing holds
        for index, camp in state.air.bombed:
            assert not any(u.hex in state.objectives[index].hexes and u.camp != camp for u in state.units)
    for card, spec in CARDS.items():
        placed = sum(h.known.count(card) for h in (*state.hands, *state.given)) + state.discard.count(card)
        placed += state.token.count(card)  # M44-RU-1, M44-OV-8: the cards under the commissar token
        assert placed <= spec.count, card
    if state.phase == "card":
        held = [h.size for h in state.hands]
        commissar = commissar_camp(state)
        if commissar is not None:
            held[commissar] += len(state.token)  # M44-RU-1: the card under the token is still held
        if state.teams:  # M44-OV-4: the commander draws two, so his hand may be below the scenario's size
            assert all(0 < h <= limit for h, limit in zip(held, state.hand_limit, strict=True)), held
            assert not any(g.size for g in state.given)
        else:
            assert tuple(held) == state.hand_limit


class RandomTable:
    """One game at a seeded random table. `face_down` is the chance a draw is recorded face-down."""

    def __init__(self, rng: random.Random, setup: Setup, face_down: float = 0.1) -> None:
        self.rng = rng
        self.state: State = RULESET.initial(setup)
        self.events: list[Any] = [started(setup)]
        self.deck = [card for card, spec in CARDS.items() for _ in range(spec.count)]
        rng.shuffle(self.deck)
        self.real_hands: list[list[str]] = [[], []]
        self.real_given: list[list[str]] = [[] for _ in setup.players]
        self.combat_deck = [c for c, spec in TEST_COMBAT_DECK["cards"].items() for _ in range(spec["count"])]
        rng.shuffle(self.combat_deck)
        self.real_combat: list[list[str]] = [[] for _ in setup.players]
        self.real_token: list[str] = []
        self.air_deck = [c for c, spec in TEST_AIR_PACK["cards"].items() for _ in range(spec["count"])]
        if self.state.air is not None:  # without the air rules, the seeded games stay the ones they were
            rng.shuffle(self.air_deck)
        self.real_air: list[list[str]] = [[], []]  # per camp
        self.committing = ""  # the real card behind a face-down CardCommitted
        self.face_down = face_down

    def play(self, limit: int = 20000) -> State:
        """Play to the end; every event is validated, applied and checked."""
        check_invariants(self.state)
        figures = figures_held(self.state)
        while not self.state.over:
            assert len(self.events) < limit, "the game did not end"
            event = self.choose()
            RULESET.validate(self.state, event)
            self.after(event)
            before = self.state
            self.state = RULESET.evolve(self.state, event)
            if len(self.state.combat_discard) < len(before.combat_discard):  # M44-CC-1: Their Finest Hour
                held = [c for hand in self.real_combat for c in hand]
                cards = TEST_COMBAT_DECK["cards"]
                self.combat_deck = [c for c, spec in cards.items() for _ in range(spec["count"] - held.count(c))]
                self.rng.shuffle(self.combat_deck)
            air, was = self.state.air, before.air
            if air is not None and was is not None and len(air.discard) < len(was.discard):  # M44-AIR-9
                held = [c for hand in self.real_air for c in hand]
                cards = TEST_AIR_PACK["cards"]
                self.air_deck = [c for c, spec in cards.items() for _ in range(spec["count"] - held.count(c))]
                self.rng.shuffle(self.air_deck)
            self.events.append(event)
            check_invariants(self.state)
            assert not self.state.reserve or figures_held(self.state) == figures  # M44-DD-8, M44-DD-9
            # Cards conserved: the record's draw pile is the physical one (hands, generals' cards, token, discards).
            assert pile_size(self.state) == len(self.deck)
            if self.state.combat_deck is not None:
                assert combat_pile(self.state) == len(self.combat_deck)  # the combat deck too
            if self.state.air is not None:
                assert air_pile(self.state.air) == len(self.air_deck)  # and the air combat deck
        return self.state

    def after(self, event: Any) -> None:
        """Keep the physical cards in step with what was recorded."""
        state = self.state
        if isinstance(event, CardPlayed) and event.card == AIR_SORTIE:
            pass  # held apart from the command cards, and not replaced (M44-AIR-15)
        elif isinstance(event, CombatCardPlayed):
            self.real_combat[event.seat].remove(event.card)
        elif isinstance(event, PlaneDeployed):
            self.real_air[state.seat_camp[event.seat]].remove(event.card)
        elif isinstance(event, CardsGiven):
            cards = [gift.card for gift in event.gifts]
            # M44-OV-8: under the Eastern Front rules the token's cards go out, only the others leave the hand.
            in_hand = from_hand(state.token, cards) if hands_out_token(state, state.active) else range(len(cards))
            assert in_hand is not None
            for index, gift in enumerate(event.gifts):
                assert gift.card is not None
                (self.real_hands[state.active] if index in in_hand else self.real_token).remove(gift.card)
                self.real_given[gift.general].append(gift.card)
            assert not hands_out_token(state, state.active) or not self.real_token
        elif isinstance(event, CardPlayed) and event.card != "ambush" and state.teams:
            self.real_given[event.seat].remove(event.card)
        elif isinstance(event, CardPlayed) and event.card != "ambush" and plays_from_token(state, state.active):
            assert self.real_token.pop(0) == event.card
        elif isinstance(event, CardPlayed | CardDiscarded):
            self.real_hands[state.seat_camp[event.seat]].remove(event.card)
        elif isinstance(event, CardCommitted):
            card = event.card or self.committing
            self.real_hands[state.seat_camp[event.seat]].remove(card)
            self.real_token.append(card)
        elif isinstance(event, CardTaken):
            camp = italian_camp(state)
            assert camp is not None
            self.real_hands[camp].remove(event.card)
        elif isinstance(event, DeckReshuffled):
            in_hands = (
                self.real_hands[0] + self.real_hands[1] + self.real_token + [c for g in self.real_given for c in g]
            )
            self.deck = [c for c, spec in CARDS.items() for _ in range(spec.count - in_hands.count(c))]
            self.rng.shuffle(self.deck)
            assert len(self.deck) == DECK_SIZE - len(in_hands)

    def choose(self) -> Any:
        state, rng = self.state, self.rng
        seats = range(len(state.seat_camp))
        options = [(seat, e) for seat in seats for e in RULESET.legal_events(state, seat) or ()]
        assert options, f"no legal event in phase {state.phase}"
        # Combat cards (M44-CC-1, M44-CC-2): drawn when allowed, now and then played from the real cards.
        combat: list[Any] = [e for _, e in options if isinstance(e, CombatCardDrawn)]
        combat += [e for _, e in options if isinstance(e, CombatCardPlayed) and e.card in self.real_combat[e.seat]]
        combat += [e for _, e in options if isinstance(e, AirCardDrawn)]
        options = [
            (seat, e) for seat, e in options if not isinstance(e, CombatCardDrawn | CombatCardPlayed | AirCardDrawn)
        ]
        if combat and (not options or rng.random() < 0.2):
            return self.fill(rng.choice(combat))
        # The air rules (M44-AIR-3 to M44-AIR-8): planes deployed with real cards, ordered, flown, fighting.
        # An Air Sortie (M44-AIR-15) is played alone as the turn's card, or beside the section card, like an air
        # event.
        sortie = [e for _, e in options if isinstance(e, CardPlayed) and e.card == AIR_SORTIE]
        air = sortie + [
            e
            for _, e in options
            if isinstance(e, AIR_EVENTS)
            and not (isinstance(e, PlaneDeployed) and e.card not in self.real_air[state.seat_camp[e.seat]])
        ]
        options = [(seat, e) for seat, e in options if not isinstance(e, AIR_EVENTS) and e not in sortie]
        if air and (not options or rng.random() < 0.4):
            strikes: list[Any] = [e for e in air if isinstance(e, AirStrike | Dogfight | AntiAircraft | Bombing)]
            strikes += [e for e in air if isinstance(e, PlaneMoved) and e.bomb]
            strikes += [e for e in air if isinstance(e, PlaneMoved) and e.markers and rng.random() < 0.02]
            return self.fill(rng.choice(strikes if strikes and rng.random() < 0.7 else air))
        assert options, f"no legal event in phase {state.phase}"
        active = [e for seat, e in options if state.seat_camp[seat] == state.active]
        others = [e for seat, e in options if state.seat_camp[seat] != state.active]
        if others and (not active or rng.random() < 0.3):
            return self.fill(rng.choice(others))
        events = active
        by_type: dict[type, list[Any]] = {}
        for event in events:
            by_type.setdefault(type(event), []).append(event)
        camp = state.active
        commits: list[CardCommitted] = []
        if CardCommitted in by_type and state.teams:  # M44-OV-8: now and then, before the draw
            commits = by_type.pop(CardCommitted)
            events = [e for e in events if not isinstance(e, CardCommitted)]
            placed = self.place(commits) if not events or rng.random() < 0.25 else None
            if placed is not None:
                return placed
        if CardCommitted in by_type:
            exempt = [e for e in by_type.get(CardPlayed, []) if e.card in self.real_hands[camp]]
            if exempt and rng.random() < 0.3:
                return rng.choice(exempt)
            # Face down only a card the record does not know is in that hand (G-2).
            hidden = list(self.real_hands[camp])
            for card in state.hands[camp].known:
                hidden.remove(card)
            hidden = [c for c in hidden if c != "ambush"]  # Ambush stays in the hand (M44-RU-1)
            face_down = bool(hidden) and rng.random() < 0.3
            self.committing = rng.choice(hidden if face_down else [c for c in self.real_hands[camp] if c != "ambush"])
            return CardCommitted(seat=state.seat_of(camp), card=None if face_down else self.committing)
        if CardsGiven in by_type:
            return self.gifts(by_type[CardsGiven])
        if state.teams and (CardPlayed in by_type or InitiativeTaken in by_type):
            plays = [e for e in by_type.get(CardPlayed, []) if e.card in self.real_given[e.seat]]
            plays += [self.fill(e) for e in by_type.get(InitiativeTaken, []) if rng.random() < 0.3]
            only_plays = all(isinstance(e, CardPlayed | InitiativeTaken) for e in events)
            if plays and (any(self.real_given) or rng.random() < 0.5 or only_plays):
                return rng.choice(plays)
            events = [e for e in events if not isinstance(e, CardPlayed | InitiativeTaken)]
            by_type.pop(CardPlayed, None)
            by_type.pop(InitiativeTaken, None)
        if CardPlayed in by_type:
            source = self.real_token[:1] if plays_from_token(state, camp) else self.real_hands[camp]
            playable = [e for e in by_type[CardPlayed] if e.card in source]
            return rng.choice(playable)
        if CardDiscarded in by_type or state.phase == "recon":
            seat = state.seat_of(state.active)
            return CardDiscarded(seat=seat, card=rng.choice(self.real_hands[state.active]))
        if GroundTaken in by_type and rng.random() < 0.7:
            return by_type[GroundTaken][0]
        if ReinforcementPlaced in by_type and rng.random() < 0.8:
            return rng.choice(by_type[ReinforcementPlaced])
        if UnitMoved in by_type and rng.random() < 0.85:
            return self.move(by_type[UnitMoved])
        fights = by_type.get(Battle, []) + by_type.get(WireRemoved, [])
        if fights and rng.random() < 0.95:
            return self.fill(rng.choice(fights))
        rest = [e for e in events if not isinstance(e, UnitMoved | Battle | WireRemoved | GroundTaken)]
        if not (rest or events):
            placed = self.place(commits)
            assert placed is not None, "no real card fits under the commissar token"
            return placed
        return self.fill(rng.choice(rest or events))

    def place(self, commits: list[CardCommitted]) -> CardCommitted | None:
        """Eastern Front (M44-OV-8): the commander places a real card under the token, face down only one
        the record does not know is in his hand, and only one that fits the generals with those already there."""
        state, rng = self.state, self.rng
        camp = state.active
        hidden = list(self.real_hands[camp])
        for card in state.hands[camp].known:
            hidden.remove(card)
        hidden = [c for c in hidden if token_cards_fit(state, camp, (*self.real_token, c))]
        named = [
            e
            for e in commits
            if e.card in self.real_hands[camp] and token_cards_fit(state, camp, (*self.real_token, e.card))
        ]
        if hidden and any(e.card is None for e in commits) and (not named or rng.random() < 0.3):
            self.committing = rng.choice(hidden)
            return CardCommitted(seat=state.seat_of(camp))
        return rng.choice(named) if named else None

    def gifts(self, options: list[CardsGiven]) -> CardsGiven:
        """The commander hands out real cards: a face-down card of the hand (or of the commissar token) is
        named as it is given."""
        state, rng = self.state, self.rng
        hidden = list(self.real_hands[state.active])
        for card in state.hands[state.active].known:
            hidden.remove(card)
        if hands_out_token(state, state.active):  # M44-OV-8: the face-down cards are the token's
            hidden = list(self.real_token)
            for shown in state.token:
                if shown is not None:
                    hidden.remove(shown)
        for _ in range(50):
            event = rng.choice(options)
            pool = list(hidden)
            rng.shuffle(pool)
            gifts = tuple(Gift(general=g.general, card=g.card or pool.pop()) for g in event.gifts)
            named = CardsGiven(seat=event.seat, gifts=gifts)
            try:
                RULESET.validate(state, named)
            except RuleError:
                continue
            if self.holds(named):
                return named
        # Chance found none (the offers the real cards fit can be few): each offer, its face-down cards
        # named in every order of the real ones, until one is accepted.
        fitting = []
        for event in options:
            blanks = sum(g.card is None for g in event.gifts)
            for names in permutations(hidden, blanks):
                pool = list(names)
                gifts = tuple(Gift(general=g.general, card=g.card or pool.pop()) for g in event.gifts)
                named = CardsGiven(seat=event.seat, gifts=gifts)
                if self.holds(named) and not self.refused(named):
                    fitting.append(named)
                    break
        return rng.choice(fitting)

    def refused(self, event: Any) -> bool:
        try:
            RULESET.validate(self.state, event)
        except RuleError:
            return True
        return False

    def holds(self, event: CardsGiven) -> bool:
        """Whether the real cards are those handed out: from the hand, or the token's every one (M44-OV-8)."""
        state = self.state
        hand, token = list(self.real_hands[state.active]), list(self.real_token)
        cards = [gift.card for gift in event.gifts]
        from_token = hands_out_token(state, state.active)
        in_hand = from_hand(state.token, cards) if from_token else range(len(cards))
        if in_hand is None:
            return False
        for index, card in enumerate(cards):
            source = hand if index in in_hand else token
            if card not in source:
                return False
            source.remove(card)
        return not from_token or not token

    def move(self, moves: list[UnitMoved]) -> UnitMoved:
        """Mostly towards the nearest enemy, so armies meet."""
        state, rng = self.state, self.rng
        unit = rng.choice(sorted({m.unit for m in moves}))
        mine = [m for m in moves if m.unit == unit]
        if rng.random() < 0.3:
            return rng.choice(mine)
        camp = state.units[unit].camp
        enemies = [u.hex for u in state.units if u.camp != camp and u.hex is not None]
        return min(mine, key=lambda m: (min(distance(m.path[-1], h) for h in enemies), rng.random()))

    def fill(self, event: Any) -> Any:
        """Chance, as the table would report it."""
        rng = self.rng
        if isinstance(event, CardDrawn):
            card = self.deck.pop()
            self.real_hands[self.state.seat_camp[event.seat]].append(card)
            return CardDrawn(seat=event.seat, card=None if rng.random() < self.face_down else card)
        if isinstance(event, Battle):
            return msgspec.structs.replace(event, faces=tuple(rng.choice(FACES) for _ in range(event.dice)))
        if isinstance(event, DiceRolled):
            return DiceRolled(seat=event.seat, faces=tuple(rng.choice(FACES) for _ in event.faces))
        if isinstance(event, CombatCardDrawn):
            card = self.combat_deck.pop()
            self.real_combat[event.seat].append(card)
            return CombatCardDrawn(seat=event.seat, card=None if rng.random() < self.face_down else card)
        if isinstance(event, AirCardDrawn):
            card = self.air_deck.pop()
            self.real_air[self.state.seat_camp[event.seat]].append(card)
            return AirCardDrawn(seat=event.seat, card=None if rng.random() < self.face_down else card)
        if isinstance(event, AirStrike | Dogfight | AntiAircraft | Bombing):
            return msgspec.structs.replace(event, faces=tuple(rng.choice(FACES) for _ in range(event.dice)))
        if isinstance(event, InitiativeTaken):
            return InitiativeTaken(seat=event.seat, face=rng.choice(FACES))
        if isinstance(event, ReinforcementsRolled):
            return ReinforcementsRolled(seat=event.seat, faces=tuple(rng.choice(FACES) for _ in event.faces))
        if isinstance(event, VisibilityRolled):
            return VisibilityRolled(seat=event.seat, faces=tuple(rng.choice(FACES) for _ in event.faces))
        if isinstance(event, CardTaken):
            camp = italian_camp(self.state)
            assert camp is not None
            return CardTaken(seat=event.seat, card=rng.choice(self.real_hands[camp]))
        if isinstance(event, Retreated):
            return event
        return event


SCENARIOS = sorted(RULESET.resource_kinds["scenario"].builtin())
# The D-Day reinforcements are refused at team tables (M44-DD-6): team games play the other scenarios.
TEAM_SCENARIOS = [s for s in SCENARIOS if not setup_for(s).resources.get("reinforcement_table")]


# Expansion settings the shipped scenarios do not turn on themselves (M44-SC-1), played on top of them.
VARIANTS: tuple[dict[str, Any], ...] = (
    {"night_visibility_rules": True},
    {"weather": "snow"},
    {"weather": "fog", "blitz_rules": True},
    {"night_visibility_rules": True, "weather": "rain", "italy_high_command": True, "british_commonwealth": True},
    {"russian_commissar_rule": "ALLIES"},
    {"russian_commissar_rule": "AXIS", "blitz_rules": True},
    {"air_superiority": "AXIS", "off_board_artillery": "ALLIES"},
    {"combat_cards": True, "weather": "rain"},
    {"combat_cards": True, "night_visibility_rules": True, "british_commonwealth": True},
)

# The air rules (M44-AIR-1 to M44-AIR-9) with the test air pack, alone and beside other expansions.
AIR_VARIANTS: tuple[dict[str, Any], ...] = (
    {"air_rules": True, "air_theatre": "normandy-1944", "air_planes_on_ground": {"bf109": [0, 0]}},
    {"air_rules": True, "air_theatre": "russia-1941", "night_visibility_rules": True},
    {"air_rules": True, "air_superiority": "AXIS", "combat_cards": True, "weather": "snow"},
    {"air_rules": True, "air_theatre": "normandy-1944", "air_sorties": {"ALLIES": 2, "AXIS": 3}, "blitz_rules": True},
    {
        "air_rules": True,
        "air_theatre": "russia-1941",
        "air_sorties": {"ALLIES": 3, "AXIS": 3},
        "russian_commissar_rule": "AXIS",
        "night_visibility_rules": True,
    },
)

# Team tables of six (M44-OV-2) with the expansions the random players meet most, half with an initiative table.
TEAM_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"night_visibility_rules": True, "gung_ho": "AXIS"},
    {"weather": "snow", "italy_high_command": True},
    {"gung_ho": True, "combat_cards": True},
    {"air_rules": True, "air_theatre": "normandy-1944", "air_planes_on_ground": {"bf109": [0, 0]}},
    {"air_rules": True, "air_superiority": "AXIS", "air_sorties": {"ALLIES": 2, "AXIS": 2}, "gung_ho": "AXIS"},
)
