"""Milles Nautiques: `validate` (each refusal names its rule, described in RULES.md) and `evolve` (applies an
accepted event and every automatic consequence; never validates). The set-up is in `setup`, the events a
seat may report in `legal`.

Turn flow (MN-2, MN-19): after the deal the player on the dealer's left draws, then plays or discards
one card; two submarines played together are followed by an extra draw. When a turn passes to a player,
the battles he leads are decided and his mines explode (MN-6, MN-8) before his draw. The 40-point
check (MN-15) follows every play and every automatic consequence.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from msgspec.structs import replace

from domain.i18n import Catalogue
from domain.milles_nautiques.catalogue import (
    ARRIVAL_MILES,
    BY_NAME,
    CONVOY_CARDS,
    CONVOY_COUNT,
    COUNTS,
    DECK_SIZE,
    HAND_SIZE,
    INDEX,
    MILES_CARDS,
    PAIRED_SUBMARINES_STRENGTH,
    STORM_MAX_MILES,
    TRAWLER,
    WARSHIPS,
)
from domain.milles_nautiques.events import (
    CARD_OF_EVENT,
    AlertEnded,
    AlertPlayed,
    CardOnConvoy,
    ConvoyPlaced,
    ConvoysRevealed,
    Dealt,
    Discarded,
    Drew,
    FairSeaPlayed,
    MilesPlayed,
    MillesNautiquesEvent,
    MineLaid,
    MinesweeperPlayed,
    NeutralFlagPlayed,
    PlaneHit,
    PlanePlayed,
    RadarPlayed,
    StormPlayed,
    WarshipPlayed,
)
from domain.milles_nautiques.scoring import ROUND_TARGET, points
from domain.milles_nautiques.state import Consequence, Convoy, Hand, Ship, State
from domain.ruleset import Dispatch, RuleError, dispatch, on

_ = Catalogue("domain.milles_nautiques")

# ---------------------------------------------------------------------------------------------- validate


def validate(state: State, event: MillesNautiquesEvent) -> None:
    """Raise RuleError if `event` cannot have happened at `state` (G-1)."""
    handler = _VALIDATORS.get(type(event))
    if handler is None:
        raise RuleError("G-1", "unknown_event", _("This is not a Milles Nautiques event."))
    handler(state, event)


def _known_card(card: str) -> None:
    if card not in BY_NAME:
        raise RuleError("MN-1", "unknown_card", _("There is no {card} card in the deck.", card=repr(card)), card=card)


def _identify(state: State, card: str, copies: int = 1, revealing: bool = False) -> None:
    """G-2: naming `copies` more cards of a kind must not exceed the copies the deck holds. A convoy
    card named from the face-down pool also needs room beside the convoys laid face down (unless it is
    one of them being revealed)."""
    index = INDEX[card]
    if state.seen[index] + copies > COUNTS[index]:
        raise RuleError(
            "G-2",
            "too_many_copies",
            _(
                "The deck holds only {count} of {card}; the record already places them all.",
                count=COUNTS[index],
                card=BY_NAME[card].label,
            ),
            card=card,
        )
    if card in CONVOY_CARDS and not revealing:
        _convoy_room(state, copies)


def _convoy_room(state: State, copies: int) -> None:
    """G-2: the convoys the record names plus those laid face down never exceed the deck's 13."""
    hidden = sum(1 for c in state.convoys if c.card is None)
    named = sum(state.seen[INDEX[card]] for card in CONVOY_CARDS)
    if hidden + named + copies > CONVOY_COUNT:
        raise RuleError("G-2", "too_many_copies", _("Every convoy card of the deck is already placed."))


def _in_hand(state: State, seat: int, card: str, copies: int = 1) -> None:
    """The card (or cards) must be in the hand: known there, or among its face-down cards (G-2)."""
    _known_card(card)
    hand = state.hands[seat]
    from_unknown = max(0, copies - hand.known.count(card))
    if from_unknown > hand.unknown:
        raise RuleError(
            "G-2",
            "not_in_hand",
            _("{player} does not hold {card}.", player=state.names[seat], card=BY_NAME[card].label),
            seat=seat,
            card=card,
        )
    if from_unknown:
        _identify(state, card, from_unknown)


def _turn(state: State, seat: int, drawing: bool = False) -> None:
    """MN-2: only the player whose turn it is acts, drawing first, then playing one card."""
    if state.phase in ("over", "reveal"):
        raise RuleError("MN-15", "round_over", _("The round is over."))
    if state.phase == "deal":
        raise RuleError("MN-2", "not_dealt", _("The cards have not been dealt yet."))
    if not 0 <= seat < len(state.hands):
        raise RuleError("MN-2", "no_such_seat", _("There is no seat {seat} at this table.", seat=seat), seat=seat)
    if seat != state.to_play:
        raise RuleError(
            "MN-2",
            "not_your_turn",
            _("It is {player}'s turn.", player=state.names[state.to_play]),
            seat=seat,
            to_play=state.to_play,
        )
    if drawing and state.phase == "play":
        raise RuleError("MN-2", "already_drew", _("This turn's card has been drawn: now play or discard."))
    if not drawing and state.phase != "play":
        raise RuleError("MN-2", "draw_first", _("Draw from the stock before playing."))


def _at_sea(state: State, number: int) -> Convoy:
    convoy = state.convoy(number)
    if convoy is None:
        raise RuleError("MN-3", "no_such_convoy", _("No convoy {convoy} has been laid.", convoy=number), convoy=number)
    if convoy.status == "arrived":
        raise RuleError("MN-4", "convoy_arrived", _("That convoy has arrived: it takes no more cards."), convoy=number)
    if convoy.status == "destroyed":
        raise RuleError("MN-12", "convoy_destroyed", _("That convoy has been destroyed."), convoy=number)
    return convoy


def _play_on(state: State, seat: int, number: int, card: str) -> Convoy:
    """The checks every card laid on a convoy shares: the turn, the card in hand, the convoy at sea."""
    _turn(state, seat)
    _in_hand(state, seat, card)
    return _at_sea(state, number)


def _own(state: State, seat: int, convoy: Convoy) -> bool:
    """The convoy is in the seat's (team's) row (MN-18: partners defend each other's convoys)."""
    return state.side_of[seat] == convoy.side


def _validate_dealt(state: State, event: Dealt) -> None:
    count = len(state.hands)
    if state.phase != "deal":
        raise RuleError("MN-2", "already_dealt", _("The cards of this round have been dealt."))
    if not 0 <= event.dealer < count:
        raise RuleError("MN-19", "no_such_dealer", _("The dealer must be one of the players."), dealer=event.dealer)
    if state.dealer is not None and event.dealer != state.dealer:
        raise RuleError(
            "MN-19",
            "wrong_dealer",
            _("{player} deals this round.", player=state.names[state.dealer]),
            dealer=event.dealer,
            expected=state.dealer,
        )
    if event.hands and len(event.hands) != count:
        raise RuleError("MN-2", "bad_deal", _("A deal lists the known cards of every seat, or none."))
    copies: dict[str, int] = {}
    for seat, cards in enumerate(event.hands):
        if len(cards) > HAND_SIZE:
            raise RuleError("MN-2", "bad_deal", _("Each player is dealt six cards."), seat=seat)
        for card in cards:
            _known_card(card)
            copies[card] = copies.get(card, 0) + 1
    for card, number in copies.items():
        _identify(state, card, number)


def _validate_drew(state: State, event: Drew) -> None:
    _turn(state, event.seat, drawing=True)
    if event.card is not None:
        _known_card(event.card)
        _identify(state, event.card)


def _validate_convoy_placed(state: State, event: ConvoyPlaced) -> None:
    _turn(state, event.seat)
    if event.card is None:
        # G-2: a convoy the record cannot name comes from the face-down part of the hand, and there
        # must still be a convoy card the record has not placed.
        if state.hands[event.seat].unknown < 1:
            raise RuleError(
                "G-2", "hidden_card_not_in_hand", _("The record knows every card of this hand: name the convoy laid.")
            )
        _convoy_room(state, 1)
    else:
        _known_card(event.card)
        if event.card not in CONVOY_CARDS:
            raise RuleError(
                "MN-3", "not_a_convoy", _("{card} is not a convoy.", card=BY_NAME[event.card].label), card=event.card
            )
        _in_hand(state, event.seat, event.card)
    row = state.rows[state.side_of[event.seat]]
    if not 0 <= event.position <= len(row):
        raise RuleError(
            "MN-3",
            "bad_position",
            _("A convoy goes at either end of the row or between two convoys (0 to {last}).", last=len(row)),
            position=event.position,
        )


def _validate_miles(state: State, event: MilesPlayed) -> None:
    _known_card(event.card)
    if event.card not in MILES_CARDS:
        raise RuleError("MN-4", "not_miles", _("{card} is not a miles card.", card=BY_NAME[event.card].label))
    convoy = _play_on(state, event.seat, event.convoy, event.card)
    if not _own(state, event.seat, convoy):
        raise RuleError("MN-4", "not_your_convoy", _("Miles go on your own (your team's) convoys."))
    if convoy.battle:
        raise RuleError("MN-4", "stopped_by_battle", _("A convoy in a naval battle takes no miles."))
    if convoy.storm and BY_NAME[event.card].miles > STORM_MAX_MILES:
        raise RuleError(
            "MN-10", "storm_limit", _("A convoy in a storm takes only 200, 400 or 600 miles."), card=event.card
        )


def _validate_alert(state: State, event: AlertPlayed) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "alert")
    if _own(state, event.seat, convoy):
        raise RuleError("MN-5", "own_convoy", _("An alert goes on an opponent's convoy."))
    if convoy.alert:
        raise RuleError("MN-5", "already_alerted", _("That convoy already has an alert."))
    if convoy.neutral:
        raise RuleError("MN-11", "neutral", _("A neutral convoy cannot be alerted."))
    # MN-22: a convoy in a storm may be alerted; only the attacks it allows wait (MN-10).


def _validate_alert_ended(state: State, event: AlertEnded) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "end_of_alert")
    if not _own(state, event.seat, convoy):
        raise RuleError("MN-5", "not_your_convoy", _("An end of alert saves your own (your team's) convoy."))
    if not convoy.alert:
        raise RuleError("MN-5", "no_alert", _("That convoy has no alert to end."))


def battle_tied(battle: tuple[Ship, ...]) -> bool:
    """MN-6: the top ship answered the one below it (opposite side) with equal strength. A ship laid on
    a tied battle restarts it rather than answering, so it never ties with the ship below: walk up from
    the first ship (battles are a few ships long)."""
    tied = False
    for below, ship in pairwise(battle):
        tied = not tied and ship.strength == below.strength and ship.attacking != below.attacking
    return tied


def _validate_warship(state: State, event: WarshipPlayed) -> None:
    _known_card(event.ship)
    if event.ship not in WARSHIPS:
        raise RuleError("MN-6", "not_a_warship", _("{card} is not a warship.", card=BY_NAME[event.ship].label))
    if event.paired and event.ship != "submarine":
        raise RuleError("MN-6", "only_submarines_pair", _("Only two submarines may be played together."))
    _turn(state, event.seat)
    _in_hand(state, event.seat, event.ship, 2 if event.paired else 1)
    convoy = _at_sea(state, event.convoy)
    if convoy.neutral:
        raise RuleError("MN-11", "neutral", _("No warship may fight for or against a neutral convoy."))
    if convoy.storm:
        raise RuleError("MN-10", "in_storm", _("No naval battle against a convoy in a storm."))
    attacking = not _own(state, event.seat, convoy)
    if attacking and not convoy.alert:
        raise RuleError("MN-6", "no_alert", _("A naval attack needs an alert on the convoy."))
    if not convoy.battle:
        if not attacking:
            raise RuleError("MN-6", "nothing_to_defend", _("There is no battle on this convoy to defend."))
        return
    if battle_tied(convoy.battle):
        return  # MN-6: either side restarts a tied battle with any ship, even a weaker one.
    top = convoy.battle[-1]
    if attacking == top.attacking:
        raise RuleError("MN-6", "ships_alternate", _("The other side must answer the ship on top first."))
    strength = PAIRED_SUBMARINES_STRENGTH if event.paired else BY_NAME[event.ship].strength
    if strength < top.strength:
        raise RuleError(
            "MN-6",
            "too_weak",
            _("A ship must be at least as strong as the ship on top of the battle."),
            strength=strength,
            top=top.strength,
        )


def _validate_plane(state: State, event: PlanePlayed) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "plane")
    if _own(state, event.seat, convoy):
        raise RuleError("MN-7", "own_convoy", _("Planes attack an opponent's convoy."))
    if convoy.neutral:
        raise RuleError("MN-11", "neutral", _("No plane may attack a neutral convoy."))
    if convoy.storm:
        raise RuleError("MN-10", "in_storm", _("No plane may attack a convoy in a storm."))
    if convoy.plane is not None and convoy.plane != event.seat:
        # MN-7, MN-18: the second plane comes from the player who laid the first, even a partner.
        raise RuleError(
            "MN-7",
            "second_plane_other_player",
            _("Only {player}, who laid the first plane, may lay the second.", player=state.names[convoy.plane]),
            first=convoy.plane,
        )


def _validate_plane_hit(state: State, event: PlaneHit) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "plane_hit")
    if not _own(state, event.seat, convoy):
        raise RuleError("MN-7", "not_your_convoy", _("A plane-hit defends your own (your team's) convoy."))
    if convoy.plane is None:
        raise RuleError("MN-7", "no_plane", _("There is no plane on that convoy."))


def _validate_mine(state: State, event: MineLaid) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "mine")
    if _own(state, event.seat, convoy):
        raise RuleError("MN-8", "own_convoy", _("A mine goes on an opponent's convoy."))
    if convoy.mine is not None:
        # Gap reading (see the package docstring): one mine at a time on a convoy.
        raise RuleError("MN-8", "already_mined", _("That convoy already has a mine."))


def _validate_minesweeper(state: State, event: MinesweeperPlayed) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "minesweeper")
    if not _own(state, event.seat, convoy):
        raise RuleError("MN-8", "not_your_convoy", _("A minesweeper clears your own (your team's) convoy."))
    if convoy.mine is None:
        raise RuleError("MN-8", "no_mine", _("There is no mine on that convoy."))


def _validate_radar(state: State, event: RadarPlayed) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "radar")
    if _own(state, event.seat, convoy):
        raise RuleError("MN-9", "own_convoy", _("You cannot detect your own (your team's) convoys."))
    if convoy.detected:
        raise RuleError("MN-9", "already_detected", _("That convoy is already detected."))
    row = state.rows[convoy.side]
    if event.convoy not in (row[0], row[-1]):
        raise RuleError("MN-9", "not_at_an_end", _("A radar detects only the convoy at either end of a row."))
    if event.revealed is not None:
        _check_revealed_card(state, convoy, event.revealed)
        if convoy.card is None:
            _identify(state, event.revealed, revealing=True)


def _check_revealed_card(state: State, convoy: Convoy, card: str) -> None:
    _known_card(card)
    if card not in CONVOY_CARDS:
        raise RuleError("MN-3", "not_a_convoy", _("{card} is not a convoy.", card=BY_NAME[card].label), card=card)
    if convoy.card is not None and convoy.card != card:
        raise RuleError(
            "G-2",
            "contradicts_record",
            _("The record has convoy {convoy} as {card}.", convoy=convoy.number, card=BY_NAME[convoy.card].label),
            convoy=convoy.number,
        )


def _validate_storm(state: State, event: StormPlayed) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "storm")
    if convoy.storm:
        raise RuleError("MN-10", "already_in_storm", _("That convoy is already in a storm."))
    if convoy.battle:
        raise RuleError("MN-10", "battle_on_convoy", _("No storm on a convoy in a naval battle."))


def _validate_fair_sea(state: State, event: FairSeaPlayed) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "fair_sea")
    if not convoy.storm:
        raise RuleError("MN-10", "no_storm", _("A fair sea ends a storm; that convoy is in none."))


def _validate_neutral(state: State, event: NeutralFlagPlayed) -> None:
    convoy = _play_on(state, event.seat, event.convoy, "neutral_flag")
    if not _own(state, event.seat, convoy):
        raise RuleError("MN-11", "not_your_convoy", _("The neutral flag goes on your own (your team's) convoy."))
    if convoy.alert or convoy.plane is not None or convoy.battle:
        raise RuleError(
            "MN-11", "under_attack", _("The neutral flag goes only on a convoy with no alert, plane or battle.")
        )


def _validate_discard(state: State, event: Discarded) -> None:
    _turn(state, event.seat)
    _in_hand(state, event.seat, event.card)


def _validate_revealed(state: State, event: ConvoysRevealed) -> None:
    if state.phase == "deal":
        raise RuleError("MN-2", "not_dealt", _("No convoy has been laid yet."))
    if state.phase == "over":
        raise RuleError("MN-15", "round_over", _("The round is over and scored."))
    if not event.convoys:
        raise RuleError("G-2", "empty_reveal", _("A reveal names at least one convoy."))
    numbers = [item.convoy for item in event.convoys]
    if len(set(numbers)) != len(numbers):
        raise RuleError("G-2", "revealed_twice", _("Each convoy is revealed once."))
    copies: dict[str, int] = {}
    for item in event.convoys:
        convoy = state.convoy(item.convoy)
        if convoy is None:
            raise RuleError(
                "MN-3", "no_such_convoy", _("No convoy {convoy} has been laid.", convoy=item.convoy), convoy=item.convoy
            )
        if convoy.card is not None:
            raise RuleError(
                "G-2",
                "already_known",
                _("The record already knows convoy {convoy}.", convoy=item.convoy),
                convoy=item.convoy,
            )
        _check_revealed_card(state, convoy, item.card)
        copies[item.card] = copies.get(item.card, 0) + 1
    for card, number in copies.items():
        _identify(state, card, number, revealing=True)


_CARD_VALIDATORS: Dispatch[MillesNautiquesEvent, State, None] = dispatch(
    on(AlertPlayed, _validate_alert),
    on(AlertEnded, _validate_alert_ended),
    on(PlanePlayed, _validate_plane),
    on(PlaneHit, _validate_plane_hit),
    on(MineLaid, _validate_mine),
    on(MinesweeperPlayed, _validate_minesweeper),
    on(RadarPlayed, _validate_radar),
    on(StormPlayed, _validate_storm),
    on(FairSeaPlayed, _validate_fair_sea),
    on(NeutralFlagPlayed, _validate_neutral),
)

_VALIDATORS: Dispatch[MillesNautiquesEvent, State, None] = dispatch(
    on(Dealt, _validate_dealt),
    on(Drew, _validate_drew),
    on(ConvoyPlaced, _validate_convoy_placed),
    on(MilesPlayed, _validate_miles),
    on(WarshipPlayed, _validate_warship),
    on(Discarded, _validate_discard),
    on(ConvoysRevealed, _validate_revealed),
    *_CARD_VALIDATORS.items(),
)


# ---------------------------------------------------------------------------------------------- evolve


def evolve(state: State, event: MillesNautiquesEvent) -> State:
    """Apply an accepted event and every automatic consequence."""
    if state.consequences:
        state = replace(state, consequences=())
    return _EVOLVERS[type(event)](state, event)


def _bump(counts: tuple[int, ...], cards: Iterable[str]) -> tuple[int, ...]:
    updated = list(counts)
    for card in cards:
        updated[INDEX[card]] += 1
    return tuple(updated)


def _take(state: State, seat: int, card: str, copies: int = 1) -> State:
    """Take cards from a hand: known copies first, then face-down ones, which become known (G-2)."""
    hand = state.hands[seat]
    known = list(hand.known)
    unknown = hand.unknown
    identified: list[str] = []
    for _copy in range(copies):
        if card in known:
            known.remove(card)
        else:
            unknown -= 1
            identified.append(card)
    state = _with_hand(state, seat, Hand(known=tuple(known), unknown=unknown))
    return replace(state, seen=_bump(state.seen, identified)) if identified else state


def _with_hand(state: State, seat: int, hand: Hand) -> State:
    hands = list(state.hands)
    hands[seat] = hand
    return replace(state, hands=tuple(hands))


def _put(state: State, convoy: Convoy) -> State:
    convoys = list(state.convoys)
    convoys[convoy.number - 1] = convoy
    return replace(state, convoys=tuple(convoys))


def _lift(state: State, convoy: Convoy, cards: Iterable[str], **changes: Any) -> State:
    """Put `convoy` back with `changes`, the `cards` taken off it going to the discard."""
    return replace(_put(state, replace(convoy, **changes)), discard=_bump(state.discard, cards))


def _note(state: State, kind: str, convoy: Convoy | None = None, seat: int | None = None) -> State:
    """Record an automatic consequence for the replay."""
    consequence = Consequence(kind=kind, convoy=0 if convoy is None else convoy.number, seat=seat)
    return replace(state, consequences=(*state.consequences, consequence))


def _attack_cards(convoy: Convoy) -> list[str]:
    """The cards laid against (or to shelter) a convoy, which leave it when it arrives or is destroyed."""
    cards: list[str] = []
    if convoy.alert:
        cards.append("alert")
    if convoy.storm:
        cards.append("storm")
    if convoy.neutral:
        cards.append("neutral_flag")
    if convoy.plane is not None:
        cards.append("plane")
    if convoy.mine is not None:
        cards.append("mine")
    for ship in convoy.battle:
        cards.extend(ship.cards)
    return cards


def _leave_row(state: State, convoy: Convoy) -> tuple[tuple[int, ...], ...]:
    rows = list(state.rows)
    rows[convoy.side] = tuple(n for n in rows[convoy.side] if n != convoy.number)
    return tuple(rows)


def _arrive(state: State, convoy: Convoy) -> State:
    """MN-4: the convoy leaves the row with its miles (and its radar, which keeps it detected). Gap
    reading: whatever else lies on it (alert, storm, flag, a lone plane, a mine) goes to the discard."""
    state = _note(state, "arrived", convoy, convoy.seat)
    state = replace(state, discard=_bump(state.discard, _attack_cards(convoy)), rows=_leave_row(state, convoy))
    arrived = replace(
        convoy, status="arrived", alert=False, storm=False, neutral=False, plane=None, mine=None, battle=()
    )
    return _put(state, arrived)


def _destroy(state: State, convoy: Convoy, captor: int, how: str, extra: tuple[str, ...] = ()) -> State:
    """MN-12: a destroyed convoy goes to its captor's pile; every other card on it (attacks, miles,
    its radar) goes to the discard. It stays detected for capture points (MN-14)."""
    cards = [*_attack_cards(convoy), *convoy.miles, *extra]
    if convoy.detected:
        cards.append("radar")
    state = _note(state, how, convoy, captor)
    state = replace(state, discard=_bump(state.discard, cards), rows=_leave_row(state, convoy))
    destroyed = replace(
        convoy,
        status="destroyed",
        captor=captor,
        miles=(),
        alert=False,
        storm=False,
        neutral=False,
        plane=None,
        mine=None,
        battle=(),
    )
    return _check_forty(_put(state, destroyed))


def _check_forty(state: State) -> State:
    """MN-15: the round ends as soon as a side's convoy and capture points reach 40."""
    if state.phase in ("reveal", "over"):
        return state
    reached = tuple(side for side, (convoy, capture) in enumerate(points(state)) if convoy + capture >= ROUND_TARGET)
    return _finish(state, "forty", reached) if reached else state


def _finish(state: State, how: str, sides: tuple[int, ...]) -> State:
    """End the round. Its convoys the record does not know must be revealed before it is scored (G-2),
    unless the round is void (MN-15: nobody arrived when the cards ran out). A face-down convoy in port
    may be a real one, so only a round whose every arrival is a known trawler (MN-20) is void at once;
    otherwise the reveal may still find it void."""
    void = how == "cards" and not any(c.status == "arrived" and c.card != TRAWLER for c in state.convoys)
    hidden = any(c.card is None for c in state.convoys)
    state = replace(state, phase="reveal" if hidden and not void else "over", ended=how, forty_sides=sides)
    return _note(state, "round_void" if void else f"round_over_{how}")


def _after_play(state: State, paired: bool = False) -> State:
    state = _check_forty(state)
    if state.phase in ("reveal", "over"):
        return state
    if state.stock == 0 and not any(hand.known or hand.unknown for hand in state.hands):
        return _finish(state, "cards", ())
    if paired and state.stock > 0:
        return replace(state, phase="extra_draw")  # MN-2: two submarines, one extra card
    return _next_turn(state)


def _next_turn(state: State) -> State:
    """Pass the turn to the left; a player with no card once the stock is empty is passed over, but
    his battles and mines still come due."""
    seat = state.to_play
    for _seat in range(len(state.hands)):
        seat = (seat + 1) % len(state.hands)
        state = _start_of_turn(state, seat)
        if state.phase in ("reveal", "over"):
            return state
        if state.stock > 0:
            return replace(state, to_play=seat, phase="draw", turn=state.turn + 1)
        hand = state.hands[seat]
        if hand.known or hand.unknown:
            return replace(state, to_play=seat, phase="play", turn=state.turn + 1)
    raise AssertionError("a hand holds cards, so some seat plays")  # _after_play checked it


def _start_of_turn(state: State, seat: int) -> State:
    """MN-6, MN-8: battles whose top ship this player laid, unanswered and not tied, are decided, and
    his mines explode, convoy by convoy in the order they were laid, each followed by the 40 check."""
    for number in range(1, len(state.convoys) + 1):
        convoy = state.convoys[number - 1]
        if convoy.status != "at_sea":
            continue
        battle = convoy.battle
        if battle and battle[-1].seat == seat and not battle_tied(battle):
            if battle[-1].attacking:
                state = _destroy(state, convoy, seat, "sunk")
            else:
                cards = ["alert", *(card for ship in battle for card in ship.cards)]
                state = _note(_lift(state, convoy, cards, battle=(), alert=False), "saved", convoy, seat)
            if state.phase in ("reveal", "over"):
                return state
            convoy = state.convoys[number - 1]
        if convoy.status == "at_sea" and convoy.mine == seat:
            state = _destroy(state, convoy, seat, "mined")
            if state.phase in ("reveal", "over"):
                return state
    return state


def _evolve_dealt(state: State, event: Dealt) -> State:
    count = len(state.hands)
    known = [tuple(sorted(cards)) for cards in event.hands] or [()] * count
    hands = tuple(Hand(known=cards, unknown=HAND_SIZE - len(cards)) for cards in known)
    first = (event.dealer + 1) % count  # MN-19: the player on the dealer's left plays first
    return replace(
        state,
        dealer=event.dealer,
        hands=hands,
        stock=DECK_SIZE - HAND_SIZE * count,
        seen=_bump(state.seen, (card for cards in known for card in cards)),
        phase="draw",
        to_play=first,
        turn=1,
    )


def _evolve_drew(state: State, event: Drew) -> State:
    hand = state.hands[event.seat]
    if event.card is None:
        state = _with_hand(state, event.seat, Hand(known=hand.known, unknown=hand.unknown + 1))
    else:
        state = _with_hand(state, event.seat, Hand(known=(*hand.known, event.card), unknown=hand.unknown))
        state = replace(state, seen=_bump(state.seen, (event.card,)))
    state = replace(state, stock=state.stock - 1)
    if state.phase == "extra_draw":
        return _next_turn(state)
    return replace(state, phase="play")


def _evolve_convoy_placed(state: State, event: ConvoyPlaced) -> State:
    if event.card is None:  # G-2: from the face-down part of the hand
        hand = state.hands[event.seat]
        state = _with_hand(state, event.seat, Hand(known=hand.known, unknown=hand.unknown - 1))
    else:
        state = _take(state, event.seat, event.card)
    side = state.side_of[event.seat]
    number = len(state.convoys) + 1
    convoy = Convoy(number=number, side=side, seat=event.seat, card=event.card)
    rows = list(state.rows)
    row = rows[side]
    rows[side] = (*row[: event.position], number, *row[event.position :])
    return _after_play(replace(state, convoys=(*state.convoys, convoy), rows=tuple(rows)))


def _evolve_miles(state: State, event: MilesPlayed) -> State:
    state = _take(state, event.seat, event.card)
    convoy = state.convoys[event.convoy - 1]
    miles = BY_NAME[event.card].miles
    convoy = replace(
        convoy,
        miles=(*convoy.miles, event.card),
        distance=convoy.distance + miles,
        fast=convoy.fast or miles > STORM_MAX_MILES,
    )
    state = _put(state, convoy)
    if convoy.distance >= ARRIVAL_MILES:
        state = _arrive(state, convoy)
    return _after_play(state)


def _evolve_warship(state: State, event: WarshipPlayed) -> State:
    copies = 2 if event.paired else 1
    state = _take(state, event.seat, event.ship, copies)
    convoy = state.convoys[event.convoy - 1]
    ship = Ship(
        seat=event.seat,
        cards=(event.ship,) * copies,
        strength=PAIRED_SUBMARINES_STRENGTH if event.paired else BY_NAME[event.ship].strength,
        attacking=not _own(state, event.seat, convoy),
    )
    return _after_play(_put(state, replace(convoy, battle=(*convoy.battle, ship))), paired=event.paired)


def _evolve_card_on_convoy(state: State, event: CardOnConvoy) -> State:
    card = CARD_OF_EVENT[type(event)]
    state = _take(state, event.seat, card)
    convoy = state.convoys[event.convoy - 1]
    seat = event.seat
    kind = type(event)
    if kind is AlertPlayed:
        state = _put(state, replace(convoy, alert=True))
    elif kind is AlertEnded:
        # MN-5: the alert and every ship of the battle go to the discard with the end of alert.
        cards = ["end_of_alert", "alert", *(c for ship in convoy.battle for c in ship.cards)]
        state = _lift(state, convoy, cards, alert=False, battle=())
    elif kind is PlanePlayed:
        if convoy.plane is None:
            state = _put(state, replace(convoy, plane=seat))
        else:  # MN-7: the second plane destroys the convoy
            state = _destroy(state, convoy, seat, "bombed", extra=("plane",))
    elif kind is PlaneHit:
        state = _lift(state, convoy, ("plane_hit", "plane"), plane=None)
    elif kind is MineLaid:
        state = _put(state, replace(convoy, mine=seat))
    elif kind is MinesweeperPlayed:
        state = _lift(state, convoy, ("minesweeper", "mine"), mine=None)
    elif isinstance(event, RadarPlayed):  # isinstance, not `kind is`: mypy then knows the radar's fields
        card_known = convoy.card if convoy.card is not None else event.revealed
        if convoy.card is None and event.revealed is not None:
            state = replace(state, seen=_bump(state.seen, (event.revealed,)))
        state = _put(state, replace(convoy, detected=True, card=card_known))
    elif kind is StormPlayed:
        state = _put(state, replace(convoy, storm=True))
    elif kind is FairSeaPlayed:
        state = _lift(state, convoy, ("fair_sea", "storm"), storm=False)
    elif kind is NeutralFlagPlayed:
        state = _put(state, replace(convoy, neutral=True))
    return _after_play(state)


def _evolve_discard(state: State, event: Discarded) -> State:
    state = _take(state, event.seat, event.card)
    return _after_play(replace(state, discard=_bump(state.discard, (event.card,))))


def _evolve_revealed(state: State, event: ConvoysRevealed) -> State:
    convoys = list(state.convoys)
    for item in event.convoys:
        convoys[item.convoy - 1] = replace(convoys[item.convoy - 1], card=item.card)
    state = replace(state, convoys=tuple(convoys), seen=_bump(state.seen, (item.card for item in event.convoys)))
    if state.phase == "reveal":
        if all(c.card is not None for c in state.convoys):
            return _note(replace(state, phase="over"), "round_scored")
        return state
    return _check_forty(state)  # MN-15: a player who shows his convoys may have reached 40


_EVOLVERS: Dispatch[MillesNautiquesEvent, State, State] = dispatch(
    on(Dealt, _evolve_dealt),
    on(Drew, _evolve_drew),
    on(ConvoyPlaced, _evolve_convoy_placed),
    on(MilesPlayed, _evolve_miles),
    on(WarshipPlayed, _evolve_warship),
    on(Discarded, _evolve_discard),
    on(ConvoysRevealed, _evolve_revealed),
    *(on(kind, _evolve_card_on_convoy) for kind in CARD_OF_EVENT),
)
