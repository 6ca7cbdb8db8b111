"""What a step changed, in the words of the table: players by name, cards by their printed names (not their
catalogue numbers), VP as the table counts them.

Both sides of the step are read from the views `viewer` may see (G-2), so a line never names a card the
viewer has not seen; the VP of captured cards still face down (AS-15: counted at the end) are said to be
hidden, never counted as 0.
"""

from __future__ import annotations

from typing import Any

from domain.atlantic_storm.state import State
from domain.atlantic_storm.views import view
from domain.atlantic_storm.words import card_name, listed
from domain.i18n import Arg, Catalogue, Message
from domain.ruleset import Viewer

_ = Catalogue("domain.atlantic_storm")

ZONES: dict[str, Message] = {
    "air": _.pgettext("zone", "air"),
    "surface": _.pgettext("zone", "surface"),
    "submarine": _.pgettext("zone", "submarine"),
    "combined": _.pgettext("zone", "combined"),
}


def what_changed(before: State, after: State, viewer: Viewer) -> list[Message]:
    """The lines of one step, read from the two views `viewer` may see."""
    old, new = view(before, viewer), view(after, viewer)

    def name(number: str) -> Arg:
        card = after.cards.get(number) or before.cards.get(number)
        return card_name(card) if card is not None else number

    names = after.names
    lines: list[Message] = []
    if new["phase"] != old["phase"] and new["phase"] == "over":
        lines.append(_("The game is over."))
    if new["dealer"] is not None and new["dealer"] != old["dealer"]:
        lines.append(_("{player} deals.", player=names[new["dealer"]]))
    lines.extend(_battle_lines(old.get("battle"), new.get("battle"), names, name))
    for was, now in zip(old["players"], new["players"], strict=True):
        lines.extend(_player_lines(was, now, name))
    if new["deck"] != old["deck"]:
        lines.append(_.ngettext("{count} card in the deck", "{count} cards in the deck", new["deck"]))
    if new["discard_count"] != old["discard_count"]:
        lines.append(
            _.ngettext("{count} card on the discard pile", "{count} cards on the discard pile", new["discard_count"])
        )
    return lines


def _battle_lines(
    old: dict[str, Any] | None, new: dict[str, Any] | None, names: tuple[str, ...], name: Any
) -> list[Message]:
    if new is None:
        return []
    lines: list[Message] = []
    fresh = old is None or old["convoy"] != new["convoy"]
    if fresh:
        lines.append(_("Convoy at stake: {convoy}", convoy=name(new["convoy"])))
        old = None
    if new.get("zone") and (old is None or old.get("zone") != new["zone"]):
        lines.append(_("Battle zone: {zone}", zone=ZONES.get(new["zone"], new["zone"])))
    plays_before = {} if old is None else {play["order"]: play for play in old["plays"]}
    for play in new["plays"]:
        was = plays_before.get(play["order"])
        cards = [number for number in _cards(play)]
        player = names[play["seat"]]
        if was is None:
            if cards:
                lines.append(
                    _(
                        "{player} plays {cards}: combat value {value}",
                        player=player,
                        cards=listed([name(c) for c in cards]),
                        value=play["value"],
                    )
                )
        elif play.get("cancelled") and not was.get("cancelled"):
            lines.append(_("{player}'s play is cancelled", player=player))
        elif play["value"] != was["value"]:
            lines.append(_("{player}'s play: combat value {value}", player=player, value=play["value"]))
    return lines


def _cards(play: dict[str, Any]) -> list[str]:
    """A play's cards on the table, as the view lists them."""
    bonuses = [bonus["card"] for bonus in play.get("bonuses", ())]
    cards = [*play.get("normals", ()), *bonuses, *play.get("specials", ()), *play.get("supplies", ())]
    if play.get("intelligence"):
        cards.append(play["intelligence"])
    return cards


def _player_lines(was: dict[str, Any], now: dict[str, Any], name: Any) -> list[Message]:
    player = now["name"]
    lines: list[Message] = []
    if now["hand_count"] != was["hand_count"]:
        lines.append(
            _.ngettext(
                "{player}: {count} card in hand", "{player}: {count} cards in hand", now["hand_count"], player=player
            )
        )
    if "hand" in now and "hand" in was:
        added = [c for c in now["hand"] if c not in was["hand"]]
        if added:
            lines.append(_("New cards for {player}: {cards}", player=player, cards=listed([name(c) for c in added])))
    won = [c for c in now["convoys"] if c not in was["convoys"]]
    if won:
        lines.append(_("{player} wins {convoys}", player=player, convoys=listed([name(c) for c in won])))
    if "captured" in now:
        taken = [c for c in now["captured"] if c not in was.get("captured", ())]
        if taken and "captured" in was:
            lines.append(_("{player} captures {cards}", player=player, cards=listed([name(c) for c in taken])))
    elif now["captured_count"] > was["captured_count"]:
        lines.append(
            _.ngettext(
                "{player} captures {count} card face down",
                "{player} captures {count} cards face down",
                now["captured_count"] - was["captured_count"],
                player=player,
            )
        )
    if _score(was) != _score(now):
        lines.append(score_words(now))
    return lines


def _score(entry: dict[str, Any]) -> tuple[Any, ...]:
    return (entry["convoy_vp"], entry.get("card_vp"), entry["captured_count"])


def score_words(entry: dict[str, Any]) -> Message:
    """A player's VP as a view shows them: convoys and captured cards, or, while the captured cards are
    face down to this viewer, the convoys' VP and the captured cards' VP hidden."""
    player, convoys = entry["name"], entry["convoy_vp"]
    cards = entry.get("card_vp")
    if cards:
        return _(
            "{player}: {vp} VP (convoys {convoys}, cards {cards})",
            player=player,
            vp=convoys + cards,
            convoys=convoys,
            cards=cards,
        )
    if cards is None and entry["captured_count"]:
        return _.ngettext(
            "{player}: convoys {convoys} VP, {count} captured card face down: its VP hidden",
            "{player}: convoys {convoys} VP, {count} captured cards face down: their VP hidden",
            entry["captured_count"],
            player=player,
            convoys=convoys,
        )
    return _("{player}: {vp} VP", player=player, vp=convoys + (cards or 0))
