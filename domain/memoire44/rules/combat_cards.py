"""Combat cards in play (M44-CC-1 to M44-CC-3): their draws, their plays on a unit or for a player, and
the dice and flags they change. The deck a club imports is `domain.memoire44.combat`."""

from __future__ import annotations

from msgspec.structs import replace

from domain.i18n import Message
from domain.memoire44.battlefield import take_card
from domain.memoire44.board import Hex
from domain.memoire44.catalogue import RECON_CARDS
from domain.memoire44.combat import CLOSE_DIE, RANGED_DIE, STREET_FIGHTING, TENACITY, TEXT
from domain.memoire44.events import CardPlayed, CombatCardDrawn, CombatCardPlayed, Memoire44Event
from domain.memoire44.rules.common import alive, refuse
from domain.memoire44.rules.expansion import Expansion, on_camp, validators
from domain.memoire44.state import Hand, State, Unit
from domain.memoire44.words import COMBAT_CARDS, _
from domain.memoire44.words import card as card_name
from domain.ruleset import RuleError, dispatch, on


def combat_pile(state: State) -> int:
    """Combat cards left to draw: the deck less the hands and the discards."""
    assert state.combat_deck is not None
    return state.combat_deck.size - sum(h.size for h in state.combat_hands) - len(state.combat_discard)


def combat_copies(state: State, card: str) -> int:
    """Copies of combat card `card` the record knows the place of."""
    return sum(h.known.count(card) for h in state.combat_hands) + state.combat_discard.count(card)


def combat_boost(state: State, uid: int, close: bool) -> int:
    """Battle dice combat cards add to unit `uid`'s battles this turn (M44-CC-3)."""
    return sum(
        1
        for unit, effect in state.combat_boosts
        if unit == uid and (effect in CLOSE_DIE if close else effect in RANGED_DIE)
    )


def near_town(state: State, hex_: Hex) -> bool:
    """Whether `hex_` is a town, village or buildings hex, or next to one (M44-CC-3, Street Fighting)."""
    board = state.board
    return any(board.terrain[h].name == "town" for h in (hex_, *board.neighbours(hex_)))


def _no_combat_deck() -> RuleError:
    return refuse("M44-CC-1", "no_combat_cards", _("This game is not played with combat cards."))


def _check_combat_card(state: State, seat: int, card: str) -> None:
    deck = state.combat_deck
    assert deck is not None
    if card not in deck.cards:
        raise refuse(
            "M44-CC-1", "unknown_combat_card", _("The combat deck has no card {card}.", card=repr(card)), card=card
        )
    hand = state.combat_hands[seat]
    if card in hand.known:
        return
    if not hand.unknown:
        raise refuse(
            "M44-CC-2", "not_in_hand", _("{card} is not in that seat's combat cards.", card=deck.cards[card].name)
        )
    if combat_copies(state, card) >= deck.cards[card].count:
        raise refuse(
            "G-2",
            "too_many_copies",
            _("The combat deck holds {count} {card}.", count=deck.cards[card].count, card=deck.cards[card].name),
        )


def _validate_combat_drawn(state: State, event: CombatCardDrawn, camp: int) -> None:
    deck = state.combat_deck
    if deck is None:
        raise _no_combat_deck()
    if state.combat_due[event.seat] <= 0:
        raise refuse(
            "M44-CC-1",
            "no_combat_draw",
            _(
                "A combat card is drawn in the deal, after a Recon card and after {card} only.",
                card=card_name("their_finest_hour"),
            ),
        )
    if combat_pile(state) <= 0:
        raise refuse("M44-CC-1", "combat_pile_empty", _("The combat pile is empty."))
    if event.card is not None:
        if event.card not in deck.cards:
            raise refuse(
                "M44-CC-1", "unknown_combat_card", _("The combat deck has no card {card}.", card=repr(event.card))
            )
        if combat_copies(state, event.card) >= deck.cards[event.card].count:
            raise refuse(
                "G-2", "too_many_copies", _("Every {card} is already placed.", card=deck.cards[event.card].name)
            )


def combat_play_problem(
    state: State, seat: int, camp: int, card: str, uid: int | None
) -> tuple[str, str, Message] | None:
    """(rule, code, reason) why `seat` cannot play combat card `card` on unit `uid` now, or None."""
    deck = state.combat_deck
    assert deck is not None
    effect = deck.cards[card].effect
    if state.phase in ("deal", "over"):
        return "M44-CC-2", "combat_timing", _("Combat cards are played during the turns.")
    if uid is None:
        if effect != TEXT:
            return "M44-CC-3", "needs_unit", _("{card} is played on a unit.", card=deck.cards[card].name)
        if seat in state.combat_players:
            return "M44-CC-2", "helped_already", _("That player is already helped by a combat card this turn.")
        return None
    if not 0 <= uid < len(state.units) or state.units[uid].camp != camp or state.units[uid].hex is None:
        return (
            "M44-CC-2",
            "not_your_unit",
            _("Unit {unit} is not one of this side's units on the board.", unit=str(uid)),
        )
    if uid in state.combat_helped:
        return "M44-CC-2", "helped_already", _("That unit is already helped by a combat card this turn.")
    unit = state.units[uid]
    assert unit.hex is not None
    if effect == TENACITY:
        pending = state.pending
        if pending is not None and pending.kind == "retreat" and pending.unit == uid and pending.fixed:
            return (
                "M44-DD-5",
                "flags_fixed",
                _(
                    "The flags of {barrage} cannot be ignored, not even with {tenacity}.",
                    barrage=card_name("barrage"),
                    tenacity=COMBAT_CARDS["tenacity"],
                ),
            )
        if pending is None or pending.kind != "retreat" or pending.unit != uid or pending.ignorable >= pending.flags:
            return (
                "M44-CC-3",
                "no_flag",
                _("{card} ignores a flag rolled against the unit, before it retreats.", card=COMBAT_CARDS["tenacity"]),
            )
        return None
    if effect == TEXT:
        return None
    order = state.order_of(uid)
    if camp != state.active or order is None or state.phase not in ("move", "battle"):
        return "M44-CC-2", "beside_command_card", _("The card helps a unit the command card played this turn ordered.")
    if effect == STREET_FIGHTING and not near_town(state, unit.hex):
        return (
            "M44-CC-3",
            "not_in_town",
            _("{card} helps a unit in or next to a town, village or buildings.", card=COMBAT_CARDS["street_fighting"]),
        )
    return None


def _validate_combat_played(state: State, event: CombatCardPlayed, camp: int) -> None:
    if state.combat_deck is None:
        raise _no_combat_deck()
    _check_combat_card(state, event.seat, event.card)
    problem = combat_play_problem(state, event.seat, camp, event.card, event.unit)
    if problem is not None:
        raise refuse(problem[0], problem[1], problem[2], card=event.card, unit=event.unit)


def _evolve_combat_drawn(state: State, event: CombatCardDrawn) -> State:
    hands = list(state.combat_hands)
    hand = hands[event.seat]
    hands[event.seat] = (
        Hand(known=(*hand.known, event.card), unknown=hand.unknown)
        if event.card is not None
        else Hand(known=hand.known, unknown=hand.unknown + 1)
    )
    due = list(state.combat_due)
    due[event.seat] -= 1
    return replace(state, combat_hands=tuple(hands), combat_due=tuple(due))


def _evolve_combat_played(state: State, event: CombatCardPlayed) -> State:
    assert state.combat_deck is not None
    effect = state.combat_deck.cards[event.card].effect
    hands = list(state.combat_hands)
    hands[event.seat] = take_card(hands[event.seat], event.card)
    state = replace(state, combat_hands=tuple(hands), combat_discard=(*state.combat_discard, event.card))
    if event.unit is None:
        return replace(state, combat_players=(*state.combat_players, event.seat))
    state = replace(state, combat_helped=(*state.combat_helped, event.unit))
    if effect == TENACITY and state.pending is not None:
        return replace(state, pending=replace(state.pending, ignorable=state.pending.ignorable + 1))
    if effect in CLOSE_DIE or effect in RANGED_DIE:
        return replace(state, combat_boosts=(*state.combat_boosts, (event.unit, effect)))
    return state


def _combat_draws(state: State, event: CardPlayed, effective: str) -> State:
    """M44-CC-1: a Recon card lets its player draw a combat card; Their Finest Hour reshuffles the combat
    discards and every player (every general at a team table) draws one."""
    due = list(state.combat_due)
    if effective in RECON_CARDS:
        due[event.seat] += 1
    if effective == "their_finest_hour":
        for seat in range(len(due)):
            if not state.teams or state.commands[seat]:
                due[seat] += 1
        state = replace(state, combat_discard=())
    return replace(state, combat_due=tuple(due))


# ---------------------------------------------------------------- legal events


def legal(state: State, seat: int) -> list[Memoire44Event]:
    """Combat cards (M44-CC-1, M44-CC-2): a draw the seat may make, and each card it may play now."""
    events: list[Memoire44Event] = []
    retreat = state.pending is not None and state.pending.kind == "retreat"
    if state.combat_due[seat] > 0 and combat_pile(state) > 0 and not retreat:
        events.append(CombatCardDrawn(seat=seat))
    deck = state.combat_deck
    assert deck is not None
    hand = state.combat_hands[seat]
    cards = set(hand.known)
    if hand.unknown:
        cards |= {c for c, spec in deck.cards.items() if combat_copies(state, c) < spec.count}
    camp = state.seat_camp[seat]
    units: list[int | None] = [None, *(u.uid for u in alive(state, camp))]
    for card in sorted(cards):
        for uid in units:
            if combat_play_problem(state, seat, camp, card, uid) is None:
                events.append(CombatCardPlayed(seat=seat, card=card, unit=uid))
    return events


def _bonus(state: State, attacker: Unit, close: bool) -> tuple[int, Message] | None:
    """M44-CC-3: the dice the combat cards played on `attacker` add to its battle."""
    boost = combat_boost(state, attacker.uid, close)
    return (boost, _("combat card: +{count}", count=boost)) if boost else None


def _card_in_play(state: State, event: CardPlayed, camp: int, effective: str) -> State:
    return _combat_draws(state, event, event.card if event.card in RECON_CARDS else effective)


def _next_turn(state: State) -> State:
    return replace(state, combat_helped=(), combat_players=(), combat_boosts=())


EXPANSION = Expansion(
    name="combat cards",
    in_play=lambda state: state.combat_deck is not None,
    validators=validators(
        on_camp(CombatCardDrawn, _validate_combat_drawn),
        on_camp(CombatCardPlayed, _validate_combat_played),
    ),
    evolvers=dispatch(
        on(CombatCardDrawn, _evolve_combat_drawn),
        on(CombatCardPlayed, _evolve_combat_played),
    ),
    legal=legal,
    during_retreat=(CombatCardPlayed,),  # Tenacity answers the flags before the retreat (M44-CC-3)
    next_turn=_next_turn,
    card_in_play=_card_in_play,
    battle_bonus=_bonus,
)
