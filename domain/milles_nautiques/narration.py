"""Replay lines: what a club member would write, in chapters (round, turn), as messages the service tells in
the reader's language (English as the templates say it).

French elides "de" and "que" before a vowel ("d'Alain", "qu'Alain"), which a template cannot know, so its
sentences never put a player's name after either word ("le premier convoi posé par Alain", "Alain commence
son tour"). Half-points are told as a number of points (26.5, "26,5" in French).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.i18n import Arg, Catalogue, Message, joined
from domain.milles_nautiques.catalogue import BY_NAME, grouped
from domain.milles_nautiques.events import (
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
from domain.milles_nautiques.scoring import ROUND_TARGET, arrived_sides, in_points, points, round_winners
from domain.milles_nautiques.state import Consequence, State, seen_by
from domain.ruleset import Narration, Viewer

_ = Catalogue("domain.milles_nautiques")

# A convoy is named by the order its layer laid it: its ordinal is a word of its own, which French and
# Spanish put in their own place and agree with "convoi" / "convoy" ("le premier", "el primer").
ORDINALS = (
    _.pgettext("convoy", "first"),
    _.pgettext("convoy", "second"),
    _.pgettext("convoy", "third"),
    _.pgettext("convoy", "fourth"),
    _.pgettext("convoy", "fifth"),
    _.pgettext("convoy", "sixth"),
    _.pgettext("convoy", "seventh"),
    _.pgettext("convoy", "eighth"),
    _.pgettext("convoy", "ninth"),
    _.pgettext("convoy", "tenth"),
    _.pgettext("convoy", "eleventh"),
    _.pgettext("convoy", "twelfth"),
    _.pgettext("convoy", "thirteenth"),
)


def convoy_name(state: State, number: int, starts: bool = False) -> Message:
    """ "Alain's second convoy": the second convoy Alain laid this round. Convoys are named by the order
    their layer laid them, which never changes, not by their place in the row, which shifts as convoys
    are slipped in, arrive or sink. `starts`: the name opens a sentence (a capital in every language)."""
    convoy = state.convoys[number - 1]
    laid_before = sum(1 for other in state.convoys[: number - 1] if other.seat == convoy.seat)
    player, ordinal = state.names[convoy.seat], ORDINALS[laid_before]
    if starts:
        player = player[:1].upper() + player[1:]
        if player.endswith("s"):
            return _.pgettext("sentence start", "{player}' {ordinal} convoy", player=player, ordinal=ordinal)
        return _.pgettext("sentence start", "{player}'s {ordinal} convoy", player=player, ordinal=ordinal)
    if player.endswith("s"):
        return _("{player}' {ordinal} convoy", player=player, ordinal=ordinal)
    return _("{player}'s {ordinal} convoy", player=player, ordinal=ordinal)


def _where_laid(before: State, event: ConvoyPlaced) -> Message:
    """Where a convoy is laid in its row (MN-3: at either end or between two convoys), told from the row
    as it was: a convoy sunk at the start of the next turn must not move it."""
    row = before.rows[before.side_of[event.seat]]
    place = event.position
    if not row:
        return _("to open the row")
    if place == 0:
        return _("at the port end of the row")
    if place == len(row):
        return _("at the starboard end of the row")
    return _(
        "between {convoy} and {other}",
        convoy=convoy_name(before, row[place - 1]),
        other=convoy_name(before, row[place]),
    )


def _label(card: str | None) -> Message:
    return BY_NAME[card].label if card is not None else _.pgettext("card", "a card")


def _event_text(before: State, event: MillesNautiquesEvent, after: State, viewer: Viewer) -> Message:
    names = before.names
    if isinstance(event, Dealt):
        first = names[(event.dealer + 1) % len(names)]
        return _(
            "{dealer} deals six cards to each player; {first} plays first.", dealer=names[event.dealer], first=first
        )
    if isinstance(event, ConvoysRevealed):
        shown = [
            _("{convoy} is {card}", convoy=convoy_name(before, item.convoy), card=_label(item.card))
            for item in event.convoys
        ]
        return _("The table reveals convoys: {convoys}.", convoys=_listed(shown))
    who = names[event.seat]
    # A drawn card and a convoy laid face down are told as the viewer knows them (G-2): the drawer's own
    # draw, his side's convoys (MN-18) and the full record name the card; everyone else reads "a card".
    if isinstance(event, Drew):
        return _("{player} draws {card}.", player=who, card=_label(event.card if viewer.sees(event.seat) else None))
    if isinstance(event, Discarded):
        return _("{player} discards {card}.", player=who, card=_label(event.card))
    if isinstance(event, ConvoyPlaced):
        laid = seen_by(after, viewer).convoys[-1].card
        what = _("{card} face down", card=_label(laid)) if laid is not None else _("a convoy face down")
        return _(
            "{player} lays {card} {where}: {convoy}.",
            player=who,
            card=what,
            where=_where_laid(before, event),
            convoy=convoy_name(after, len(after.convoys)),
        )
    return _card_on_convoy(before, event, after, who, convoy_name(before, event.convoy))


def _card_on_convoy(
    before: State, event: MilesPlayed | WarshipPlayed | CardOnConvoy, after: State, who: str, target: Message
) -> Message:
    """A card laid on a convoy, `target`."""
    if isinstance(event, MilesPlayed):
        distance = grouped(after.convoys[event.convoy - 1].distance)
        return _(
            "{player} lays {card} on {convoy} ({distance} miles sailed).",
            player=who,
            card=_label(event.card),
            convoy=target,
            distance=distance,
        )
    if isinstance(event, WarshipPlayed):
        ship = _("two submarines together") if event.paired else _label(event.ship)
        if before.side_of[event.seat] == before.convoys[event.convoy - 1].side:
            return _("{player} defends {convoy} with {ship}.", player=who, convoy=target, ship=ship)
        return _("{player} lays {ship} against {convoy}.", player=who, ship=ship, convoy=target)
    if isinstance(event, PlanePlayed) and before.convoys[event.convoy - 1].plane is not None:
        return _("{player} sends a second plane against {convoy}.", player=who, convoy=target)
    if isinstance(event, RadarPlayed):
        card = after.convoys[event.convoy - 1].card
        if card:
            return _("{player}'s radar detects {convoy}: it is {card}.", player=who, convoy=target, card=_label(card))
        return _("{player}'s radar detects {convoy}.", player=who, convoy=target)
    template = _CARD_LINES.get(type(event))
    if template is None:
        return _("{player} plays.", player=who)
    return msgspec.structs.replace(template, args={"player": who, "convoy": target})


# The cards whose line says only who laid them and on which convoy (the templates are filled per event).
_CARD_LINES: dict[type, Message] = {
    AlertPlayed: _("{player} lays an alert against {convoy}."),
    AlertEnded: _("{player} lays an end of alert on {convoy}: the alert and any battle go to the discard."),
    PlanePlayed: _("{player} sends a plane against {convoy}."),
    PlaneHit: _("{player} shoots down the plane over {convoy}."),
    MineLaid: _("{player} lays a mine against {convoy}."),
    MinesweeperPlayed: _("{player} sweeps the mine from {convoy}."),
    StormPlayed: _("{player} lays a storm on {convoy}."),
    FairSeaPlayed: _("{player} lays a fair sea on {convoy}: the storm is over."),
    NeutralFlagPlayed: _("{player} flies the neutral flag on {convoy}."),
}


def _listed(items: list[Message]) -> Message:
    """Items one after the other: "A, B, C"."""
    line = items[0]
    for item in items[1:]:
        line = _("{first}, {then}", first=line, then=item)
    return line


def _side(state: State, side: int) -> Arg:
    """A side as a replay names it: "Alain", or "Alain and Claire" in team play (State.side_name)."""
    seats = state.side_seats[side]
    name: Arg = state.names[seats[0]]
    for seat in seats[1:]:
        name = _("{first} and {then}", first=name, then=state.names[seat])
    return name


def _sides_text(state: State, sides: Iterable[int]) -> Arg:
    """ "Alain", "Alain and Bea", or in team play "Alain and Claire" (one side) and
    "Alain and Claire, Bea and Damien" (two)."""
    names = [_side(state, side) for side in sides]
    team = len(state.side_seats[0]) > 1
    line = names[0]
    for name in names[1:]:
        line = _("{first}, {then}", first=line, then=name) if team else _("{first} and {then}", first=line, then=name)
    return line


def _round_outcome(state: State) -> Message:
    """Who won a scored round and why (MN-15, MN-20): the side that reached 40 points, else the best
    score among the sides with a convoy in port; sides level at the top share it; a void round. One
    sentence each for a player, a team and several sides sharing the round, as each language conjugates."""
    winners = round_winners(state)
    if not winners:
        return _("no convoy that counts is in port (the trawler never counts), so the round is void and nobody scores.")
    totals = [convoy + capture for convoy, capture in points(state)]
    best = in_points(totals[winners[0]])
    who = _sides_text(state, winners)
    shared, team = len(winners) > 1, len(state.side_seats[winners[0]]) > 1
    if state.ended == "forty":
        if set(winners) == set(state.forty_sides):
            if totals[winners[0]] == ROUND_TARGET:
                if shared:
                    return _("{sides} reach {points} points each and share the round.", sides=who, points=best)
                if team:
                    return _("{sides} reach {points} points and win the round.", sides=who, points=best)
                return _("{sides} reaches {points} points and wins the round.", sides=who, points=best)
            if shared:
                return _(
                    "{sides} reach {points} points each, past the 40 that end the round, and share the round.",
                    sides=who,
                    points=best,
                )
            if team:
                return _(
                    "{sides} reach {points} points, past the 40 that end the round, and win the round.",
                    sides=who,
                    points=best,
                )
            return _(
                "{sides} reaches {points} points, past the 40 that end the round, and wins the round.",
                sides=who,
                points=best,
            )
        forty = _sides_text(state, state.forty_sides)
        if shared:
            return _(
                "{forty} reach 40 points; {sides} share the round with {points} points.",
                forty=forty,
                sides=who,
                points=best,
            )
        if team:
            return _(
                "{forty} reach 40 points; {sides} win the round with {points} points.",
                forty=forty,
                sides=who,
                points=best,
            )
        return _(
            "{forty} reach 40 points; {sides} wins the round with {points} points.", forty=forty, sides=who, points=best
        )
    if len(arrived_sides(state)) == 1:
        reason = _("the only team with a convoy in port") if team else _("the only player with a convoy in port")
    elif team:
        reason = _("the best score among the teams with a convoy in port")
    else:
        reason = _("the best score among the players with a convoy in port")
    if shared:
        return _("{sides} share the round with {points} points each, {reason}.", sides=who, points=best, reason=reason)
    if team:
        return _("{sides} win the round with {points} points, {reason}.", sides=who, points=best, reason=reason)
    return _("{sides} wins the round with {points} points, {reason}.", sides=who, points=best, reason=reason)


def _round_text(after: State, kind: str) -> Message:
    """The end of the round: who won and why, or that the face-down convoys must be shown first."""
    if kind == "round_void":
        return _("Round over, the cards have run out with no convoy in port: the round is void and nobody scores.")
    if kind == "round_scored":
        return _("Every convoy is face up: {outcome}", outcome=_round_outcome(after))
    if kind == "round_over_forty":
        if after.phase == "over":
            return _("Round over: {outcome}", outcome=_round_outcome(after))
        reached = _sides_text(after, after.forty_sides)
        if len(after.forty_sides) == 1 and len(after.side_seats[0]) == 1:
            return _(
                "Round over: {sides} reaches 40 points; the face-down convoys are shown before the round is scored.",
                sides=reached,
            )
        return _(
            "Round over: {sides} reach 40 points; the face-down convoys are shown before the round is scored.",
            sides=reached,
        )
    if after.phase == "over":  # "round_over_cards"
        return _("Round over, the cards have run out: {outcome}", outcome=_round_outcome(after))
    return _("Round over, the cards have run out: the face-down convoys are shown before the round is scored.")


def _consequence_text(after: State, consequence: Consequence) -> Message:
    if consequence.kind.startswith("round_"):
        return _round_text(after, consequence.kind)
    who = after.names[consequence.seat] if consequence.seat is not None else ""
    if consequence.kind == "arrived":
        return _("{convoy} arrives in port.", convoy=convoy_name(after, consequence.convoy, starts=True))
    if consequence.kind == "bombed":
        return _(
            "{convoy} is destroyed and captured by {player}.",
            convoy=convoy_name(after, consequence.convoy, starts=True),
            player=who,
        )
    target = convoy_name(after, consequence.convoy)
    if consequence.kind == "saved":
        return _(
            "At the start of {player}'s turn, {player}'s ship has held: {convoy} is saved and sails on.",
            player=who,
            convoy=target,
        )
    if consequence.kind == "sunk":
        return _(
            "At the start of {player}'s turn, {player}'s ship has held: {convoy} is sunk and captured by {player}.",
            player=who,
            convoy=target,
        )
    return _(  # "mined"
        "At the start of {player}'s turn, {player}'s mine explodes: {convoy} is sunk and captured by {player}.",
        player=who,
        convoy=target,
    )


def narrate(before: State, event: MillesNautiquesEvent, after: State, viewer: Viewer) -> Narration:
    """One replay line for `event` as `viewer` may know it, followed by what the rules did on their own."""
    parts = [_event_text(before, event, after, viewer)]
    parts.extend(_consequence_text(after, c) for c in after.consequences)
    seat = getattr(event, "seat", None)
    if isinstance(event, Dealt | ConvoysRevealed) or before.phase == "reveal":
        chapters: tuple[tuple[str, int], ...] = (("round", before.round_number),)
    else:
        chapters = (("round", before.round_number), ("turn", before.turn))
    return Narration.told(joined(parts), seat=seat, chapters=chapters)
