"""What the cards standing in a battle fight with: a card's combat value in the zone and the dice its '?'
values take (AS-5), a play's value (AS-9), the zone in force and the side the special cards standing hold
later plays to (AS-7), the fate cards' consequences (AS-6) and the dice still due.

The rules (`rules`), the legal events (`legal`) and the views (`views`) all read these; they change no state.
"""

from __future__ import annotations

from domain.atlantic_storm.catalogue import Card
from domain.atlantic_storm.state import Battle, Play, State

# Dice a printed '?' value takes (AS-5); a dict lookup is cheaper than testing each spelling.
_DICE = {"?": 1, "??": 2}
# The printed values a catalogue allows that need no dice: 0-6 and +0..+6, blank for none (counts 0).
# Anything else is parsed as before, so a hand-made catalogue is read the same way.
_FIXED = {"": 0} | {str(n): n for n in range(7)} | {f"+{n}": n for n in range(7)}


def _printed(card: Card, zone: str) -> tuple[str, ...]:
    """The printed values a card fights with in a zone: all three in combined (air, surface, submarine)."""
    if zone == "combined":
        return (card.air, card.surface, card.submarine)
    return (card.value(zone),)


def dice_needed(card: Card, zone: str) -> int:
    """Dice a card's '?' values take in a zone: one per '?', '??' is two (AS-5)."""
    if zone == "combined":
        return _DICE.get(card.air, 0) + _DICE.get(card.surface, 0) + _DICE.get(card.submarine, 0)
    return _DICE.get(card.value(zone), 0)


def card_value(card: Card, zone: str, faces: tuple[int, ...] = (), doubled: bool = False) -> int:
    """A card's combat value in the zone (combined: all three), '?' taken from the faces rolled,
    doubled for a fate card against its convoy (AS-5)."""
    total = 0
    used = 0
    for printed in _printed(card, zone):
        fixed = _FIXED.get(printed)
        if fixed is not None:
            total += fixed
            continue
        dice = _DICE.get(printed)
        if dice:
            total += sum(faces[used : used + dice])
            used += dice
        elif printed[0] == "+":
            total += int(printed[1:])
        else:
            total += int(printed)
    return total * 2 if doubled else total


def play_value(state: State, play: Play, zone: str) -> int:
    """A play's value: its normal cards and their bonuses (AS-9); fate doubling only on the fate card."""
    if play.cancelled:
        return 0
    faces = dict(play.dice)
    cards = state.cards
    doubled = play.doubled
    total = 0
    for number in play.normals:
        total += card_value(cards[number], zone, faces.get(number, ()), number in doubled)
    for bonus in play.bonuses:
        number = bonus.card
        total += card_value(cards[number], zone, faces.get(number, ()), number in doubled)
    return total


def fighting(play: Play) -> list[str]:
    """The play's normal cards then its bonus cards: the cards that count in combat (AS-9)."""
    numbers = list(play.normals)
    for bonus in play.bonuses:
        numbers.append(bonus.card)
    return numbers


def zone_now(battle: Battle) -> str:
    """The zone in force: the declared one, or combined while an admiral's play stands (AS-7)."""
    for play in battle.plays:
        if play.admiral == "combined" and not play.cancelled:
            return "combined"
    return battle.zone or "combined"


def restrictions(state: State, battle: Battle) -> tuple[str | None, bool]:
    """The side later plays are held to (Raid on St Nazaire / 2nd Happy Time) and whether Black Gap
    forbids Allied aircraft, from the plays standing this round (AS-7, AS-14 for two players)."""
    only: str | None = None
    black_gap = False
    cards = state.cards
    for play in battle.plays:
        if play.cancelled:
            continue
        for number in play.cards():
            special = cards[number].special
            if not special:
                continue
            if special == "raid":
                only = "allied" if only in (None, "allied") else "nobody"
            elif special == "happy_time":
                only = "german" if only in (None, "german") else "nobody"
            elif special == "black_gap":
                black_gap = True
    return only, black_gap


def fate_effects(
    state: State, battle: Battle, seat: int, numbers: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The fate consequences of a new play (AS-6): the play's cards whose victim is the convoy (doubled)
    and the cards played earlier in this round of play that it destroys (two players: in this half of
    the battle only, AS-19)."""
    victims = state.victims
    if victims.keys().isdisjoint(numbers):
        return (), ()
    doubled: list[str] = []
    destroyed: list[str] = []
    half = battle.half
    standing = {n for play in battle.plays if not play.cancelled and play.half == half for n in fighting(play)}
    for number in numbers:
        victim = victims.get(number)
        if victim is None:
            continue
        if victim == battle.convoy:
            doubled.append(number)
        elif victim in standing:
            destroyed.append(victim)
    return tuple(doubled), tuple(destroyed)


def pending_dice(state: State, battle: Battle | None = None) -> tuple[tuple[int, str, int], ...]:
    """(seat, card, dice) for every '?' card standing that has not been rolled (AS-5)."""
    battle = battle or state.battle
    assert battle is not None
    zone = zone_now(battle)
    cards = state.cards
    out: list[tuple[int, str, int]] = []
    for play in battle.plays:
        if play.cancelled:
            continue
        for number in fighting(play):
            dice = dice_needed(cards[number], zone)
            # The rolls are looked at only for a '?' card, which few plays hold.
            if dice and number not in dict(play.dice):
                out.append((play.seat, number, dice))
    return tuple(out)
