"""Atlantic Storm's rules: `validate` (raises RuleError naming the AS-n reading) and `evolve` (applies an
accepted event with every automatic consequence, never validating). The set-up is in `setup`.

Each AS-n id is explained in this package's RULES.md (the general G-n ids in domain/RULES.md); gap
readings this core adds are marked "gap reading" where they are applied and listed under their id there.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.atlantic_storm.catalogue import Card
from domain.atlantic_storm.combat import (
    card_value,
    fate_effects,
    fighting,
    pending_dice,
    play_value,
    restrictions,
    zone_now,
)
from domain.atlantic_storm.events import (
    AtlanticStormEvent,
    CardDiscarded,
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    ConvoysCut,
    ConvoyTurned,
    DeckReshuffled,
    DiceRolled,
    HandDiscarded,
    IntelligencePlayed,
    SpoilsDivided,
    StormEffect,
    StormRolled,
    StormStruck,
    SupplyTaken,
    ZoneDeclared,
)
from domain.atlantic_storm.state import Battle, Decision, Outcome, Play, State, Storm, Turn
from domain.atlantic_storm.words import FRAMES, OCEANS, PHASES, card_name, chained, commas
from domain.i18n import Catalogue, Message, english
from domain.ruleset import Dispatch, RuleError, dispatch, on

_ = Catalogue("domain.atlantic_storm")

replace = msgspec.structs.replace

HAND = 6
MAX_HAND = 9
REFUELLED = ("ship", "carrier", "escort_group", "submarine", "wolfpack")
MILK_COW_REFUELS = ("submarine", "wolfpack")


# ---------------------------------------------------------------------------------------------------
# Card facts


def card_of(state: State, number: str) -> Card:
    """The catalogue row of a card number, or a refusal that says the number is missing (G-1)."""
    card = state.cards.get(number)
    if card is None:
        raise RuleError(
            "G-1",
            "card_not_in_catalogue",
            _("There is no card {number} in this game's catalogue.", number=number),
            card=number,
        )
    return card


def _live(battle: Battle) -> tuple[Play, ...]:
    return tuple([play for play in battle.plays if not play.cancelled])


def hand_size(state: State, convoys: tuple[str, ...]) -> int:
    """Six, +1 per full convoy won, +1 per two half-full ones, at most nine (AS-12)."""
    full = half = 0
    cards = state.cards
    for number in convoys:
        cargo = cards[number].cargo
        if cargo == "full":
            full += 1
        elif cargo == "half":
            half += 1
    return min(MAX_HAND, HAND + full + half // 2)


# ---------------------------------------------------------------------------------------------------
# Validation


def validate(state: State, event: AtlanticStormEvent) -> None:
    """Raise RuleError if `event` cannot happen at `state` (G-1): the game over and the seat range first,
    then the event's own checks."""
    if state.phase == "over":
        raise RuleError("AS-13", "game_over", _("The game is over."))
    seat = getattr(event, "seat", None)
    if seat is not None and not 0 <= seat < len(state.names):
        _seat(state, seat)
    handler = _VALIDATORS.get(type(event))
    if handler is None:
        raise RuleError("G-1", "unknown_event", _("This is not an Atlantic Storm event."))
    handler(state, event)


def _phase(state: State, *phases: str, rule: str = "AS-3") -> None:
    if state.phase not in phases:
        raise RuleError(
            rule,
            "out_of_turn",
            _("That cannot happen now: the table is at '{phase}'.", phase=PHASES.get(state.phase, state.phase)),
            phase=state.phase,
        )


def _seat(state: State, seat: int) -> None:
    if not 0 <= seat < state.players:
        raise RuleError("G-1", "no_such_seat", _("There is no seat {seat} at this table.", seat=seat), seat=seat)


def _validate_cut(state: State, event: ConvoysCut) -> None:
    _phase(state, "cut", rule="AS-2")
    if len(event.cuts) != state.players:
        raise RuleError("AS-2", "cut_count", _("Every player cuts one convoy."), cuts=len(event.cuts))
    if any(number is None for number in event.cuts):
        raise RuleError("AS-2", "cut_unnamed", _("Name the convoy each player cut."))
    if len(set(event.cuts)) != len(event.cuts):
        raise RuleError("AS-2", "cut_twice", _("Two players cannot cut the same convoy."))
    for number in event.cuts:
        if card_of(state, str(number)).category != "convoy":
            raise RuleError(
                "AS-2", "cut_not_convoy", _("{number} is not a convoy card.", number=str(number)), card=number
            )


def _validate_deal(state: State, event: CardsDealt) -> None:
    _phase(state, "deal", rule="AS-2")
    if len(event.hands) != state.players or any(len(hand) != HAND for hand in event.hands):
        raise RuleError("AS-2", "deal_size", _("The dealer deals six force cards to each player."))
    known = [c for hand in event.hands for c in hand if c is not None]
    if len(set(known)) != len(known):
        raise RuleError("G-2", "dealt_twice", _("A card cannot be dealt twice."))
    for number in known:
        if card_of(state, number).category == "convoy":
            raise RuleError(
                "AS-2", "convoy_dealt", _("{number} is a convoy, not a force card.", number=number), card=number
            )


def _validate_convoy(state: State, event: ConvoyTurned) -> None:
    if state.phase != "turn_convoy":
        _phase(state, "turn_convoy")
    if event.seat != state.leader:
        raise RuleError(
            "AS-3",
            "not_leader",
            _("{player} leads this round.", player=state.names[state.leader]),
            seat=event.seat,
            leader=state.leader,
        )
    numbers = (event.convoy,) if event.discarded is None else (event.convoy, event.discarded)
    if state.variant == "advanced" and event.discarded is None:
        raise RuleError("AS-3", "take_two", _("In the advanced game the leader takes two convoys and keeps one."))
    if state.variant == "basic" and event.discarded is not None:
        raise RuleError("AS-3", "basic_one_convoy", _("In the basic game the leader turns one convoy."))
    if len(set(numbers)) != len(numbers):
        raise RuleError("AS-3", "same_convoy", _("The two convoys taken are different cards."))
    for number in numbers:
        card = card_of(state, number)
        if card.category != "convoy":
            raise RuleError("AS-3", "not_convoy", _("{number} is not a convoy card.", number=number), card=number)
        if number in state.convoys_seen:
            raise RuleError(
                "G-2",
                "convoy_already_out",
                _("{card} has already left the convoy pile.", card=card_name(card)),
                card=number,
            )
    convoy = state.cards[event.convoy]
    if not convoy.years or not convoy.ocean or convoy.vp is None:
        raise RuleError(
            "AS-4",
            "card_not_documented",
            _("The catalogue does not state {card}'s year, ocean and VP.", card=card_name(convoy)),
            card=event.convoy,
        )


def _validate_zone(state: State, event: ZoneDeclared) -> None:
    if state.phase != "declare_zone":
        _phase(state, "declare_zone")
    assert state.battle is not None
    if event.seat != state.battle.leader:
        raise RuleError(
            "AS-3",
            "not_leader",
            _("{player} declares the zone.", player=state.names[state.battle.leader]),
            seat=event.seat,
            leader=state.battle.leader,
        )


def _turn(state: State, seat: int) -> Turn:
    if state.phase != "play":
        _phase(state, "play")
    assert state.battle is not None
    turn = state.battle.queue[0]
    if seat != turn.seat:
        raise RuleError(
            "AS-3",
            "not_your_turn",
            _("It is {player}'s turn.", player=state.names[turn.seat]),
            seat=seat,
            to_play=turn.seat,
        )
    return turn


def _in_hand(state: State, seat: int, numbers: tuple[str, ...]) -> list[Card]:
    """Every card is in the seat's hand: a known card, or one of its face-down cards that the record has
    seen nowhere else (G-2 conservation). Returns the cards' catalogue rows, in order."""
    if len(set(numbers)) != len(numbers):
        raise RuleError("G-2", "card_twice", _("The same card is named twice."))
    hand = state.hands[seat]
    located = state.located
    catalogue = state.cards
    found: list[Card] = []
    hidden = 0
    for number in numbers:
        # card_of only for its refusal: a Card is never falsy.
        card = catalogue.get(number) or card_of(state, number)
        found.append(card)
        if card.category == "convoy":
            raise RuleError(
                "G-2", "convoy_in_hand", _("{number} is a convoy, not a force card.", number=number), card=number
            )
        if number in hand:
            continue
        if number in located:
            raise RuleError(
                "G-2",
                "card_elsewhere",
                _(
                    "{card} is not in {player}'s hand: the record has it elsewhere.",
                    card=card_name(card),
                    player=state.names[seat],
                ),
                card=number,
            )
        hidden += 1
    if hidden > state.unknown[seat]:
        raise RuleError(
            "G-2",
            "card_not_in_hand",
            _("{player} does not hold those cards.", player=state.names[seat]),
            cards=list(numbers),
        )
    return found


def _playable(state: State, card: Card, convoy: Card) -> None:
    """Ocean and year (AS-4)."""
    if not card.years or not card.ocean or not card.side or not card.category:
        raise RuleError(
            "AS-4",
            "card_not_documented",
            _("The catalogue does not state enough of {card} to play it.", card=card_name(card)),
            card=card.number,
        )
    if card.ocean != "any" and card.ocean != convoy.ocean:
        raise RuleError(
            "AS-4",
            "wrong_ocean",
            _("{card} cannot sail in the {ocean}.", card=card_name(card), ocean=OCEANS.get(convoy.ocean, convoy.ocean)),
            card=card.number,
            ocean=convoy.ocean,
        )
    if convoy.years[0] not in card.years:
        raise RuleError(
            "AS-4",
            "wrong_year",
            _("{card} is not available in {year}.", card=card_name(card), year=str(convoy.years[0])),
            card=card.number,
            year=convoy.years[0],
        )


def _intelligence_side(card: Card, side: str | None) -> Message:
    """After an intelligence card the delayed turn plays its side (AS-7)."""
    if side == "allied":
        return _("After {card} the play must be allied.", card=card_name(card))
    return _("After {card} the play must be german.", card=card_name(card))


_SIDE_CLOSED = {
    "allied": _("After the earlier special card, only allied cards may be played this round (or a discard)."),
    "german": _("After the earlier special card, only german cards may be played this round (or a discard)."),
    "nobody": _("After the earlier special card, only nobody cards may be played this round (or a discard)."),
}
"""Raid on St Nazaire holds later plays to the Allies, 2nd Happy Time to the Germans, both to nobody (AS-7)."""


def _side_allowed(state: State, battle: Battle, side: str | None, turn: Turn, cards: list[Card]) -> None:
    only, black_gap = restrictions(state, battle)
    if side is None:
        return
    if turn.side is not None and side != turn.side:
        raise RuleError(
            "AS-7",
            "intelligence_side",
            _intelligence_side(state.cards[turn.intelligence or ""], turn.side),
            side=side,
        )
    if only is not None and side != only:
        raise RuleError(
            "AS-7",
            "side_closed",
            _SIDE_CLOSED.get(only) or _SIDE_CLOSED["nobody"],
            side=side,
            only=only,
        )
    if black_gap and side == "allied" and any(c.type == "air" and c.category == "normal" for c in cards):
        raise RuleError("AS-7", "black_gap", _("Black Gap: no Allied aircraft may be played after it this round."))


def _validate_play(state: State, event: CardsPlayed) -> None:
    turn = _turn(state, event.seat)
    battle = state.battle
    assert battle is not None
    numbers = _played_cards(event)
    if not numbers:
        raise RuleError("AS-3", "empty_play", _("A play needs at least one card; otherwise discard one."))
    cards = _in_hand(state, event.seat, numbers)
    catalogue = state.cards
    convoy = catalogue[battle.convoy]
    for card in cards:
        _playable(state, card, convoy)
    for number in event.normals:
        if catalogue[number].category != "normal":
            raise RuleError(
                "AS-4", "not_normal", _("{card} is not a normal card.", card=card_name(catalogue[number])), card=number
            )
    for number in event.supplies:
        if catalogue[number].category != "supply":
            raise RuleError(
                "AS-8", "not_supply", _("{card} is not a supply card.", card=card_name(catalogue[number])), card=number
            )
    for number in event.specials:
        card = catalogue[number]
        if card.category != "special":
            raise RuleError(
                "AS-7", "not_special", _("{card} is not a special card.", card=card_name(card)), card=number
            )
        if card.special == "intelligence":
            raise RuleError(
                "AS-7",
                "intelligence_instead",
                _("{card} is played instead of a play, not with one.", card=card_name(card)),
                card=number,
            )
    side: str | None = None
    for card in cards:
        if card.side == "either":
            continue
        if side is not None and card.side != side:
            raise RuleError(
                "AS-3",
                "mixed_sides",
                _("A play uses the cards of one side only, never Allied and German cards together."),
            )
        side = card.side
    _side_allowed(state, battle, side, turn, cards)
    _check_admiral(state, event)
    _check_bonuses(state, event)
    _check_raids(state, battle, event)
    for number in event.specials:
        if catalogue[number].special == "storm" and battle.storm is not None:
            raise RuleError("AS-7", "storm_in_play", _("A storm is already in play this round."))
    doubled, destroyed = fate_effects(state, battle, event.seat, numbers)
    expected = set(destroyed) | ({battle.convoy} if doubled else set())
    if set(event.victims) != expected:
        _check_reach(state, battle, event, numbers)
        raise RuleError(
            "AS-6",
            "victims_misannounced",
            _victims_expected(state, expected),
            announced=list(event.victims),
            expected=sorted(expected),
        )


def _victims_expected(state: State, expected: set[str]) -> Message:
    """The refusal of a play whose fate victims were misannounced, naming those it has (AS-6)."""
    names = sorted((card_name(state.cards[v]) for v in expected), key=english)
    if not names:
        return _("The fate victims announced are not those of this play: none.")
    return _("The fate victims announced are not those of this play: {cards}.", cards=commas(names))


def _check_reach(state: State, battle: Battle, event: CardsPlayed, numbers: tuple[str, ...]) -> None:
    """AS-19: a victim announced from the battle's first half is out of a second-half fate card's reach."""
    mine = {state.victims.get(n) for n in numbers}
    for play in battle.plays:
        if play.half == battle.half or play.cancelled:
            continue
        for victim in event.victims:
            if victim in mine and victim in fighting(play):
                raise RuleError(
                    "AS-19",
                    "victim_out_of_reach",
                    _(
                        "{card} was played in the first round of play of this battle: a fate card reaches only a "
                        "victim played in its own round of play.",
                        card=card_name(state.cards[victim]),
                    ),
                    victim=victim,
                )


def _check_admiral(state: State, event: CardsPlayed) -> None:
    admirals = [n for n in event.specials if state.cards[n].special == "admiral"]
    if not admirals:
        if event.admiral is not None:
            raise RuleError("AS-7", "no_admiral", _("Only an admiral changes the zone or allows two normal cards."))
        if len(event.normals) > 1:
            raise RuleError("AS-7", "two_normals", _("A play has one normal card (two only with an admiral)."))
        return
    if event.admiral is None:
        raise RuleError("AS-7", "admiral_use", _("Say how the admiral is used: combined zone or two normal cards."))
    if event.admiral == "two_normals" and len(event.normals) != 2:
        raise RuleError("AS-7", "admiral_two_normals", _("The admiral's second use is two normal cards."))
    if event.admiral == "combined" and len(event.normals) != 1:
        # 002 §9 A: "play a normal card normally, but change the zone": the admiral comes with one.
        raise RuleError(
            "AS-7", "admiral_one_normal", _("Used to change the zone, the admiral comes with one normal card.")
        )


def _check_bonuses(state: State, event: CardsPlayed) -> None:
    for bonus in event.bonuses:
        card = state.cards[bonus.card]
        if card.category != "bonus":
            raise RuleError(
                "AS-4", "not_bonus", _("{card} is not a bonus card.", card=card_name(card)), card=bonus.card
            )
        if bonus.parent is None:
            if card.special != "standalone":
                raise RuleError(
                    "AS-4",
                    "bonus_alone",
                    _("{card} must be attached to a normal card.", card=card_name(card)),
                    card=bonus.card,
                )
            continue
        if bonus.parent not in event.normals:
            raise RuleError(
                "AS-4",
                "bonus_parent",
                _("{card} attaches to a normal card of this play, never to another bonus.", card=card_name(card)),
                card=bonus.card,
                parent=bonus.parent,
            )
        parent = state.cards[bonus.parent]
        if not card.type or not parent.type:
            raise RuleError("AS-4", "card_not_documented", _("The catalogue does not state these cards' frames."))
        if card.type != "any" and card.type != parent.type:
            raise RuleError(
                "AS-4",
                "bonus_type",
                _(
                    "{card} ({frame}) cannot attach to {parent} ({parent_frame}).",
                    card=card_name(card),
                    frame=FRAMES.get(card.type, card.type),
                    parent=card_name(parent),
                    parent_frame=FRAMES.get(parent.type, parent.type),
                ),
                card=bonus.card,
                parent=bonus.parent,
            )


def _check_raids(state: State, battle: Battle, event: CardsPlayed) -> None:
    for number in event.specials:
        special = state.cards[number].special
        if special not in ("raid", "happy_time"):
            continue
        zone = "combined" if event.admiral == "combined" else zone_now(battle)
        needed = "surface" if special == "raid" else "submarine"
        if zone not in (needed, "combined"):
            raise RuleError(
                "AS-7",
                "raid_zone",
                _("{card} is played in a surface or combined battle.", card=card_name(state.cards[number]))
                if needed == "surface"
                else _("{card} is played in a submarine or combined battle.", card=card_name(state.cards[number])),
                card=number,
                zone=zone,
            )
        if any(state.cards[n].type != needed for n in event.normals):
            raise RuleError(
                "AS-7",
                "raid_partner",
                _("{card} is played alone or with a surface card.", card=card_name(state.cards[number]))
                if needed == "surface"
                else _("{card} is played alone or with a submarine card.", card=card_name(state.cards[number])),
                card=number,
            )


def _validate_intelligence(state: State, event: IntelligencePlayed) -> None:
    turn = _turn(state, event.seat)
    battle = state.battle
    assert battle is not None
    if turn.intelligence is not None:
        raise RuleError(
            "AS-7", "intelligence_twice", _("The delayed turn is a play or the discard of the intelligence card.")
        )
    _in_hand(state, event.seat, (event.card,))
    card = state.cards[event.card]
    if card.special != "intelligence":
        raise RuleError(
            "AS-7", "not_intelligence", _("{card} is not an intelligence card.", card=card_name(card)), card=event.card
        )
    _playable(state, card, state.cards[battle.convoy])
    _side_allowed(state, battle, card.side, turn, [card])


def _validate_discard(state: State, event: CardDiscarded) -> None:
    turn = _turn(state, event.seat)
    if event.card is None and turn.intelligence is None:
        if not state.unknown[event.seat]:
            raise RuleError(
                "G-2",
                "no_face_down_card",
                _("{player} holds no face-down card: name the card discarded.", player=state.names[event.seat]),
            )
        return
    if turn.intelligence is not None:
        if event.card != turn.intelligence:
            raise RuleError(
                "AS-7",
                "discard_intelligence",
                _("Choosing not to play, the player discards his intelligence card."),
                card=event.card,
            )
        return
    _in_hand(state, event.seat, (str(event.card),))


def _validate_hand_discard(state: State, event: HandDiscarded) -> None:
    turn = _turn(state, event.seat)
    if state.variant != "advanced":
        raise RuleError("AS-3", "one_card_discard", _("In the basic game a player discards exactly one card."))
    if turn.intelligence is not None:
        raise RuleError(
            "AS-7", "discard_intelligence", _("Choosing not to play, the player discards his intelligence card.")
        )
    named = tuple(c for c in event.cards if c is not None)
    _in_hand(state, event.seat, named)
    # The unnamed cards are face-down ones (G-2); with those named, no more than the hand holds.
    if len(event.cards) - len(named) + sum(c not in state.hands[event.seat] for c in named) > state.unknown[event.seat]:
        raise RuleError(
            "G-2", "card_not_in_hand", _("{player} does not hold those cards.", player=state.names[event.seat])
        )
    whole = set(state.hands[event.seat]) <= set(named)
    if len(event.cards) != state.hand_count(event.seat) or not whole:
        raise RuleError(
            "AS-3",
            "whole_hand",
            _("Discarding the hand means every card of it."),
            cards=len(event.cards),
            hand=state.hand_count(event.seat),
        )


def _validate_storm_roll(state: State, event: StormRolled) -> None:
    _phase(state, "storm_roll", rule="AS-7")
    assert state.battle is not None and state.battle.storm is not None
    if event.seat != state.battle.storm.holder:
        raise RuleError(
            "AS-7", "not_storm_holder", _("{player} rolls the storm.", player=state.names[state.battle.storm.holder])
        )
    _face(event.face)


def _face(face: int) -> None:
    if not 1 <= face <= 6:
        raise RuleError("G-4", "bad_face", _("A die shows 1 to 6."), face=face)


def storm_choices(state: State, target: int) -> tuple[tuple[StormEffect, int | None], ...]:
    """What a storm's 1-3 may do to `target`, as (effect, half): cancel the play he has standing in a half
    of this battle, one choice per half, or skip his next play in this battle (AS-7, AS-18).

    Gap reading: an intelligence card's delayed turn belongs to its play; cancelling that play takes
    the turn away, so the delayed turn offers no separate skip."""
    battle = state.battle
    assert battle is not None
    halves = sorted({p.half for p in battle.plays if p.seat == target and not p.cancelled})
    choices: list[tuple[StormEffect, int | None]] = [("cancel", half) for half in halves]
    waiting = any(t.seat == target and t.intelligence is None for t in battle.queue)
    if waiting or (state.players == 2 and battle.half == 1 and target not in battle.skips):
        choices.append(("skip", None))
    return tuple(choices)


def storm_hit(state: State, event: StormStruck) -> tuple[tuple[int, ...], bool]:
    """What an accepted strike does to its target (AS-7, AS-18): the halves of the battle whose play by
    the target it cancels, and whether it takes away his next play. A strike without `effect` does all
    that a strike did before the choice was recorded: it cancels every play of the target still standing
    and takes away his turn still to come in this half (RULES.md, AS-18: stored games fold unchanged)."""
    battle = state.battle
    assert battle is not None
    target = event.target
    if target is None:
        return (), False
    if event.effect == "skip":
        return (), True
    if event.effect == "cancel" and event.half is not None:
        return (event.half,), False
    halves = tuple(sorted({p.half for p in battle.plays if p.seat == target and not p.cancelled}))
    if event.effect == "cancel":
        return halves, False
    return halves, any(t.seat == target and t.intelligence is None for t in battle.queue)


def _validate_storm_strike(state: State, event: StormStruck) -> None:
    _phase(state, "storm_choice", rule="AS-7")
    assert state.battle is not None and state.battle.storm is not None
    if event.seat != state.battle.storm.holder:
        raise RuleError(
            "AS-7", "not_storm_holder", _("{player} uses the storm.", player=state.names[state.battle.storm.holder])
        )
    rule = "AS-18" if state.players == 2 else "AS-7"
    target = event.target
    if target is None:
        if event.effect is not None or event.half is not None:
            raise RuleError(rule, "storm_no_target", _("A storm used on nobody cancels and skips nothing."))
        return
    choices = storm_choices(state, target) if 0 <= target < state.players else ()
    if not choices:
        raise RuleError(
            "AS-7",
            "storm_target",
            _("The storm hits a player who has a play standing in this battle or a play still to make."),
            target=target,
        )
    name = state.names[target]
    if event.half is not None and event.effect != "cancel":
        raise RuleError(rule, "storm_which_play", _("Only a cancelled play names its half."), half=event.half)
    if event.effect is None:
        # Three or more players: a strike can do only one thing to a player (RULES.md, AS-7).
        if state.players == 2:
            raise RuleError(
                "AS-18",
                "storm_choice",
                _(
                    "Say what the storm does to {player}: cancel one play {player} has made in this battle, or make "
                    "{player} skip the next play; never both.",
                    player=name,
                ),
                target=target,
            )
        return
    if event.effect == "skip":
        if ("skip", None) not in choices:
            raise RuleError(
                rule,
                "nothing_to_skip",
                _("{player} has no play left to make in this battle.", player=name),
                target=target,
            )
        return
    halves = [half for effect, half in choices if effect == "cancel"]
    if not halves:
        raise RuleError(
            rule,
            "nothing_to_cancel",
            _("{player} has no play standing in this battle to cancel.", player=name),
            target=target,
        )
    if (event.half is None and len(halves) > 1) or (event.half is not None and event.half not in halves):
        raise RuleError(
            rule,
            "storm_which_play",
            _(
                "Say which of {player}'s plays the storm cancels: half {halves} of the battle.",
                player=name,
                halves=chained([str(h) for h in halves], either=True),
            ),
            half=event.half,
            halves=halves,
        )


def _validate_dice(state: State, event: DiceRolled) -> None:
    _phase(state, "dice", rule="AS-5")
    for seat, card, dice in pending_dice(state):
        if card == event.card:
            if seat != event.seat:
                raise RuleError(
                    "AS-5",
                    "not_your_die",
                    _("{player} rolls for {card}.", player=state.names[seat], card=card_name(state.cards[card])),
                )
            if len(event.faces) != dice:
                raise RuleError(
                    "AS-5",
                    "dice_count",
                    _("{card} takes {count} dice here.", card=card_name(state.cards[card]), count=dice),
                    dice=dice,
                    faces=len(event.faces),
                )
            for face in event.faces:
                _face(face)
            return
    raise RuleError("AS-5", "no_die", _("No die is due for that card."), card=event.card)


def _validate_supply(state: State, event: SupplyTaken) -> None:
    _phase(state, "supply", rule="AS-8")
    battle = state.battle
    assert battle is not None and battle.outcome is not None
    seat, supply = battle.outcome.supplies[0]
    if (event.seat, event.supply) != (seat, supply):
        raise RuleError(
            "AS-8",
            "supply_order",
            _(
                "{player}'s {card} chooses now (the first supply card played chooses first).",
                player=state.names[seat],
                card=card_name(state.cards[supply]),
            ),
        )
    if event.card is not None and event.card not in supply_candidates(state, supply):
        raise RuleError(
            "AS-8",
            "supply_target",
            _(
                "A supply card refuels a ship, escort group, submarine or wolfpack (milk cow: submarine or "
                "wolfpack) of the winning side from this battle, never an aircraft."
            ),
            card=event.card,
        )


def supply_candidates(state: State, supply: str) -> tuple[str, ...]:
    """What a winning supply card may take back into its player's hand (AS-8)."""
    battle = state.battle
    assert battle is not None and battle.outcome is not None
    units = MILK_COW_REFUELS if state.cards[supply].special == "milk_cow" else REFUELLED
    return tuple(n for n in battle.outcome.candidates if state.cards[n].unit in units)


def _validate_spoils(state: State, event: SpoilsDivided) -> None:
    _phase(state, "spoils", rule="AS-15")
    battle = state.battle
    assert battle is not None and battle.outcome is not None
    outcome = battle.outcome
    if event.seat != outcome.trick_winner:
        raise RuleError(
            "AS-15", "not_trick_winner", _("{player} divides the spoils.", player=state.names[outcome.trick_winner])
        )
    seats = [share.seat for share in event.shares]
    if len(set(seats)) != len(seats) or not set(seats) <= set(outcome.eligible):
        raise RuleError(
            "AS-15",
            "not_eligible",
            _("Spoils go only to winning-side players of the final round with a surviving card of value 1 or more."),
            eligible=list(outcome.eligible),
        )
    given = sorted(c for share in event.shares for c in share.cards)
    if given != sorted(outcome.trick):
        raise RuleError(
            "AS-15", "spoils_cards", _("Every card of the trick is given, once."), trick=list(outcome.trick)
        )
    counts = {seat: 0 for seat in outcome.eligible}
    for share in event.shares:
        counts[share.seat] = len(share.cards)
    if max(counts.values()) - min(counts.values()) > 1:
        raise RuleError(
            "AS-15",
            "spoils_uneven",
            _("Each player gets one card before anyone gets a second, and so on."),
            counts={str(k): v for k, v in counts.items()},
        )


def draw_needed(state: State, seat: int) -> int:
    """Cards a seat still draws to reach its hand size (AS-12)."""
    return max(0, state.hand_sizes[seat] - state.hand_count(seat))


def _validate_draw(state: State, event: CardsDrawn) -> None:
    if state.phase != "refill":
        _phase(state, "refill", rule="AS-12")
    seat = state.draw_queue[0]
    if event.seat != seat:
        raise RuleError(
            "AS-12",
            "draw_order",
            _("{player} draws now (refills go in order from the next round's leader).", player=state.names[seat]),
            seat=event.seat,
            to_draw=seat,
        )
    need = draw_needed(state, seat)
    if not event.cards or len(event.cards) > need:
        raise RuleError(
            "AS-12",
            "draw_count",
            _("{player} draws up to {count} card(s).", player=state.names[seat], count=need),
            drawn=len(event.cards),
            need=need,
        )
    if len(event.cards) > state.deck:
        raise RuleError(
            "AS-12",
            "deck_short",
            _("The deck holds {count} card(s); reshuffle the discard pile when it runs out.", count=state.deck),
            deck=state.deck,
        )
    known = [c for c in event.cards if c is not None]
    if len(set(known)) != len(known):
        raise RuleError("G-2", "card_twice", _("The same card is named twice."))
    catalogue = state.cards
    located = state.located
    for number in known:
        # card_of only for its refusal: a Card is never falsy.
        card = catalogue.get(number) or card_of(state, number)
        if card.category == "convoy":
            raise RuleError(
                "AS-12", "convoy_drawn", _("{number} is a convoy, not a force card.", number=number), card=number
            )
        if number in located:
            raise RuleError(
                "G-2",
                "card_elsewhere",
                _("{card} cannot be drawn: the record has it elsewhere.", card=card_name(card)),
                card=number,
            )


def _validate_reshuffle(state: State, event: DeckReshuffled) -> None:
    _phase(state, "refill", rule="AS-12")
    if state.deck > 0 or not (state.discard or state.discard_face_down):
        raise RuleError(
            "AS-12",
            "no_reshuffle",
            _("The discard pile is reshuffled only when the deck has run out."),
            deck=state.deck,
        )


_VALIDATORS: Dispatch[AtlanticStormEvent, State, None] = dispatch(
    on(ConvoysCut, _validate_cut),
    on(CardsDealt, _validate_deal),
    on(ConvoyTurned, _validate_convoy),
    on(ZoneDeclared, _validate_zone),
    on(CardsPlayed, _validate_play),
    on(IntelligencePlayed, _validate_intelligence),
    on(CardDiscarded, _validate_discard),
    on(HandDiscarded, _validate_hand_discard),
    on(StormRolled, _validate_storm_roll),
    on(StormStruck, _validate_storm_strike),
    on(DiceRolled, _validate_dice),
    on(SupplyTaken, _validate_supply),
    on(SpoilsDivided, _validate_spoils),
    on(CardsDrawn, _validate_draw),
    on(DeckReshuffled, _validate_reshuffle),
)


# ---------------------------------------------------------------------------------------------------
# Evolution


def evolve(state: State, event: AtlanticStormEvent) -> State:
    """Apply an accepted event and every automatic consequence."""
    return _EVOLVERS[type(event)](state, event)


def _number_key(number: str) -> int:
    return int(number[1:])


def _evolve_cut(state: State, event: ConvoysCut) -> State:
    cuts = event.cuts
    dealer = min(range(state.players), key=lambda s: _number_key(str(cuts[s])))
    return replace(state, dealer=dealer, leader=dealer, phase="deal")


def _evolve_deal(state: State, event: CardsDealt) -> State:
    hands = tuple(tuple(c for c in hand if c is not None) for hand in event.hands)
    unknown = tuple(sum(1 for c in hand if c is None) for hand in event.hands)
    located = frozenset(c for hand in hands for c in hand)
    return replace(
        state,
        hands=hands,
        unknown=unknown,
        located=located,
        deck=state.deck - HAND * state.players,
        phase="turn_convoy",
    )


def _evolve_turn_convoy(state: State, event: ConvoyTurned) -> State:
    seen = state.convoys_seen | {event.convoy}
    convoy_discard = state.convoy_discard
    if event.discarded is not None:
        seen = seen | {event.discarded}
        convoy_discard = (*convoy_discard, event.discarded)
    battle = Battle(number=state.battles_fought + 1, convoy=event.convoy, leader=event.seat)
    return replace(state, convoys_seen=seen, convoy_discard=convoy_discard, battle=battle, phase="declare_zone")


def _order_from(state: State, leader: int) -> tuple[int, ...]:
    players = len(state.names)
    return tuple([(leader + i) % players for i in range(players)])


def _evolve_declare(state: State, event: ZoneDeclared) -> State:
    battle = state.battle
    assert battle is not None
    queue = tuple(Turn(seat=s) for s in _order_from(state, battle.leader))
    return replace(state, battle=replace(battle, zone=event.zone, queue=queue), phase="play")


def _played_cards(event: CardsPlayed) -> tuple[str, ...]:
    """Every card of a play: normals, bonuses, specials, supplies."""
    numbers = list(event.normals)
    for bonus in event.bonuses:
        numbers.append(bonus.card)
    return (*numbers, *event.specials, *event.supplies)


def _leave_hand(state: State, seat: int, numbers: tuple[str, ...]) -> dict[str, Any]:
    """The fields that change when cards leave a seat's hand: known cards go from it, the others were
    face down and are now located (G-2). Returned, not applied, so the caller copies the state once."""
    hands = state.hands
    hand = hands[seat]
    kept = tuple([c for c in hand if c not in numbers])
    revealed = len(numbers) - (len(hand) - len(kept))
    changes: dict[str, Any] = {"hands": (*hands[:seat], kept, *hands[seat + 1 :])}
    if revealed:
        unknown = state.unknown
        changes["unknown"] = (*unknown[:seat], unknown[seat] - revealed, *unknown[seat + 1 :])
        changes["located"] = state.located.union(numbers)
    return changes


def _evolve_play(state: State, event: CardsPlayed) -> State:
    battle = state.battle
    assert battle is not None
    seat = event.seat
    numbers = _played_cards(event)
    cards = state.cards
    # At most one side once validated (AS-3); "either" cards (storms) take no side.
    side: str | None = None
    for number in numbers:
        card_side = cards[number].side
        if card_side != "either":
            side = card_side
    victims = state.victims
    doubled: tuple[str, ...] = ()
    destroyed: tuple[str, ...] = ()
    if not victims.keys().isdisjoint(numbers):
        convoy = battle.convoy
        doubled = tuple([n for n in numbers if victims.get(n) == convoy])
        # AS-6, AS-19: the play destroys the victims it announced, which the rules checked when it was
        # recorded; a record kept from before AS-19 keeps the victims it then had to announce.
        announced = event.victims
        destroyed = tuple([v for n in numbers if (v := victims.get(n)) is not None and v != convoy and v in announced])
    captured = state.captured
    discard = state.discard
    if destroyed:
        plays = list(battle.plays)
        for victim in destroyed:
            # AS-6: a normal victim goes face down to the fate card's player; a bonus victim and a destroyed
            # card's bonuses go to the discard.
            for i, play in enumerate(plays):
                if play.cancelled:
                    continue
                if victim in play.normals:
                    gone = tuple(b.card for b in play.bonuses if b.parent == victim)
                    discard = discard + gone
                    mine = (*captured[seat], victim)
                    captured = (*captured[:seat], mine, *captured[seat + 1 :])
                    plays[i] = replace(
                        play,
                        normals=tuple(n for n in play.normals if n != victim),
                        bonuses=tuple(b for b in play.bonuses if b.parent != victim),
                        lost=(*play.lost, victim, *gone),
                    )
                elif any(b.card == victim for b in play.bonuses):
                    discard = (*discard, victim)
                    plays[i] = replace(
                        play, bonuses=tuple(b for b in play.bonuses if b.card != victim), lost=(*play.lost, victim)
                    )
        standing = tuple(plays)
    else:
        standing = battle.plays
    new = Play(
        seat=seat,
        order=battle.next_order,
        half=battle.half,
        side=side,
        normals=event.normals,
        bonuses=event.bonuses,
        specials=event.specials,
        supplies=event.supplies,
        admiral=event.admiral,
        doubled=doubled,
        took=destroyed,
    )
    storm = battle.storm
    for number in event.specials:
        if cards[number].special == "storm":
            storm = Storm(card=number, holder=seat)
    battle = replace(battle, plays=(*standing, new), next_order=battle.next_order + 1, storm=storm)
    return _end_turn(state, battle, seat, captured=captured, discard=discard, **_leave_hand(state, seat, numbers))


def _evolve_intelligence(state: State, event: IntelligencePlayed) -> State:
    battle = state.battle
    assert battle is not None
    card = state.cards[event.card]
    play = Play(seat=event.seat, order=battle.next_order, half=battle.half, side=card.side, intelligence=event.card)
    # AS-7: the turn moves to the end of the round, for the intelligence card's side only.
    queue = (*battle.queue, Turn(seat=event.seat, intelligence=event.card, side=card.side))
    battle = replace(battle, plays=(*battle.plays, play), next_order=battle.next_order + 1, queue=queue)
    return _end_turn(state, battle, event.seat, **_leave_hand(state, event.seat, (event.card,)))


def _evolve_discard_card(state: State, event: CardDiscarded) -> State:
    battle = state.battle
    assert battle is not None
    if event.card is None:  # one of the hand's face-down cards, unseen (G-2)
        seat, unknown = event.seat, state.unknown
        unknown = (*unknown[:seat], unknown[seat] - 1, *unknown[seat + 1 :])
        return _end_turn(state, battle, seat, unknown=unknown, discard_face_down=state.discard_face_down + 1)
    discard = (*state.discard, event.card)
    if battle.queue[0].intelligence is not None:
        plays = tuple([replace(p, intelligence=None) if p.intelligence == event.card else p for p in battle.plays])
        return _end_turn(state, replace(battle, plays=plays), event.seat, discard=discard)
    return _end_turn(state, battle, event.seat, discard=discard, **_leave_hand(state, event.seat, (event.card,)))


def _evolve_discard_hand(state: State, event: HandDiscarded) -> State:
    battle = state.battle
    assert battle is not None
    named = tuple(c for c in event.cards if c is not None)
    changes = _leave_hand(state, event.seat, named)
    unseen = len(event.cards) - len(named)
    if unseen:  # face-down cards onto the face-down pile, unnamed (G-2)
        unknown = changes.get("unknown", state.unknown)
        seat = event.seat
        changes["unknown"] = (*unknown[:seat], unknown[seat] - unseen, *unknown[seat + 1 :])
        changes["discard_face_down"] = state.discard_face_down + unseen
    return _end_turn(state, battle, event.seat, discard=state.discard + named, **changes)


def _end_turn(state: State, battle: Battle, seat: int, **changes: Any) -> State:
    """The turn is over: the storm's holder rolls (AS-7), else the next player's turn or the round's end.
    `changes` are the turn's own changes to the table, applied in the same copy of the state."""
    battle = replace(battle, queue=battle.queue[1:])
    if battle.storm is not None and battle.storm.holder == seat:
        return replace(state, battle=battle, phase="storm_roll", **changes)
    if battle.queue:
        return replace(state, battle=battle, phase="play", **changes)
    return _round_over(replace(state, **changes), battle)


def _next_turn(state: State, battle: Battle) -> State:
    if battle.queue:
        return replace(state, battle=battle, phase="play")
    return _round_over(state, battle)


def _evolve_storm_roll(state: State, event: StormRolled) -> State:
    battle = state.battle
    assert battle is not None and battle.storm is not None
    if event.face <= 3:
        return replace(state, phase="storm_choice")
    # AS-7: 4-6, the storm passes to the next player, who uses it at the end of his turn.
    if battle.queue:
        storm: Storm | None = replace(battle.storm, holder=battle.queue[0].seat)
    elif state.players == 2 and battle.half == 1:
        storm = replace(battle.storm, holder=battle.leader)  # AS-14: an unfired storm carries over
    else:
        storm = None
    return _next_turn(state, replace(battle, storm=storm))


def _evolve_storm_strike(state: State, event: StormStruck) -> State:
    battle = state.battle
    assert battle is not None
    discard = state.discard
    plays = battle.plays
    queue = battle.queue
    skips = battle.skips
    target = event.target
    cancels, skip = storm_hit(state, event)
    if cancels:
        # AS-7, AS-18: a play cancelled goes to the discard and its effects end at once, an intelligence
        # card's delayed turn with it.
        new_plays = []
        for play in plays:
            if play.seat == target and play.half in cancels and not play.cancelled:
                discard = discard + play.cards()
                play = replace(play, cancelled=True)
            new_plays.append(play)
        plays = tuple(new_plays)
        if battle.half in cancels:
            queue = tuple([t for t in queue if t.seat != target or t.intelligence is None])
    if skip and target is not None:
        # AS-18: the next play is the turn still to come in this half, else the second half's.
        if any(t.seat == target and t.intelligence is None for t in queue):
            queue = tuple([t for t in queue if t.seat != target or t.intelligence is not None])
        else:
            skips = (*skips, target)
    battle = replace(battle, plays=plays, queue=queue, storm=None, skips=skips)
    return _next_turn(replace(state, discard=discard), battle)


def _round_over(state: State, battle: Battle) -> State:
    if state.players == 2 and battle.half == 1:
        # AS-14: both players refill, then the second round of the battle.
        return _refill(state, battle, battle.leader, "half_two")
    if pending_dice(state, battle):
        return replace(state, battle=battle, phase="dice")
    return _resolve(state, battle)


def _evolve_dice(state: State, event: DiceRolled) -> State:
    battle = state.battle
    assert battle is not None
    plays = tuple(
        [
            replace(p, dice=(*p.dice, (event.card, event.faces)))
            if p.seat == event.seat and not p.cancelled and event.card in fighting(p)
            else p
            for p in battle.plays
        ]
    )
    battle = replace(battle, plays=plays)
    if pending_dice(state, battle):
        return replace(state, battle=battle)
    return _resolve(state, battle)


def _resolve(state: State, battle: Battle) -> State:
    """The round is fought: no combat (AS-11), a tie (AS-10) or a winner (AS-9)."""
    live = _live(battle)
    zone = zone_now(battle)
    cards = state.cards
    values: list[int] = []
    allied = german = 0
    for play in live:
        value = play_value(state, play, zone)
        values.append(value)
        if play.side == "allied":
            allied += value
        elif play.side == "german":
            german += value
    if allied == german == 0:
        # AS-11: nobody wins; the convoy and every card under it go to the discard piles.
        on_table = [n for play in live for n in play.cards()]
        under = [n for _, n in battle.under]
        return _battle_over(
            state,
            battle,
            discard=state.discard + tuple(on_table) + tuple(under),
            convoy_discard=(*state.convoy_discard, battle.convoy),
            decision=_decision(battle, "no_combat", allied, german),
        )
    if allied == german:
        # AS-10: the confronted cards go under the convoy; specials are discarded at the round's end.
        keep: list[tuple[int, str]] = []
        gone: list[str] = []
        for play in live:
            for number in play.cards():
                if cards[number].category == "special":
                    gone.append(number)
                else:
                    keep.append((play.seat, number))
        tied = replace(
            battle,
            under=battle.under + tuple(keep),
            plays=(),
            queue=(),
            storm=None,
            round=battle.round + 1,
            half=1,
            zone=None,
            leader=(battle.leader + 1) % state.players,
        )
        return _refill(
            state,
            tied,
            tied.leader,
            "declare_zone",
            discard=state.discard + tuple(gone),
            decision=_decision(battle, "tie", allied, german),
        )
    side = "allied" if allied > german else "german"
    # AS-9: the trick goes to the winning side's highest play, the earliest played on equal values.
    best: Play | None = None
    top = 0
    for value, play in zip(values, live, strict=True):
        if play.side == side and (best is None or value > top or (value == top and play.order < best.order)):
            best, top = play, value
    assert best is not None
    trick: list[str] = [battle.convoy]
    to_discard: list[str] = []
    candidates: list[str] = []
    supplies: list[tuple[int, str]] = []
    everything = list(battle.under) + [(p.seat, n) for p in live for n in p.cards()]
    for seat, number in everything:
        card = cards[number]
        category = card.category
        if card.side == side:
            if category == "supply":
                supplies.append((seat, number))
                to_discard.append(number)
            elif category == "normal":
                candidates.append(number)
                to_discard.append(number)
            else:
                to_discard.append(number)
        elif category in ("normal", "supply"):
            trick.append(number)  # AS-9, AS-8: the losing side's normal and supply cards are destroyed
        else:
            to_discard.append(number)
    eligible = _eligible(state, battle, side, zone, best.seat) if state.variant == "advanced" else (best.seat,)
    outcome = Outcome(
        side=side,
        totals=(allied, german),
        trick_winner=best.seat,
        trick=tuple(trick),
        to_discard=tuple(to_discard),
        supplies=tuple(supplies),
        candidates=tuple(candidates),
        eligible=eligible,
    )
    battle = replace(battle, outcome=outcome, storm=None, queue=())
    decision = _decision(battle, side, allied, german, best.seat)
    return _after_supplies(replace(state, battle=battle, decision=decision))


def _decision(battle: Battle, kind: str, allied: int, german: int, trick_winner: int | None = None) -> Decision:
    return Decision(
        kind=kind,
        battle=battle.number,
        round=battle.round,
        convoy=battle.convoy,
        allied=allied,
        german=german,
        trick_winner=trick_winner,
    )


def _eligible(state: State, battle: Battle, side: str, zone: str, trick_winner: int) -> tuple[int, ...]:
    """Advanced game (AS-15): winning-side players of the final round with a surviving card of value 1
    or more in the zone; the trick winner always shares."""
    seats = {trick_winner}
    cards = state.cards
    for play in battle.plays:
        # A seat already sharing needs no second look.
        if play.cancelled or play.side != side or play.seat in seats:
            continue
        faces = dict(play.dice)
        for number in (*play.normals, *[b.card for b in play.bonuses if b.parent is None]):
            if card_value(cards[number], zone, faces.get(number, ()), number in play.doubled) >= 1:
                seats.add(play.seat)
                break
    return tuple(sorted(seats))


def _after_supplies(state: State) -> State:
    battle = state.battle
    assert battle is not None and battle.outcome is not None
    if battle.outcome.supplies:
        return replace(state, phase="supply")
    if state.variant == "advanced" and len(battle.outcome.eligible) > 1:
        return replace(state, phase="spoils")
    return _award(state, ((battle.outcome.trick_winner, battle.outcome.trick),))


def _evolve_supply(state: State, event: SupplyTaken) -> State:
    battle = state.battle
    assert battle is not None and battle.outcome is not None
    outcome = battle.outcome
    hands = state.hands
    to_discard = outcome.to_discard
    candidates = outcome.candidates
    if event.card is not None:
        # AS-8: the refuelled card goes into the supply player's hand instead of the discard.
        hands = (*hands[: event.seat], (*hands[event.seat], event.card), *hands[event.seat + 1 :])
        to_discard = tuple(n for n in to_discard if n != event.card)
        candidates = tuple(n for n in candidates if n != event.card)
    outcome = replace(outcome, supplies=outcome.supplies[1:], to_discard=to_discard, candidates=candidates)
    return _after_supplies(replace(state, hands=hands, battle=replace(battle, outcome=outcome)))


def _evolve_spoils(state: State, event: SpoilsDivided) -> State:
    return _award(state, tuple((share.seat, share.cards) for share in event.shares))


def _award(state: State, shares: tuple[tuple[int, tuple[str, ...]], ...]) -> State:
    battle = state.battle
    assert battle is not None and battle.outcome is not None
    convoys = list(state.convoys_won)
    captured = list(state.captured)
    sizes = list(state.hand_sizes)
    cards = state.cards
    for seat, numbers in shares:
        for number in numbers:
            if cards[number].category == "convoy":
                convoys[seat] = (*convoys[seat], number)
            else:
                captured[seat] = (*captured[seat], number)
        # A hand size changes only with the seat's convoys (AS-12): the other seats keep theirs.
        sizes[seat] = hand_size(state, convoys[seat])
    return _battle_over(
        state,
        battle,
        convoys_won=tuple(convoys),
        captured=tuple(captured),
        discard=state.discard + battle.outcome.to_discard,
        hand_sizes=tuple(sizes),
    )


def _battle_over(state: State, battle: Battle, **changes: Any) -> State:
    """The battle is over; `changes` are its own changes to the table, applied in the same copy."""
    fought = state.battles_fought + 1
    if fought >= state.pile_size:
        # AS-13: the game ends after the last convoy's battle.
        return replace(state, battles_fought=fought, battle=None, phase="over", draw_queue=(), **changes)
    leader = (battle.leader + 1) % state.players
    return _refill(state, None, leader, "turn_convoy", battles_fought=fought, **changes)


def _refill(state: State, battle: Battle | None, first: int, then: str, **changes: Any) -> State:
    """Everyone refills to hand size in order from `first` (AS-12), then `then` happens; `changes` are
    applied in the same copy of the state."""
    queue = _order_from(state, first)
    state = replace(state, battle=battle, leader=first, draw_queue=queue, after_refill=then, phase="refill", **changes)
    return _settle_refill(state)


def _settle_refill(state: State) -> State:
    queue = state.draw_queue
    sizes, hands, unknown = state.hand_sizes, state.hands, state.unknown
    # Skip the seats already at hand size (draw_needed, inlined: it runs for every draw).
    skip = 0
    while skip < len(queue) and sizes[queue[skip]] - len(hands[queue[skip]]) - unknown[queue[skip]] <= 0:
        skip += 1
    if skip:
        queue = queue[skip:]
    if queue and (state.deck > 0 or state.discard):
        return state if queue is state.draw_queue else replace(state, draw_queue=queue)
    # Gap reading (AS-12): with the deck and the discard pile both empty, the refill stops there.
    then = state.after_refill
    if then == "turn_convoy":
        return replace(state, draw_queue=(), phase="turn_convoy")
    battle = state.battle
    assert battle is not None
    if then == "declare_zone":
        return replace(state, draw_queue=(), phase="declare_zone")
    # half_two (AS-14): same zone, same leader, the storm (if unfired) with its new holder; a seat a
    # first-half storm struck with a skip sits the second half out (AS-18).
    skips = battle.skips
    queue_two = tuple([Turn(seat=s) for s in _order_from(state, battle.leader) if s not in skips])
    battle = replace(battle, half=2, queue=queue_two, skips=())
    if not queue_two:
        return _round_over(replace(state, draw_queue=()), battle)
    return replace(state, draw_queue=(), battle=battle, phase="play")


def _evolve_draw(state: State, event: CardsDrawn) -> State:
    seat = event.seat
    known = tuple([c for c in event.cards if c is not None])
    hidden = len(event.cards) - len(known)
    hands, located, unknown = state.hands, state.located, state.unknown
    if known:
        hands = (*hands[:seat], hands[seat] + known, *hands[seat + 1 :])
        located = located.union(known)
    if hidden:
        unknown = (*unknown[:seat], unknown[seat] + hidden, *unknown[seat + 1 :])
    state = replace(state, hands=hands, unknown=unknown, deck=state.deck - len(event.cards), located=located)
    return _settle_refill(state)


def _evolve_reshuffle(state: State, event: DeckReshuffled) -> State:
    # G-4: the discard pile becomes the deck; its cards' places are unknown again.
    return replace(
        state,
        deck=len(state.discard) + state.discard_face_down,
        located=state.located - set(state.discard),
        discard=(),
        discard_face_down=0,
    )


_EVOLVERS: Dispatch[AtlanticStormEvent, State, State] = dispatch(
    on(ConvoysCut, _evolve_cut),
    on(CardsDealt, _evolve_deal),
    on(ConvoyTurned, _evolve_turn_convoy),
    on(ZoneDeclared, _evolve_declare),
    on(CardsPlayed, _evolve_play),
    on(IntelligencePlayed, _evolve_intelligence),
    on(CardDiscarded, _evolve_discard_card),
    on(HandDiscarded, _evolve_discard_hand),
    on(StormRolled, _evolve_storm_roll),
    on(StormStruck, _evolve_storm_strike),
    on(DiceRolled, _evolve_dice),
    on(SupplyTaken, _evolve_supply),
    on(SpoilsDivided, _evolve_spoils),
    on(CardsDrawn, _evolve_draw),
    on(DeckReshuffled, _evolve_reshuffle),
)


__all__ = ["evolve", "validate"]
