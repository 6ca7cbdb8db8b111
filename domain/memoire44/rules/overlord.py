"""Overlord team tables (M44-OV-2 to M44-OV-7, M44-OV-9) with the Eastern Front at them (M44-OV-8,
M44-OV-10): the commander-in-chief hands out the side's cards, each general plays his in his own sections or
takes the initiative, and under the commissar rule the cards placed under the token go out next turn. The
team roles and the initiative table a club imports are `domain.memoire44.overlord`; the Eastern Front's pure
helpers `domain.memoire44.eastfront`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product

from msgspec.structs import replace

from domain.i18n import Message
from domain.memoire44.battlefield import INITIATIVE, cards_held, commissar_camp, given_left, take_card
from domain.memoire44.board import hex_name
from domain.memoire44.catalogue import CARDS, FACE_NAMES, RECON_CARDS
from domain.memoire44.eastfront import AT_ONCE, MAX_UNDER_TOKEN, from_hand, token_fits
from domain.memoire44.events import (
    CardCommitted,
    CardPlayed,
    CardsGiven,
    Gift,
    InitiativeTaken,
    Memoire44Event,
    UnitsOrdered,
)
from domain.memoire44.overlord import COMMANDER_DRAWS, MAX_GIFTS, MAX_PER_GENERAL, general_takes, gifts_fit
from domain.memoire44.rules.common import (
    ALL_FACES,
    AMBUSH_FIRST,
    AMBUSH_IN_TURN,
    ROLL_FOR_LIGHT,
    SECTION_CARDS,
    check_commit_card,
    check_nothing_to_take,
    check_unplaced,
    known_copies,
    refuse,
    visibility_roll_due,
    with_hand,
)
from domain.memoire44.rules.expansion import CardInPlay, EffectiveCard, Expansion, on_camp, validators
from domain.memoire44.state import Hand, State, Unit
from domain.memoire44.words import _, alternatives, listed
from domain.memoire44.words import card as card_name
from domain.memoire44.words import kind as kind_name
from domain.memoire44.words import section as section_name
from domain.memoire44.words import sections as either_section
from domain.ruleset import RuleError, dispatch, on


def unit_battled(state: State) -> bool:
    """Whether a unit of the active side has battled (or removed wire) this turn, or a plane fought
    (M44-AIR-17: at a team table an air attack is a battle too, M44-OV-6)."""
    return any(o.battles for o in state.orders) or (state.air is not None and state.air.battled)


def play_sections(state: State, seat: int, effective: str, counter: bool = False) -> tuple[str, ...]:
    """The sections `seat` may play a card acting as `effective` in: those he commands and, for a
    section card, the card names (mirrored for Counter-Attack), less those the side already played in
    this turn (M44-OV-5)."""
    spec = CARDS[effective]
    own = state.commands[seat]
    if spec.kind == "section" and not counter:  # a Counter-Attack copy acts where it is played
        own = tuple(s for s in own if s in spec.sections)
    return tuple(s for s in own if s not in state.played_in)


def marines_extra(state: State, camp: int) -> bool:
    """Whether the play being ordered may order one more unit under the US Marines rule (M44-OV-9): the
    general the commander chose this turn, or any tactic card of the side (the two do not add up)."""
    if state.expansions.marines != state.sides[camp] or state.effective == INITIATIVE:
        return False
    return state.general == state.marines or CARDS[str(state.effective)].kind == "tactic"


def leaves_room(state: State, seat: int, card: str, section: str) -> bool:
    """Whether playing `card` in `section` leaves a section for each other card `seat` was given."""
    given = state.given[seat]
    rest: list[str | None] = list(given.known)
    if card in rest:
        rest.remove(card)
    rest += [None] * (given.unknown - (0 if card in given.known else 1))
    if not rest:
        return True
    free = tuple(s for s in state.commands[seat] if s not in state.played_in and s != section)
    return gifts_fit(free, rest, SECTION_CARDS)


def can_act_now(state: State) -> bool:
    """Whether a general of the active side may play a card or take the initiative now: after the
    commander handed out his cards, between other generals' plays, before any unit battles (M44-OV-6)."""
    return (
        state.phase in ("plays", "move", "battle")
        and state.pending is None
        and state.ambush_target is None
        and not unit_battled(state)
    )


def initiative_order_problem(state: State, units: list[Unit]) -> Message | None:
    """Why the initiative roll does not let the general order these units (M44-OV-7), or None."""
    assert state.initiative_table is not None and state.general is not None
    row = state.initiative_table.faces[state.roll[0]]
    if len(units) > row.orders:
        return _.ngettext(
            "the initiative roll orders at most {count} unit",
            "the initiative roll orders at most {count} units",
            row.orders,
        )
    if row.kinds and any(u.kind not in row.kinds for u in units):
        return _("the initiative roll orders {kinds} units only", kinds=alternatives([kind_name(k) for k in row.kinds]))
    return None


def _validate_gifts(state: State, event: CardsGiven, camp: int) -> None:
    if not state.teams:
        raise refuse("M44-OV-3", "no_teams", _("Cards are handed out only at an Overlord team table."))
    check_nothing_to_take(state)
    if camp != state.active or state.phase != "card":
        raise refuse("M44-OV-3", "gift_timing", _("The commander-in-chief hands out cards at the start of the turn."))
    if event.seat != state.commanders[camp]:
        raise refuse("M44-OV-3", "not_commander", _("Only the commander-in-chief hands out the side's cards."))
    if visibility_roll_due(state, camp):
        raise refuse("M44-NT-1", "roll_for_light", ROLL_FOR_LIGHT)
    if event.marines is not None:
        _check_marines(state, event.marines, camp)
    hand = state.hands[camp]
    count = len(event.gifts)
    in_hand: Sequence[int] = range(count)
    if hands_out_token(state, camp):  # M44-OV-8: the token's cards go out, and M44-OV-10 those beside them
        in_hand = _token_gifts(state, event)
    # He keeps one of his hand's cards; the token's cards go out even from an empty hand (M44-OV-8).
    none_allowed = count == 0 and nothing_to_hand_out(state, camp)
    if not (1 <= count <= MAX_GIFTS or none_allowed) or (in_hand and hand.size - len(in_hand) < 1):
        raise refuse(
            "M44-OV-3",
            "gift_count",
            _(
                "The commander-in-chief hands out 1 to {count} cards and keeps at least one ({held} in hand); "
                "he hands out none only when no card of his hand may go out.",
                count=MAX_GIFTS,
                held=hand.size,
            ),
            gifts=count,
        )
    per_general = _gifts_per_general(state, event, camp, in_hand)
    for general, cards in per_general.items():
        _check_general_cards(state, camp, general, cards)


def _check_marines(state: State, marines: int, camp: int) -> None:
    """M44-OV-9: the general the commander-in-chief names for the Marines' extra unit."""
    if state.expansions.marines != state.sides[camp]:
        raise refuse("M44-OV-9", "no_marines", _("Only a side under the US Marines rule names a general for it."))
    if not 0 <= marines < len(state.seat_camp) or state.seat_camp[marines] != camp or not state.commands[marines]:
        raise refuse("M44-OV-9", "not_a_general", _("The Marines' extra unit goes to a general of the side."))


def _gifts_per_general(
    state: State, event: CardsGiven, camp: int, in_hand: Sequence[int]
) -> dict[int, list[str | None]]:
    """The cards each general is handed, once each goes to a general of the side, those from the hand are
    in it (G-2), and a section card goes to a general of its section (M44-OV-3)."""
    known = list(state.hands[camp].known)
    unknown = state.hands[camp].unknown
    per_general: dict[int, list[str | None]] = {}
    for index, gift in enumerate(event.gifts):
        general, card = gift.general, gift.card
        if not 0 <= general < len(state.seat_camp) or state.seat_camp[general] != camp or not state.commands[general]:
            raise refuse(
                "M44-OV-3",
                "not_a_general",
                _("Seat {seat} commands no section of this side.", seat=str(general)),
                seat=general,
            )
        if index not in in_hand:  # from under the commissar token, checked with it (M44-OV-8)
            pass
        elif card is not None and card in known:
            known.remove(card)
        elif unknown:
            unknown -= 1
            if card is not None:
                check_unplaced(state, card)
        else:
            raise refuse(
                "M44-5", "card_not_in_hand", _("The commander-in-chief hands out cards from his hand."), card=card
            )
        spec = CARDS.get(card) if card is not None else None
        if spec is not None and spec.kind == "section" and not set(spec.sections) & set(state.commands[general]):
            raise refuse(
                "M44-OV-3",
                "wrong_general",
                _(
                    "{card} goes to a general commanding the {section} section.",
                    card=card_name(spec.card_id),
                    section=either_section(spec.sections),
                ),
                card=card,
                seat=general,
            )
        per_general.setdefault(general, []).append(card)
    return per_general


def _check_general_cards(state: State, camp: int, general: int, cards: list[str | None]) -> None:
    """M44-OV-3: at most two cards to a general, one if a tactic card, each playable in a section of his
    this turn."""
    tactic = any(c is not None and CARDS[c].kind == "tactic" for c in cards)
    if len(cards) > MAX_PER_GENERAL or (tactic and len(cards) > 1):
        raise refuse(
            "M44-OV-3",
            "too_many_for_general",
            _("A general receives at most 2 cards, and only one if it is a tactic card."),
            seat=general,
        )
    if not gifts_fit(state.commands[general], cards, SECTION_CARDS):
        raise refuse(
            "M44-OV-3",
            "no_section_for_card",
            _("A general plays one card per section he commands: these cards do not fit his sections."),
            seat=general,
        )
    unplayable = [c for c in cards if c is not None and held_back(state, camp, c)]
    if unplayable:
        raise refuse(
            "M44-OV-3",
            "unplayable_gift",
            _("{card} cannot be played by a general this turn.", card=card_name(str(unplayable[0]))),
            card=unplayable[0],
        )


def _validate_team_play(state: State, event: CardPlayed, camp: int, effective_card: EffectiveCard) -> bool:
    """M44-OV-5: a general plays a card he was given, in a section of his (never Ambush, played as usual)."""
    if event.card == "ambush":
        return False
    if camp != state.active or not can_act_now(state):
        raise refuse(
            "M44-OV-6",
            "play_timing",
            _("A general plays his cards after the commander hands them out and before the first battle."),
        )
    given = state.given[event.seat]
    if event.card not in given.known:
        if not given.unknown:
            raise refuse("M44-OV-5", "card_not_given", _("A general plays only the cards he was given this turn."))
        check_unplaced(state, event.card)
    effective = effective_card(state, event, camp)
    if effective == "ambush":
        raise refuse("M44-5", "ambush_in_turn", AMBUSH_IN_TURN)
    sections = play_sections(state, event.seat, effective, counter=event.card == "counter_attack")
    sections = tuple(s for s in sections if leaves_room(state, event.seat, event.card, s))
    if event.section is None and len(sections) == 1:
        return True
    if event.section not in sections:
        raise refuse(
            "M44-OV-5",
            "play_section",
            _(
                "{card} is played in one section this general commands where the side has not played yet: {left}.",
                card=card_name(event.card),
                left=listed([section_name(s) for s in sections]) if sections else _("none left"),
            ),
            section=event.section,
        )
    return True


def _validate_team_order(state: State, event: UnitsOrdered, camp: int) -> None:
    if event.seat != state.general:
        raise refuse("M44-OV-5", "not_the_general", _("The general who played the card orders its units."))
    sections = (state.section,) if state.section else state.commands[event.seat]
    for uid in event.units:
        hex_ = state.units[uid].hex
        if hex_ is not None and not set(sections) & set(state.board.sections(hex_, camp)):
            raise refuse(
                "M44-OV-5",
                "outside_section",
                _(
                    "The unit at {hex} is not in the {section} section.",
                    hex=hex_name(hex_),
                    section=either_section([s for s in sections if s]),
                ),
                unit=uid,
            )


def _validate_initiative(state: State, event: InitiativeTaken, camp: int) -> None:
    if not state.teams:
        raise refuse("M44-OV-7", "no_teams", _("The initiative is taken only at an Overlord team table."))
    if camp != state.active or not can_act_now(state):
        raise refuse(
            "M44-OV-7", "initiative_timing", _("A general takes the initiative in his side's turn, before battles.")
        )
    if not state.commands[event.seat] or event.seat in state.gifted or event.seat in state.initiative:
        raise refuse(
            "M44-OV-7",
            "initiative_not_allowed",
            _("Only a general given no card this turn takes the initiative, once."),
            seat=event.seat,
        )
    if state.initiative_table is None:
        raise refuse(
            "M44-OV-7",
            "missing_initiative_table",
            _("The Overlord initiative table is missing: import it as the game's initiative_table resource."),
            missing="initiative_table",
        )
    if event.face not in FACE_NAMES:
        raise refuse("M44-3", "wrong_faces", _("Report the face rolled ({faces}).", faces=ALL_FACES))


TEAM_TURN = ("plays", "order", "roll", "move", "battle")  # a team turn after the cards are handed out


def held_back(state: State, camp: int, card: str) -> bool:
    """Whether a card stays in the commander-in-chief's hand however he hands out (M44-OV-3): Ambush, which
    answers an enemy assault, and Counter-Attack while the enemy has played nothing to copy."""
    return card == "ambush" or (card == "counter_attack" and state.last_played[1 - camp] is None)


def nothing_to_hand_out(state: State, camp: int) -> bool:
    """Whether the commander-in-chief may hand out no card this turn (M44-OV-3), so he hands out none: he
    keeps one, holds back the cards above, and a section card goes to a general of its section. Cards of the
    hand the record does not know are taken to be held back when none it knows may go out (G-2)."""
    if hands_out_token(state, camp):  # M44-OV-8: the commissar token's cards go out instead
        return False
    hand = state.hands[camp]
    generals = [state.commands[s] for s, c in enumerate(state.seat_camp) if c == camp and state.commands[s]]
    return hand.size < 2 or not any(
        not held_back(state, camp, card) and any(general_takes(own, (card,), SECTION_CARDS) for own in generals)
        for card in set(hand.known)
    )


def commander_draws(state: State) -> int:
    """The cards the active side's commander-in-chief draws at the end of its turn (M44-OV-4): two, up to
    the scenario's hand size, the cards under the commissar token counting as held (M44-OV-8)."""
    held = cards_held(state, state.active)
    return max(0, min(COMMANDER_DRAWS, state.hand_limit[state.active] - held))


def hand_full(state: State) -> bool:
    """Whether a team turn ends with no draw: the commander-in-chief handed out nothing and his hand is
    still full (M44-OV-3, M44-OV-4)."""
    return state.teams and commander_draws(state) == 0


def hands_out_token(state: State, camp: int) -> bool:
    """Whether `camp`'s commander-in-chief hands out the cards under the commissar token this turn
    (M44-OV-8): at a team table under the commissar rule, once cards lie there."""
    return state.teams and bool(state.token) and camp == commissar_camp(state)


def placement_due(state: State, camp: int) -> bool:
    """Whether the commissar's side at a team table still places a card under the token before its draw
    (M44-OV-8): none placed yet this turn, and a card other than Ambush to place while keeping one."""
    hand = state.hands[camp]
    return (
        state.teams
        and camp == commissar_camp(state)
        and not state.committed
        and hand.size > 1
        and (hand.unknown > 0 or any(card != "ambush" for card in hand.known))
    )


def token_cards_fit(state: State, camp: int, cards: tuple[str | None, ...]) -> bool:
    """Whether `cards` under the token could all be handed to `camp`'s generals next turn (M44-OV-8)."""
    generals = [state.commands[s] for s, c in enumerate(state.seat_camp) if c == camp and state.commands[s]]
    return token_fits(generals, cards, SECTION_CARDS)


def _check_team_placement(state: State, event: CardCommitted, camp: int) -> None:
    if event.seat != state.commanders[camp]:
        raise refuse(
            "M44-OV-8", "not_commander", _("Only the commander-in-chief places cards under the commissar token.")
        )
    if camp != state.active or state.phase not in TEAM_TURN:
        raise refuse(
            "M44-OV-8",
            "commit_timing",
            _(
                "At a team table the commander-in-chief places cards under the commissar token in his side's turn, "
                "after handing out his cards and before the draw."
            ),
            phase=state.phase,
        )
    if state.ambush_target is not None:
        raise refuse("M44-5", "ambush_first", AMBUSH_FIRST)
    if len(state.token) >= MAX_UNDER_TOKEN:
        raise refuse("M44-OV-8", "token_full", _("At most three cards are placed under the commissar token a turn."))
    if state.hands[camp].size < 2:
        raise refuse("M44-OV-8", "keep_one", _("The commander-in-chief keeps at least one card in hand."))


def _token_gifts(state: State, event: CardsGiven) -> tuple[int, ...]:
    """Check that every card under the commissar token is handed out (M44-OV-8), a face-down one named only
    as a card with a copy unplaced (G-2), and that the others may go out at once from the hand (M44-OV-10);
    return the gifts (by index) that come from the hand."""
    cards = [gift.card for gift in event.gifts]
    extras = from_hand(state.token, cards)
    if extras is None:
        raise refuse(
            "M44-OV-8",
            "token_cards",
            _.ngettext(
                "Eastern Front: the commander-in-chief hands out the {count} card under the commissar token, every "
                "one of them.",
                "Eastern Front: the commander-in-chief hands out the {count} cards under the commissar token, every "
                "one of them.",
                len(state.token),
            ),
            under_token=len(state.token),
        )
    if extras and len(state.token) >= MAX_UNDER_TOKEN:
        raise refuse(
            "M44-OV-10",
            "token_full",
            _("With three cards under the commissar token, no card goes out at once from the hand."),
        )
    for index in extras:
        card = cards[index]
        if card not in AT_ONCE:
            counter = card_name("counter_attack")
            raise refuse(
                "M44-OV-10",
                "not_at_once",
                _(
                    "Eastern Front: beside the cards under the commissar token only {card} goes out at once from the "
                    "hand; Recon 1 goes under the token first.",
                    card=counter,
                )
                if card in RECON_CARDS
                else _(
                    "Eastern Front: beside the cards under the commissar token only {card} goes out at once from the "
                    "hand.",
                    card=counter,
                ),
                card=card,
            )
    placed = [card for card in state.token if card is not None]
    named: Counter[str] = Counter()  # the token's face-down cards, named as they go out
    for index, card in enumerate(cards):
        if index in extras or card is None:
            continue
        if card in placed:
            placed.remove(card)
        else:
            named[card] += 1
    for card, copies in sorted(named.items()):
        check_unplaced(state, card)
        if known_copies(state, card) + copies > CARDS[card].count:
            spec = CARDS[card]
            raise refuse(
                "G-2",
                "too_many_copies",
                _("The deck holds {count} {card}.", count=spec.count, card=card_name(card)),
                card=card,
            )
    return extras


def _evolve_team_play(state: State, event: CardPlayed, camp: int, card_in_play: CardInPlay) -> State | None:
    """M44-OV-5: a general plays a card he was given, in one section; his orders follow. Units ordered by
    earlier plays this turn keep their card (`Order.card`). Ambush is played as at two players."""
    if event.card == "ambush":
        return None
    section = event.section
    if section is None:
        effective = event.as_card or event.card
        if event.card == "counter_attack":
            answered = state.last_played[1 - camp]
            assert answered is not None
            effective = answered[0]
        section = play_sections(state, event.seat, effective, counter=event.card == "counter_attack")[0]
    given = list(state.given)
    given[event.seat] = take_card(given[event.seat], event.card)
    state = replace(state, given=tuple(given), discard=(*state.discard, event.card))
    state = card_in_play(state, event, camp)
    return replace(
        state,
        section=section,
        played_in=(*state.played_in, section),
        general=event.seat,
        phase="move" if state.phase == "battle" else state.phase,
    )


def _evolve_gifts(state: State, event: CardsGiven) -> State:
    camp = state.seat_camp[event.seat]
    hand = state.hands[camp]
    given = list(state.given)
    token = hands_out_token(state, camp)  # M44-OV-8: the token's cards go out, only the others leave the hand
    in_hand = from_hand(state.token, [g.card for g in event.gifts]) if token else range(len(event.gifts))
    assert in_hand is not None
    for index, gift in enumerate(event.gifts):
        card = gift.card
        if index in in_hand:
            # a face-down card of the hand may be named now, or stay unknown (G-2)
            hand = take_card(hand, card) if card is not None else Hand(known=hand.known, unknown=hand.unknown - 1)
        old = given[gift.general]
        given[gift.general] = (
            Hand(known=(*old.known, card), unknown=old.unknown)
            if card is not None
            else Hand(known=old.known, unknown=old.unknown + 1)
        )
    return replace(
        state,
        hands=with_hand(state, camp, hand),
        token=() if token else state.token,
        given=tuple(given),
        gifted=tuple(sorted({g.general for g in event.gifts})),
        marines=event.marines,
        # Nothing handed out, nothing to play: the generals may take the initiative, and the turn may end.
        phase="plays" if event.gifts else "move",
        last_move=(),
        last_battle=None,
    )


def _evolve_initiative(state: State, event: InitiativeTaken) -> State:
    assert state.initiative_table is not None
    row = state.initiative_table.faces[event.face]
    return replace(
        state,
        initiative=(*state.initiative, event.seat),
        general=event.seat,
        card=None,
        effective=INITIATIVE,
        section=None,
        roll=(event.face,),
        phase="order" if row.orders else ("move" if state.phase == "plays" and state.orders else state.phase),
    )


# ---------------------------------------------------------------- legal events


def initiative_choices(state: State, units: list[Unit]) -> list[tuple[int, ...]]:
    """The units the initiative roll lets the general order (M44-OV-7), at the most it allows."""
    assert state.initiative_table is not None
    row = state.initiative_table.faces[state.roll[0]]
    fit = [u.uid for u in units if not row.kinds or u.kind in row.kinds]
    return list(combinations(fit, min(row.orders, len(fit))))


def gift_events(state: State, seat: int, camp: int) -> list[Memoire44Event]:
    """Every way the commander-in-chief may hand out cards (M44-OV-3): 1 to 3 of his cards, keeping one,
    at most 2 to a general and only 1 if it is a tactic card, a section card to a general of its section."""
    hand = state.hands[camp]
    items: list[str | None] = [*hand.known, *([None] * hand.unknown)]
    generals = [s for s, c in enumerate(state.seat_camp) if c == camp and state.commands[s]]
    if hands_out_token(state, camp):
        choices = _token_gift_choices(state, camp)  # M44-OV-8, M44-OV-10
    else:
        choices = [
            [items[i] for i in picked]
            for count in range(1, min(MAX_GIFTS, len(items) - 1) + 1)
            for picked in combinations(range(len(items)), count)
        ]
        if nothing_to_hand_out(state, camp):  # M44-OV-3: no card he knows may go out, so he may hand out none
            choices.insert(0, [])
    found: dict[tuple[tuple[int, str], ...], CardsGiven] = {}
    for cards in choices:
        for to in product(generals, repeat=len(cards)):
            gifts = tuple(Gift(general=g, card=c) for g, c in zip(to, cards, strict=True))
            if _gifts_fit(state, gifts):
                key = tuple(sorted((g.general, g.card or "") for g in gifts))
                found.setdefault(key, CardsGiven(seat=seat, gifts=gifts))
    if state.expansions.marines == state.sides[camp]:  # M44-OV-9: and the general with one more unit
        return [replace(e, marines=g) for e in found.values() for g in generals]
    return list(found.values())


def _token_gift_choices(state: State, camp: int) -> list[list[str | None]]:
    """Eastern Front (M44-OV-8, M44-OV-10): the cards under the commissar token, all of them, and beside
    them, while fewer than three lay there, as many Counter-Attacks from the hand as may go out at once."""
    hand = state.hands[camp]
    token = list(state.token)
    room = min(MAX_GIFTS - len(token), hand.size - 1) if len(token) < MAX_UNDER_TOKEN else 0
    choices = []
    for card in sorted(AT_ONCE):
        unplaced = CARDS[card].count - known_copies(state, card)
        held = hand.known.count(card) + min(hand.unknown, unplaced)
        choices += [[*token, *([card] * count)] for count in range(1, min(room, held) + 1)]
    return [token, *choices]


def token_placements(state: State, seat: int, camp: int) -> list[Memoire44Event]:
    """Eastern Front (M44-OV-8): each card the commander-in-chief may place under the commissar token now,
    up to three a turn, keeping one in hand, never Ambush, and fitting the generals with those already there."""
    hand = state.hands[camp]
    if len(state.token) >= MAX_UNDER_TOKEN or hand.size < 2 or state.ambush_target is not None:
        return []
    cards: list[str | None] = [*sorted(set(hand.known))]
    if hand.unknown:
        cards.append(None)
    return [CardCommitted(seat=seat, card=c) for c in cards if token_cards_fit(state, camp, (*state.token, c))]


def _gifts_fit(state: State, gifts: tuple[Gift, ...]) -> bool:
    per: dict[int, list[str | None]] = {}
    for gift in gifts:
        spec = CARDS.get(gift.card) if gift.card is not None else None
        if spec is not None and spec.kind == "section" and not set(spec.sections) & set(state.commands[gift.general]):
            return False
        per.setdefault(gift.general, []).append(gift.card)
    camp = state.active
    for general, cards in per.items():
        if not general_takes(state.commands[general], cards, SECTION_CARDS):
            return False
        if any(card is not None and held_back(state, camp, card) for card in cards):
            return False
    return True


# ---------------------------------------------------------------- the hooks the base rules call


def _before_turn_end(state: State, camp: int) -> RuleError | None:
    if given_left(state):
        return refuse("M44-OV-5", "cards_to_play", _("Every card handed to a general is played before the draw."))
    if placement_due(state, camp):
        return refuse(
            "M44-OV-8",
            "place_first",
            _(
                "Eastern Front: the commander-in-chief places one to three cards under the commissar token before "
                "the draw."
            ),
        )
    return None


def _before_unit_battle(state: State, camp: int) -> RuleError | None:
    if given_left(state) or state.phase in ("order", "roll"):
        return refuse(
            "M44-OV-6",
            "moves_first",
            _("Overlord: every general plays his cards and moves his units before the first battle."),
        )
    return None


def _draws(state: State) -> tuple[int, RuleError] | None:
    why = _("The commander-in-chief's hand is full: the turn ends with no draw (turn_ended).")
    return commander_draws(state), refuse("M44-OV-4", "hand_full", why)


def _validate_commit(state: State, event: CardCommitted, camp: int) -> bool:
    """M44-OV-8: at a team table the commander-in-chief places up to three cards in his side's turn, which
    his generals can all be handed next turn."""
    _check_team_placement(state, event, camp)
    check_commit_card(state, event, camp)
    if not token_cards_fit(state, camp, (*state.token, event.card)):
        raise refuse(
            "M44-OV-8",
            "token_unplayable",
            _(
                "The cards under the commissar token go to the generals together next turn (at most two each, a "
                "tactic card alone, each in a section of his): this card would not fit with them."
            ),
            card=event.card,
        )
    return True


def _validate_orders(state: State, event: UnitsOrdered, camp: int) -> None:
    _validate_team_order(state, event, camp)


def _next_turn(state: State) -> State:
    return replace(
        state,
        given=tuple(Hand() for _ in state.given),
        gifted=(),
        played_in=(),
        initiative=(),
        general=None,
        marines=None,
    )


EXPANSION = Expansion(
    name="Overlord team table",
    in_play=lambda state: state.teams,
    validators=validators(
        on_camp(CardsGiven, _validate_gifts),
        on_camp(InitiativeTaken, _validate_initiative),
    ),
    evolvers=dispatch(
        on(CardsGiven, _evolve_gifts),
        on(InitiativeTaken, _evolve_initiative),
    ),
    before_turn_end=_before_turn_end,
    before_unit_battle=_before_unit_battle,
    draws=_draws,
    validate_play=_validate_team_play,
    evolve_play=_evolve_team_play,
    validate_commit=_validate_commit,
    validate_orders=_validate_orders,
    extra_order=marines_extra,
    orders_for={INITIATIVE: initiative_order_problem},
    order_choices={INITIATIVE: initiative_choices},
    next_turn=_next_turn,
)
