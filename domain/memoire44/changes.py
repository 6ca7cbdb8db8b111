"""What a step changed, in the words of the board: units by kind, side and hex as the board names it
("the Allies infantry at H7"), command cards by their printed names, sides with their commanders' names,
medals as counted towards victory.

Everything told here is public (the board, medals, the card played, how many cards a side holds); a side's
own cards are listed only to a viewer who sees that hand (G-2).
"""

from __future__ import annotations

from domain.i18n import Catalogue, Message
from domain.memoire44.battlefield import objective_holder
from domain.memoire44.board import hex_name
from domain.memoire44.rules.base import pile_size
from domain.memoire44.state import State, Unit
from domain.memoire44.words import card, listed, side, unit
from domain.ruleset import Viewer

_ = Catalogue("domain.memoire44")


def what_changed(before: State, after: State, viewer: Viewer) -> list[Message]:
    """The lines of one step, as `viewer` may know it."""
    lines: list[Message] = []
    if after.card is not None and after.card != before.card:
        lines.append(_("Card played: {card}", card=card(after.card)))
    if after.orders and len(after.orders) != len(before.orders):
        lines.append(_.ngettext("{count} unit ordered", "{count} units ordered", len(after.orders)))
    known = {u.uid: u for u in before.units}
    for now in after.units:
        lines.extend(_unit_lines(known.get(now.uid), now, after))
    lines.extend(_plane_lines(before, after))
    for camp in (0, 1):
        if after.medals[camp] != before.medals[camp]:
            lines.append(
                _.ngettext(
                    "{side}: {count} medal of {victory}",
                    "{side}: {count} medals of {victory}",
                    after.medals[camp],
                    side=_commander(after, camp),
                    victory=after.victory[camp],
                )
            )
    for index, objective in enumerate(after.objectives):
        held, was = objective_holder(after, index), objective_holder(before, index)
        if held != was and objective.hexes:
            where = listed([hex_name(h) for h in objective.hexes])
            lines.append(
                _("{hexes}: held by {side}", hexes=where, side=side(after.sides[held]))
                if held is not None
                else _("{hexes}: held by nobody", hexes=where)
            )
    for camp in (0, 1):
        was_hand, hand = before.hands[camp], after.hands[camp]
        if hand.size != was_hand.size:
            lines.append(
                _.ngettext(
                    "{side}: {count} card in hand",
                    "{side}: {count} cards in hand",
                    hand.size,
                    side=_commander(after, camp),
                )
            )
        if _sees(after, viewer, camp):
            added = [c for c in hand.known if c not in was_hand.known]
            if added:
                lines.append(
                    _(
                        "New cards for {side}: {cards}",
                        side=_commander(after, camp),
                        cards=listed([card(c) for c in added]),
                    )
                )
    for seat, (was_given, given) in enumerate(zip(before.given, after.given, strict=False)):
        if given.size > was_given.size:  # an Overlord commander hands cards to a general (M44-OV-3)
            lines.append(
                _.ngettext(
                    "{player} is handed {count} card",
                    "{player} is handed {count} cards",
                    given.size - was_given.size,
                    player=after.players[seat],
                )
            )
    if pile_size(after) != pile_size(before):
        lines.append(_.ngettext("{count} card in the draw pile", "{count} cards in the draw pile", pile_size(after)))
    if after.active != before.active and not after.over:
        lines.append(_("{side} to play", side=_commander(after, after.active)))
    if after.winner is not None and after.winner != before.winner:
        lines.append(_("{side} wins the battle", side=_commander(after, after.winner)))
    return lines


def _commander(state: State, camp: int) -> Message:
    """A side with its commander's name: "Allies (Bea)"."""
    return _("{side} ({player})", side=side(state.sides[camp]), player=state.players[state.seat_of(camp)])


def _sees(state: State, viewer: Viewer, camp: int) -> bool:
    if viewer.kind == "full":
        return True
    seat = viewer.seat
    return (
        viewer.kind == "seat"
        and seat is not None
        and 0 <= seat < len(state.seat_camp)
        and state.seat_camp[seat] == camp
    )


def _unit_lines(was: Unit | None, now: Unit, state: State) -> list[Message]:
    side_id = state.sides[now.camp]
    if was is None:
        if now.hex is None:
            return []
        return [_("{unit} enters the board", unit=unit(now.kind, hex_name(now.hex), side_id, starts=True))]
    if now.hex is None:
        if was.hex is None:
            return []
        return [_("{unit} is eliminated", unit=unit(now.kind, hex_name(was.hex), side_id, starts=True))]
    lines: list[Message] = []
    named = unit(now.kind, hex_name(was.hex) if was.hex is not None else None, side_id, starts=True)
    if was.hex != now.hex:
        lines.append(_("{unit} moves to {hex}", unit=named, hex=hex_name(now.hex)))
        named = unit(now.kind, hex_name(now.hex), side_id, starts=True)
    if now.figures != was.figures:
        lines.append(_.ngettext("{unit}: {count} figure left", "{unit}: {count} figures left", now.figures, unit=named))
    return lines


def _plane_lines(before: State, after: State) -> list[Message]:
    """Planes by their printed names (M44-AIR-1): where they fly, and those shot down."""
    if after.air is None or before.air is None:
        return []
    names = after.air.pack.planes
    lines: list[Message] = []
    for was, now in zip(before.air.planes, after.air.planes, strict=False):
        name = names[now.plane].name if now.plane in names else now.plane
        if now.lost and not was.lost:
            lines.append(_("{plane} ({side}) is shot down", plane=name, side=side(after.sides[now.camp])))
        elif now.hex != was.hex:
            lines.append(
                _(
                    "{plane} ({side}) flies to {hex}",
                    plane=name,
                    side=side(after.sides[now.camp]),
                    hex=hex_name(now.hex),
                )
                if now.hex is not None
                else _("{plane} ({side}) leaves the board", plane=name, side=side(after.sides[now.camp]))
            )
    return lines
