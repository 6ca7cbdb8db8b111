"""The table of an Atlantic Storm game as an SVG picture, drawn from a view (G-2: hands are counts, and
captured cards stay face down until the game ends, as the view has them).

From top to bottom: the game's progress; the convoy at stake with its VP, the declared zone (and the
combined zone an admiral brings), the storm in play and the cards under the convoy from earlier rounds;
each play of this round in order with its combat value and the sides' totals; the last decided round;
then each player's hand, convoys won (the tricks) and VP.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.svg import Changed, changed_class, document, group, rect, shorten, text, to_data

WIDTH = 400
MARGIN = 8
LINE = 17
WRAP = 40  # characters of 13-unit text in a play's row

ALLIED_FILL = "#d0ebff"
ALLIED_INK = "#1864ab"
GERMAN_FILL = "#e9ecef"
GERMAN_INK = "#343a40"
CONVOY_FILL = "#fff3bf"

_PHASES = {
    "cut": "The dealer is cut",
    "deal": "Cards are dealt",
    "turn_convoy": "The next convoy is turned",
    "declare_zone": "The leader declares the zone",
    "play": "Plays",
    "storm_roll": "The storm is rolled",
    "storm_choice": "The storm strikes",
    "dice": "Dice are rolled",
    "supply": "Supplies are chosen",
    "spoils": "The spoils are divided",
    "refill": "Hands are refilled",
    "over": "Game over",
}


def _name(data: dict[str, Any], seat: Any) -> str:
    players = data.get("players", ())
    if isinstance(seat, int) and 0 <= seat < len(players):
        return str(players[seat].get("name", ""))
    return "?"


def _card(cards: dict[str, Any], number: str) -> str:
    """A card as printed: its name, or its number when the view does not describe it."""
    facts = cards.get(number)
    return str(facts["name"]) if facts else number


def _panel(y: float, height: float, changed: bool, **attrs: object) -> str:
    """A full-width rounded panel (the convoy, a play, the last decision, a player), outlined when changed."""
    return rect(MARGIN, y, WIDTH - 2 * MARGIN, height, rx=6, class_=changed_class(changed), **attrs)


def _wrap(words: Sequence[str], width: int = WRAP) -> list[str]:
    """Card names joined with " + ", broken into lines of about `width` characters."""
    lines: list[str] = []
    current = ""
    for word in words:
        piece = word if not current else f"{current} + {word}"
        if current and len(piece) > width:
            lines.append(current + " +")
            current = word
        else:
            current = piece
    if current:
        lines.append(current)
    return lines or ["(no card)"]


def _convoy_panel(y: float, data: dict[str, Any], cards: dict[str, Any], marks: Changed) -> tuple[list[str], float]:
    battle = data["battle"]
    convoy = battle.get("convoy", "")
    facts = cards.get(convoy) or {}
    vp = facts.get("vp")
    body: list[str] = []
    height = 58
    changed = marks("battle", "convoy") or marks("battle", "number")
    body.append(_panel(y, height, changed, fill=CONVOY_FILL, stroke="#e67700"))
    body.append(text(MARGIN + 10, y + 24, _card(cards, convoy), 20, font_weight="bold"))
    body.append(
        text(
            WIDTH - MARGIN - 10, y + 24, f"{vp} VP" if vp is not None else "VP ?", 20, anchor="end", font_weight="bold"
        )
    )
    zone = battle.get("zone")
    zone_now = battle.get("zone_now") or zone
    if zone is None:
        zone_text = "zone not declared yet"
    elif zone_now != zone:
        zone_text = f"zone {zone}, now {zone_now} (admiral)"
    else:
        zone_text = f"zone {zone}"
    rounds = f"round {battle.get('round', 1)}"
    if int(battle.get("half", 1)) > 1:
        rounds += f", half {battle['half']}"
    body.append(
        text(
            MARGIN + 10, y + 46, f"{zone_text} · {rounds}", 14, font_weight="bold" if marks("battle", "zone") else None
        )
    )
    if marks("battle", "zone"):
        body.append(rect(MARGIN + 4, y + 31, WIDTH - 2 * MARGIN - 8, 21, rx=4, fill="none", class_="changed"))
    label = f"Convoy at stake: {_card(cards, convoy)}, {vp if vp is not None else 'unknown'} VP, {zone_text}, {rounds}"
    out = [group(label, body)]
    y += height + 6
    storm = battle.get("storm")
    if storm:
        line = f"Storm in play: {_card(cards, storm.get('card', ''))}, rolled by {_name(data, storm.get('holder'))}"
        out.append(group(line, [text(MARGIN, y + 14, line, 13, fill="#1864ab", font_weight="bold")]))
        y += LINE + 2
    under = battle.get("under", ())
    if under:
        lines = _wrap([f"{_card(cards, n)} ({_name(data, s)})" for s, n in under], WRAP + 6)
        rows = [text(MARGIN, y + 14, "Under the convoy, from earlier rounds:", 13, fill="#495057")]
        rows.extend(text(MARGIN + 8, y + 14 + LINE * (i + 1), ln, 13) for i, ln in enumerate(lines))
        out.append(group("Under the convoy: " + ", ".join(lines), rows, class_=None))
        if marks("battle", "under"):
            out.append(
                rect(
                    MARGIN - 4,
                    y,
                    WIDTH - 2 * MARGIN + 8,
                    LINE * (len(lines) + 1) + 4,
                    rx=4,
                    fill="none",
                    class_="changed",
                )
            )
        y += LINE * (len(lines) + 1) + 6
    return out, y


def _play_row(
    y: float, index: int, play: dict[str, Any], data: dict[str, Any], cards: dict[str, Any], marks: Changed
) -> tuple[str, float]:
    side = play.get("side")
    allied = side == "allied"
    who = _name(data, play.get("seat"))
    names = [_card(cards, n) for n in play.get("normals", ())]
    names += [_card(cards, b.get("card", "")) for b in play.get("bonuses", ())]
    names += [_card(cards, n) for n in (*play.get("specials", ()), *play.get("supplies", ()))]
    if play.get("intelligence"):
        names.append(_card(cards, play["intelligence"]))
    lost = [_card(cards, n) for n in play.get("lost", ())]
    lines = _wrap(names)
    if lost:
        lines.append("lost: " + ", ".join(lost))
    cancelled = bool(play.get("cancelled"))
    value = play.get("value")
    height = 24 + LINE * len(lines)
    side_word = "Allied" if allied else "German" if side == "german" else "no side"
    body = [
        _panel(
            y,
            height,
            marks("battle", "plays", index),
            fill=ALLIED_FILL if allied else GERMAN_FILL,
            stroke=ALLIED_INK if allied else GERMAN_INK,
            stroke_dasharray="4 3" if cancelled else None,
        ),
        text(
            MARGIN + 8,
            y + 17,
            f"{shorten(who, 24)} · {side_word}",
            14,
            font_weight="bold",
            fill=ALLIED_INK if allied else GERMAN_INK,
        ),
    ]
    body.extend(text(MARGIN + 8, y + 17 + LINE * (i + 1), ln, 13) for i, ln in enumerate(lines))
    shown = "cancelled" if cancelled else str(value) if value is not None else ""
    body.append(
        text(
            WIDTH - MARGIN - 10,
            y + 20,
            shown,
            14 if cancelled else 22,
            anchor="end",
            font_weight="bold",
            fill=ALLIED_INK if allied else GERMAN_INK,
        )
    )
    label = f"{who} plays for the {side_word} side: {', '.join(names) or 'no card'}; " + (
        "cancelled by a storm" if cancelled else f"combat value {shown}"
    )
    return group(label, body), y + height + 4


def _plays(y: float, data: dict[str, Any], cards: dict[str, Any], marks: Changed) -> tuple[list[str], float]:
    battle = data["battle"]
    plays = battle.get("plays", ())
    out: list[str] = []
    totals = {"allied": 0, "german": 0}
    for play in plays:
        if play.get("side") in totals and not play.get("cancelled"):
            totals[str(play["side"])] += int(play.get("value") or 0)
    heading = (
        f"Plays this round · Allies {totals['allied']} : Germans {totals['german']}"
        if plays
        else "No play yet this round"
    )
    out.append(text(MARGIN, y + 15, heading, 15, font_weight="bold"))
    y += 22
    for index, play in enumerate(plays):
        row, y = _play_row(y, index, play, data, cards, marks)
        out.append(row)
    waiting = [_name(data, turn.get("seat")) for turn in battle.get("queue", ())]
    if waiting:
        out.append(text(MARGIN, y + 14, "Still to play: " + ", ".join(waiting), 13, fill="#495057"))
        y += LINE + 2
    return out, y


def _decision(y: float, data: dict[str, Any], cards: dict[str, Any], marks: Changed) -> tuple[list[str], float]:
    decision = data.get("decision")
    if not decision:
        return [], y
    kind = decision.get("kind")
    verdict = {"allied": "the Allies win", "german": "the Germans win", "tie": "a tie", "no_combat": "no combat"}.get(
        str(kind), str(kind)
    )
    line = (
        f"Battle {decision.get('battle')}, round {decision.get('round')}, {_card(cards, decision.get('convoy', ''))}:"
        f" {verdict}, {decision.get('allied')} : {decision.get('german')}"
    )
    second = f"Trick to {_name(data, decision['trick_winner'])}" if decision.get("trick_winner") is not None else ""
    body = [
        _panel(y, 44 if second else 26, marks("decision"), fill="#f8f9fa", stroke="#adb5bd"),
        text(MARGIN + 8, y + 18, line, 13),
    ]
    if second:
        body.append(text(MARGIN + 8, y + 36, second, 13, font_weight="bold"))
    return [group(f"Last round decided: {line}. {second}", body)], y + (44 if second else 26) + 6


def _players(y: float, data: dict[str, Any], cards: dict[str, Any], marks: Changed) -> tuple[list[str], float]:
    out = [text(MARGIN, y + 15, "Players", 15, font_weight="bold")]
    y += 22
    for seat, player in enumerate(data.get("players", ())):
        won = [str(n) for n in player.get("convoys", ())]
        convoy_vp = int(player.get("convoy_vp", 0))
        captured = int(player.get("captured_count", 0))
        card_vp = player.get("card_vp")
        if card_vp is not None:
            vp = f"{convoy_vp + int(card_vp)} VP"
            detail = f"convoys {convoy_vp} + cards {card_vp}"
        else:
            vp = f"{convoy_vp} VP"
            detail = f"convoys {convoy_vp} + {captured} card{'s' if captured != 1 else ''} face down"
        lines = _wrap([_card(cards, n) for n in won], WRAP + 4) if won else []
        height = 42 + LINE * len(lines)
        name = str(player.get("name", ""))
        hand = f"hand {player.get('hand_count', 0)} of {player.get('hand_size', 0)}"
        leader = " · leads" if data.get("leader") == seat and data.get("phase") != "over" else ""
        body = [
            _panel(y, height, marks("players", seat), fill="#f1f3f5", stroke="#ced4da"),
            text(MARGIN + 8, y + 18, f"{shorten(name, 28)}{leader}", 15, font_weight="bold"),
            text(WIDTH - MARGIN - 10, y + 18, vp, 16, anchor="end", font_weight="bold"),
            text(
                MARGIN + 8,
                y + 35,
                f"{hand} · {len(won)} trick{'s' if len(won) != 1 else ''} · {detail}",
                12,
                fill="#495057",
            ),
        ]
        body.extend(text(MARGIN + 8, y + 35 + LINE * (i + 1), ln, 13) for i, ln in enumerate(lines))
        label = f"{name}: {vp} ({detail}), {hand}, convoys won: {', '.join(lines) if lines else 'none'}"
        out.append(group(label, body))
        y += height + 4
    return out, y


def picture(view: Any, changed: Sequence[tuple[str, ...]] = ()) -> str:
    """The table as an SVG document, highlighting what the `changed` paths name."""
    data = to_data(view)
    marks = Changed(changed)
    cards: dict[str, Any] = data.get("cards") or {}
    phase = str(data.get("phase", ""))
    fought = int(data.get("battles_fought", 0))
    total = int(data.get("battles", 0))
    battle = data.get("battle")
    number = battle.get("number", fought + 1) if battle else fought
    status = _PHASES.get(phase, phase)
    body = [
        text(MARGIN, 22, f"Atlantic Storm · battle {number} of {total}", 18, font_weight="bold"),
        text(
            MARGIN,
            42,
            f"{status} · deck {data.get('deck', 0)} · discard {data.get('discard_count', 0)}",
            14,
            fill="#495057",
        ),
    ]
    y = 52.0
    if battle:
        block, y = _convoy_panel(y, data, cards, marks)
        body.extend(block)
        block, y = _plays(y, data, cards, marks)
        body.extend(block)
    block, y = _decision(y, data, cards, marks)
    body.extend(block)
    block, y = _players(y, data, cards, marks)
    body.extend(block)
    names = ", ".join(str(p.get("name", "")) for p in data.get("players", ()))
    return document(WIDTH, y + 4, f"Atlantic Storm: {names}; battle {number} of {total}", body, description=status)
