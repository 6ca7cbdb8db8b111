"""What a step changed, in the words of the table: each side's score in points (never half-points), a
convoy by the name the replay gives it ("Alain's second convoy") and its card as printed, players by name.
The names, a side's ("Alain and Claire" in each language) and the lists are the narration's own.

Both states are first seen as the viewer knows them (`seen_by`, G-2), so a line never names a card the
viewer has not seen; a side with a convoy in port face down has a hidden score (it may be the trawler,
MN-20: until it is shown the side's score is not known), said as hidden rather than as 0.
"""

from __future__ import annotations

from domain.i18n import Arg, Catalogue, Message
from domain.milles_nautiques.catalogue import BY_NAME, CARDS, grouped
from domain.milles_nautiques.narration import _listed, _side, convoy_name
from domain.milles_nautiques.scoring import SideScore, counts_as_arrived, hidden_in_port, in_points, side_scores
from domain.milles_nautiques.state import Convoy, Ship, State, seen_by
from domain.ruleset import Viewer

_ = Catalogue("domain.milles_nautiques")


def what_changed(before: State, after: State, viewer: Viewer) -> list[Message]:
    """The lines of one step, as `viewer` knows both states."""
    old, new = seen_by(before, viewer), seen_by(after, viewer)
    lines: list[Message] = []
    if new.phase != old.phase and new.phase == "reveal":
        lines.append(_("The face-down convoys are to be shown before the round is scored."))
    if new.phase != old.phase and new.phase == "over":
        lines.append(_.pgettext("picture", "Round over"))
    for number, convoy in enumerate(new.convoys, start=1):
        was = old.convoy(number)
        lines.extend(_convoy_lines(new, was, convoy))
    lines.extend(_score_lines(old, new))
    for seat, (held, holds) in enumerate(zip(old.hands, new.hands, strict=False)):
        if held.size != holds.size:
            lines.append(_("{player}: {count} in hand", player=new.names[seat], count=holds.size))
    if len(old.hands) != len(new.hands):  # the deal
        lines.extend(_("{player}: {count} in hand", player=new.names[s], count=h.size) for s, h in enumerate(new.hands))
    for seat, hand in enumerate(new.hands):
        # The cards of a hand the viewer knows (their own, or the full record's), said when they change.
        known_before = old.hands[seat].known if seat < len(old.hands) else ()
        if viewer.sees(seat) and hand.known and sorted(hand.known) != sorted(known_before):
            cards = _listed([BY_NAME[card].label for card in hand.known])
            lines.append(_("{player}'s hand holds {cards}", player=new.names[seat], cards=cards))
    if new.stock != old.stock:
        lines.append(_.ngettext("{count} card in the stock", "{count} cards in the stock", new.stock))
    discarded = [card.label for card, (a, b) in zip(CARDS, _counts(old, new), strict=True) if b > a]
    if discarded:
        lines.append(_("To the discard pile: {cards}", cards=_listed(discarded)))
    return lines


def _counts(old: State, new: State) -> list[tuple[int, int]]:
    """Each card's count in the discard pile before and after (`State.discard` counts them in `CARDS` order)."""
    return [
        (old.discard[i] if i < len(old.discard) else 0, new.discard[i] if i < len(new.discard) else 0)
        for i in range(len(CARDS))
    ]


def _convoy_lines(state: State, was: Convoy | None, now: Convoy) -> list[Message]:
    name = convoy_name(state, now.number, starts=True)
    lines: list[Message] = []
    if was is None:
        if now.card is None:
            return [_("{convoy} is laid face down", convoy=name)]
        was = Convoy(number=now.number, side=now.side, seat=now.seat, card=None)
        lines.append(_("{convoy} is laid face down: {card}", convoy=name, card=BY_NAME[now.card].label))
    elif now.card is not None and was.card != now.card:
        lines.append(_("{convoy} is {card}", convoy=name, card=BY_NAME[now.card].label))
    if now.distance != was.distance:
        lines.append(_("{convoy}: {distance} miles sailed", convoy=name, distance=grouped(now.distance)))
    if now.detected and not was.detected:
        lines.append(_("{convoy}: detected by radar", convoy=name))
    if now.status != was.status:
        if now.status == "arrived":
            lines.append(
                _("{convoy} in port", convoy=name)
                if now.card is not None
                else _("{convoy} in port: tonnage hidden", convoy=name)
            )
        elif now.status == "destroyed" and now.captor is not None:
            lines.append(_("{convoy} destroyed, captured by {player}", convoy=name, player=state.names[now.captor]))
    if now.status != "at_sea":
        return lines  # what was on it went to the discard (said there)
    for flag, on, off in (
        (lambda c: c.alert, _("{convoy}: under alert", convoy=name), _("{convoy}: alert over", convoy=name)),
        (lambda c: c.storm, _("{convoy}: in a storm", convoy=name), _("{convoy}: the storm is over", convoy=name)),
        (lambda c: c.neutral, _("{convoy}: under the neutral flag", convoy=name), None),
    ):
        if flag(now) != flag(was):
            if flag(now):
                lines.append(on)
            elif off is not None:
                lines.append(off)
    if now.plane != was.plane:
        lines.append(
            _("{convoy}: {what}", convoy=name, what=_("a plane from {player}", player=state.names[now.plane]))
            if now.plane is not None
            else _("{convoy}: no plane overhead", convoy=name)
        )
    if now.mine != was.mine:
        lines.append(
            _("{convoy}: {what}", convoy=name, what=_("a mine laid by {player}", player=state.names[now.mine]))
            if now.mine is not None
            else _("{convoy}: mine swept", convoy=name)
        )
    if now.battle != was.battle:
        if not now.battle:
            lines.append(_("{convoy}: battle over", convoy=name))
        for ship in now.battle[len(was.battle) :]:
            lines.append(_("{convoy}: {ship}", convoy=name, ship=_ship(state, ship)))
    return lines


def _ship(state: State, ship: Ship) -> Message:
    cards = _listed([BY_NAME[card].label for card in ship.cards])
    player = state.names[ship.seat]
    if ship.attacking:
        return _("{player} attacks: {cards} ({strength})", player=player, cards=cards, strength=ship.strength)
    return _("{player} defends: {cards} ({strength})", player=player, cards=cards, strength=ship.strength)


def hidden_capture(state: State, side: int) -> bool:
    """Whether `side` scores (a convoy of its in port counts) and captured a convoy whose card `state`
    does not show: its capture points are then hidden."""
    seats = state.side_seats[side]
    return any(counts_as_arrived(c) for c in state.convoys if c.side == side) and any(
        c.status == "destroyed" and c.captor in seats and c.card is None for c in state.convoys
    )


def score_words(state: State, side: int) -> Message:
    """A side's score as the table says it, for a state as a viewer knows it: "34 points (convoys 24,
    round bonus 10)", or hidden while a convoy in port is face down."""
    if hidden_in_port(state, side):
        return _("{side}: score hidden, a convoy in port is face down", side=_side(state, side))
    score = side_scores(state)[side]
    if hidden_capture(state, side):
        return _(
            "{side}: {points} points so far, a captured convoy is face down",
            side=_side(state, side),
            points=in_points(score.total),
        )
    parts = _split(score)
    if not parts:
        return _("{side}: {points} points", side=_side(state, side), points=in_points(score.total))
    return _("{side}: {points} points ({split})", side=_side(state, side), points=in_points(score.total), split=parts)


def _split(score: SideScore) -> Arg:
    parts = [
        message
        for value, message in (
            (score.convoy, _("convoys {points}", points=in_points(score.convoy))),
            (score.capture, _("captures {points}", points=in_points(score.capture))),
            (score.round_bonus, _("round bonus {points}", points=in_points(score.round_bonus))),
            (score.slowness_bonus, _("slowness {points}", points=in_points(score.slowness_bonus))),
        )
        if value
    ]
    return _listed(parts) if parts else ""


def _score_lines(old: State, new: State) -> list[Message]:
    before, after = side_scores(old), side_scores(new)
    lines = []
    for side in range(len(new.side_seats)):
        hidden = hidden_in_port(new, side)
        partly = hidden_capture(new, side)
        if (before[side] != after[side] and not hidden) or (hidden, partly) != (
            hidden_in_port(old, side),
            hidden_capture(old, side),
        ):
            lines.append(score_words(new, side))
    return lines
