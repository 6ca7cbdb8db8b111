"""Replay lines, chaptered by battle and round, as messages told in the reader's language (English is
the templates' own)."""

from __future__ import annotations

from domain.atlantic_storm.catalogue import Card
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
    StormRolled,
    StormStruck,
    SupplyTaken,
    ZoneDeclared,
)
from domain.atlantic_storm.rules import storm_hit
from domain.atlantic_storm.state import State
from domain.atlantic_storm.words import CARGOES, OCEANS, SIDES, card_name, chained, listed, semicolons
from domain.i18n import Arg, Catalogue, Message, joined
from domain.ruleset import Narration, Viewer

_ = Catalogue("domain.atlantic_storm")

ZONES = {
    "air": lambda who: _("{who} declares an air battle.", who=who),
    "surface": lambda who: _("{who} declares a surface battle.", who=who),
    "submarine": lambda who: _("{who} declares a submarine battle.", who=who),
    "combined": lambda who: _("{who} declares a combined battle.", who=who),
}


def _name(state: State, number: str) -> Arg:
    return card_name(state.cards[number])


def _names(state: State, numbers: tuple[str, ...] | list[str]) -> Arg:
    return listed([_name(state, n) for n in numbers])


def _chapters(state: State) -> tuple[tuple[str, int], ...]:
    battle = state.battle
    if battle is None:
        if state.phase == "refill":  # the refill after a battle belongs to it (AS-12)
            return (("battle", state.battles_fought),)
        return (("battle", state.battles_fought + 1),) if state.phase == "turn_convoy" else ()
    chapters: tuple[tuple[str, int], ...] = (("battle", battle.number), ("round", battle.round))
    if state.players == 2:
        chapters += (("half", battle.half),)
    return chapters


def narrate(before: State, event: AtlanticStormEvent, after: State, viewer: Viewer) -> Narration:
    """One line for `event` as `viewer` may know it; it also tells what the event decided (a battle won,
    a tie, the end)."""
    seat: int | None = getattr(event, "seat", None)
    who = before.names[seat] if seat is not None else ""
    parts = [_secret_text(before, event, who, viewer) or _text(before, event, after, who)]
    decision = after.decision
    if decision is not None and decision is not before.decision:
        convoy = _name(before, decision.convoy)
        if decision.kind == "no_combat":
            parts.append(_("No combat: nobody wins {convoy}, which is discarded.", convoy=convoy))
        elif decision.kind == "tie":
            parts.append(
                _(
                    "The sides tie {score} to {score}: the battle for {convoy} goes on with a new round.",
                    score=decision.allied,
                    convoy=convoy,
                )
            )
        else:
            winner: Arg = before.names[decision.trick_winner] if decision.trick_winner is not None else _("nobody")
            allied = decision.kind == "allied"
            high, low = (decision.allied, decision.german) if allied else (decision.german, decision.allied)
            score: dict[str, Arg] = {"high": high, "low": low, "winner": winner, "convoy": convoy}
            if allied:
                parts.append(_("The Allies win {high} to {low}; {winner} takes the trick ({convoy}).", **score))
            else:
                parts.append(_("The Germans win {high} to {low}; {winner} takes the trick ({convoy}).", **score))
    if after.phase == "over" and before.phase != "over":
        parts.append(_("That was the last convoy: the game is over."))
    return Narration.told(joined(parts), seat=seat, chapters=_chapters(before))


def _secret_text(before: State, event: AtlanticStormEvent, who: str, viewer: Viewer) -> Message | None:
    """The line of an event whose cards only its seat sees (G-2): cards drawn into a hand, and a card
    discarded instead of a play, which goes face down to a pile nobody looks through (AS-3, AS-12).
    They are named to that seat and in the full record; everyone else reads how many. An intelligence
    card discarded after its turn was played face up, so it is named to all."""
    if isinstance(event, CardsDrawn):
        count = len(event.cards)
        if viewer.sees(event.seat) and any(event.cards):
            drawn = [_name(before, c) if c is not None else _("a card face down") for c in event.cards]
            return _("{who} draws {cards}.", who=who, cards=listed(drawn))
        return _.ngettext("{who} draws {count} card.", "{who} draws {count} cards.", count, who=who)
    if isinstance(event, CardDiscarded):
        battle = before.battle
        shown = battle is not None and bool(battle.queue) and battle.queue[0].intelligence == event.card
        if shown or viewer.sees(event.seat):
            if event.card is None:  # one of the hand's face-down cards: nobody saw it
                return _("{who} discards a card face down.", who=who)
            return _("{who} discards {card}.", who=who, card=_name(before, event.card))
        return _("{who} discards a card.", who=who)
    return None


def _facts(convoy: Card) -> Message:
    """A convoy's printed facts: year, ocean, cargo and VP."""
    return _(
        "{year}, {ocean}, {cargo}, {vp} VP",
        year=str(convoy.years[0]) if convoy.years else "?",
        ocean=OCEANS.get(convoy.ocean, convoy.ocean),
        cargo=CARGOES.get(convoy.cargo) or _("unknown cargo"),
        vp=str(convoy.vp),
    )


def _text(before: State, event: AtlanticStormEvent, after: State, who: str) -> Message:
    cards = before.cards
    if isinstance(event, ConvoysCut):
        cuts = [
            _("{player} cuts {convoy} ({number})", player=before.names[s], convoy=_name(before, c), number=c)
            if c is not None
            else _("{player} cuts a convoy", player=before.names[s])
            for s, c in enumerate(event.cuts)
        ]
        if after.dealer is None:  # listed before its convoys are named: nobody deals yet
            return _("{cuts}. The lowest number deals.", cuts=semicolons(cuts))
        return _(
            "{cuts}. {dealer} cut the lowest number and deals.", cuts=semicolons(cuts), dealer=after.names[after.dealer]
        )
    if isinstance(event, CardsDealt):
        dealer = before.dealer if before.dealer is not None else 0
        return _("{dealer} deals six force cards to each player.", dealer=before.names[dealer])
    if isinstance(event, ConvoyTurned):
        convoy = _name(before, event.convoy)
        facts = _facts(cards[event.convoy])
        if event.discarded is not None:
            return _(
                "{who} takes {convoy} and {other}, keeps {convoy} ({facts}) and discards {other}.",
                who=who,
                convoy=convoy,
                other=_name(before, event.discarded),
                facts=facts,
            )
        return _("{who} turns {convoy} ({facts}).", who=who, convoy=convoy, facts=facts)
    if isinstance(event, ZoneDeclared):
        return ZONES[event.zone](who)
    if isinstance(event, CardsPlayed):
        return _play_text(before, event, who)
    if isinstance(event, IntelligencePlayed):
        card = cards[event.card]
        return _(
            "{who} plays {card} and will play last this round, for {side}.",
            who=who,
            card=card_name(card),
            side=SIDES.get(card.side, card.side),
        )
    if isinstance(event, HandDiscarded):
        return _("{who} discards the whole hand ({count} cards).", who=who, count=len(event.cards))
    if isinstance(event, StormRolled):
        face = event.face
        if face <= 3:
            return _(
                "{who} rolls a {face} for the storm: it may cancel a play or make a player skip.", who=who, face=face
            )
        battle = after.battle
        storm = battle.storm if battle is not None else None
        if storm is None:
            return _("{who} rolls a {face} for the storm, which blows itself out.", who=who, face=face)
        return _(
            "{who} rolls a {face} for the storm, which passes to {holder}.",
            who=who,
            face=face,
            holder=after.names[storm.holder],
        )
    if isinstance(event, StormStruck):
        if event.target is None:
            return _("{who} lets the storm pass without using it.", who=who)
        return _storm_text(before, event, who)
    if isinstance(event, DiceRolled):
        return _("{who} rolls {faces} for {card}.", who=who, faces=chained(event.faces), card=_name(before, event.card))
    if isinstance(event, SupplyTaken):
        supply = _name(before, event.supply)
        if event.card is None:
            return _("{who}'s {supply} refuels nothing.", who=who, supply=supply)
        return _(
            "{who}'s {supply} refuels {card} into {who}'s hand.", who=who, supply=supply, card=_name(before, event.card)
        )
    if isinstance(event, SpoilsDivided):
        shares = [
            _("{player} gets {cards}", player=before.names[s.seat], cards=_names(before, list(s.cards)))
            if s.cards
            else _("{player} gets nothing", player=before.names[s.seat])
            for s in event.shares
        ]
        return _("{who} divides the spoils: {shares}.", who=who, shares=semicolons(shares))
    if isinstance(event, DeckReshuffled):
        return _(
            "The deck has run out: the discard pile ({count} cards) is shuffled into a new deck.",
            count=len(before.discard),
        )
    return _("{who} reports {event}.", who=who, event=type(event).__name__)


def _cancel(player: str, half: int | None, lost: Arg | None) -> Message:
    """What a storm's cancel did to one play: with two players, which round of play it was."""
    if half == 1:
        if lost is None:
            return _("cancels {player}'s first-round play", player=player)
        return _("cancels {player}'s first-round play ({cards})", player=player, cards=lost)
    if half == 2:
        if lost is None:
            return _("cancels {player}'s second-round play", player=player)
        return _("cancels {player}'s second-round play ({cards})", player=player, cards=lost)
    if lost is None:
        return _("cancels {player}'s play", player=player)
    return _("cancels {player}'s play ({cards})", player=player, cards=lost)


def _storm_text(before: State, event: StormStruck, who: str) -> Message:
    """What the strike did (AS-7, AS-18): the play it cancelled, with its round of play in the two-player
    game, or the play it took away; a strike recorded before AS-18 may have done both."""
    battle = before.battle
    target = event.target
    assert battle is not None and target is not None
    name = before.names[target]
    cancels, skip = storm_hit(before, event)
    two = before.players == 2
    parts: list[Arg] = []
    for half in cancels:
        lost = [n for p in battle.plays if p.seat == target and p.half == half and not p.cancelled for n in p.cards()]
        parts.append(_cancel(name, half if two else None, _names(before, lost) if lost else None))
    if skip:
        waiting = any(t.seat == target and t.intelligence is None for t in battle.queue)
        if waiting:
            parts.append(_("makes {player} skip the turn", player=name))
        else:
            parts.append(_("makes {player} skip the play in the second round", player=name))
    return _("{who}'s storm {effects}.", who=who, effects=chained(parts))


def _play_text(before: State, event: CardsPlayed, who: str) -> Message:
    cards = before.cards
    battle = before.battle
    parts: list[Arg] = []
    for normal in event.normals:
        attached = [b.card for b in event.bonuses if b.parent == normal]
        name = _name(before, normal)
        parts.append(_("{card} with {bonuses}", card=name, bonuses=_names(before, attached)) if attached else name)
    parts += [_name(before, b.card) for b in event.bonuses if b.parent is None]
    parts += [_name(before, n) for n in event.specials + event.supplies]
    sides = {cards[n].side for n in event.normals + event.specials + event.supplies} - {"either"}
    sides |= {cards[b.card].side for b in event.bonuses}
    side = SIDES[next(iter(sides))] if len(sides) == 1 else None
    played = listed(parts)
    combined = event.admiral == "combined"
    if side is not None:
        if combined:
            line = _(
                "{who} plays {cards} for {side}; the admiral makes the battle combined.",
                who=who,
                cards=played,
                side=side,
            )
        else:
            line = _("{who} plays {cards} for {side}.", who=who, cards=played, side=side)
    elif combined:
        line = _("{who} plays {cards}; the admiral makes the battle combined.", who=who, cards=played)
    else:
        line = _("{who} plays {cards}.", who=who, cards=played)
    lines = [line]
    convoy = battle.convoy if battle is not None else ""
    for victim in event.victims:
        name = _name(before, victim)
        if victim == convoy:
            lines.append(_("{card} is this play's fate victim: the fate card's value doubles.", card=name))
            continue
        owner = next((before.names[p.seat] for p in (battle.plays if battle else ()) if victim in p.cards()), "")
        if cards[victim].category == "normal":
            lines.append(
                _("Fate: {card} ({owner}'s) is destroyed and goes face down to {who}.", card=name, owner=owner, who=who)
            )
        else:
            lines.append(_("Fate: {card} ({owner}'s) is destroyed.", card=name, owner=owner))
    return joined(lines)
