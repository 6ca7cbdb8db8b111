"""The table of an Atlantic Storm game as an SVG picture, drawn from a view (G-2: hands are counts, and
captured cards stay face down until the game ends, as the view has them).

From top to bottom: the game's progress; the convoy at stake with its VP, the declared zone (and the
combined zone an admiral brings), the storm in play and the cards under the convoy from earlier rounds;
each play of this round in order with its combat value and the sides' totals; the last decided round;
then each player's hand, convoys won (the tricks) and VP. Its words are messages of the game's catalogue,
told with the `words` the picture is given (the reader's language); card names are as the view gives them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.i18n import Arg, Catalogue, Message, Teller, english
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

_ = Catalogue("domain.atlantic_storm")

_PHASES: dict[str, Message] = {
    "cut": _("The dealer is cut"),
    "deal": _("Cards are dealt"),
    "turn_convoy": _("The next convoy is turned"),
    "declare_zone": _("The leader declares the zone"),
    "play": _.pgettext("picture", "Plays"),
    "storm_roll": _("The storm is rolled"),
    "storm_choice": _("The storm strikes"),
    "dice": _("Dice are rolled"),
    "supply": _("Supplies are chosen"),
    "spoils": _("The spoils are divided"),
    "refill": _("Hands are refilled"),
    "over": _.pgettext("picture", "Game over"),
}
_VERDICTS: dict[str, Message] = {
    "allied": _("the Allies win"),
    "german": _("the Germans win"),
    "tie": _("a tie"),
    "no_combat": _("no combat"),
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


def _wrap(words: Sequence[str], told: Teller, width: int = WRAP) -> list[str]:
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
    return lines or [told(_("(no card)"))]


def _convoy_panel(
    y: float, data: dict[str, Any], cards: dict[str, Any], marks: Changed, told: Teller
) -> tuple[list[str], float]:
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
            WIDTH - MARGIN - 10,
            y + 24,
            told(_("{vp} VP", vp=int(vp)) if vp is not None else _("VP ?")),
            20,
            anchor="end",
            font_weight="bold",
        )
    )
    zone = battle.get("zone")
    zone_now = battle.get("zone_now") or zone
    if zone is None:
        zone_text = told(_("zone not declared yet"))
    elif zone_now != zone:
        zone_text = told(_("zone {zone}, now {now} (admiral)", zone=str(zone), now=str(zone_now)))
    else:
        zone_text = told(_("zone {zone}", zone=str(zone)))
    rounds = told(_("round {round}", round=int(battle.get("round", 1))))
    if int(battle.get("half", 1)) > 1:
        rounds = told(_("{round}, half {half}", round=rounds, half=int(battle["half"])))
    body.append(
        text(
            MARGIN + 10, y + 46, f"{zone_text} · {rounds}", 14, font_weight="bold" if marks("battle", "zone") else None
        )
    )
    if marks("battle", "zone"):
        body.append(rect(MARGIN + 4, y + 31, WIDTH - 2 * MARGIN - 8, 21, rx=4, fill="none", class_="changed"))
    label = told(
        _(
            "Convoy at stake: {convoy}, {vp} VP, {zone}, {rounds}",
            convoy=_card(cards, convoy),
            vp=int(vp) if vp is not None else _("unknown"),
            zone=zone_text,
            rounds=rounds,
        )
    )
    out = [group(label, body)]
    y += height + 6
    storm = battle.get("storm")
    if storm:
        line = told(
            _(
                "Storm in play: {card}, rolled by {player}",
                card=_card(cards, storm.get("card", "")),
                player=_name(data, storm.get("holder")),
            )
        )
        out.append(group(line, [text(MARGIN, y + 14, line, 13, fill="#1864ab", font_weight="bold")]))
        y += LINE + 2
    under = battle.get("under", ())
    if under:
        lines = _wrap([f"{_card(cards, n)} ({_name(data, s)})" for s, n in under], told, WRAP + 6)
        rows = [text(MARGIN, y + 14, told(_("Under the convoy, from earlier rounds:")), 13, fill="#495057")]
        rows.extend(text(MARGIN + 8, y + 14 + LINE * (i + 1), ln, 13) for i, ln in enumerate(lines))
        out.append(group(told(_("Under the convoy: {cards}", cards=", ".join(lines))), rows, class_=None))
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
    y: float,
    index: int,
    play: dict[str, Any],
    data: dict[str, Any],
    cards: dict[str, Any],
    marks: Changed,
    told: Teller,
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
    lines = _wrap(names, told)
    if lost:
        lines.append(told(_("lost: {cards}", cards=", ".join(lost))))
    cancelled = bool(play.get("cancelled"))
    value = play.get("value")
    height = 24 + LINE * len(lines)
    side_word = told(
        _.pgettext("side", "Allied") if allied else _.pgettext("side", "German") if side == "german" else _("no side")
    )
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
    shown = told(_.pgettext("play", "cancelled")) if cancelled else str(value) if value is not None else ""
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
    played = ", ".join(names) or told(_("no card"))
    label = told(
        _("{player} plays for the {side} side: {cards}; cancelled by a storm", player=who, side=side_word, cards=played)
        if cancelled
        else _(
            "{player} plays for the {side} side: {cards}; combat value {value}",
            player=who,
            side=side_word,
            cards=played,
            value=shown,
        )
    )
    return group(label, body), y + height + 4


def _plays(
    y: float, data: dict[str, Any], cards: dict[str, Any], marks: Changed, told: Teller
) -> tuple[list[str], float]:
    battle = data["battle"]
    plays = battle.get("plays", ())
    out: list[str] = []
    totals = {"allied": 0, "german": 0}
    for play in plays:
        if play.get("side") in totals and not play.get("cancelled"):
            totals[str(play["side"])] += int(play.get("value") or 0)
    heading = told(
        _("Plays this round · Allies {allied} : Germans {german}", allied=totals["allied"], german=totals["german"])
        if plays
        else _("No play yet this round")
    )
    out.append(text(MARGIN, y + 15, heading, 15, font_weight="bold"))
    y += 22
    for index, play in enumerate(plays):
        row, y = _play_row(y, index, play, data, cards, marks, told)
        out.append(row)
    waiting = [_name(data, turn.get("seat")) for turn in battle.get("queue", ())]
    if waiting:
        out.append(
            text(MARGIN, y + 14, told(_("Still to play: {players}", players=", ".join(waiting))), 13, fill="#495057")
        )
        y += LINE + 2
    return out, y


def _decision(
    y: float, data: dict[str, Any], cards: dict[str, Any], marks: Changed, told: Teller
) -> tuple[list[str], float]:
    decision = data.get("decision")
    if not decision:
        return [], y
    kind = decision.get("kind")
    verdict: Arg = _VERDICTS.get(str(kind), str(kind))
    line = told(
        _(
            "Battle {battle}, round {round}, {convoy}: {verdict}, {allied} : {german}",
            battle=str(decision.get("battle")),
            round=str(decision.get("round")),
            convoy=_card(cards, decision.get("convoy", "")),
            verdict=verdict,
            allied=str(decision.get("allied")),
            german=str(decision.get("german")),
        )
    )
    winner = decision.get("trick_winner")
    second = told(_("Trick to {player}", player=_name(data, winner))) if winner is not None else ""
    body = [
        _panel(y, 44 if second else 26, marks("decision"), fill="#f8f9fa", stroke="#adb5bd"),
        text(MARGIN + 8, y + 18, line, 13),
    ]
    if second:
        body.append(text(MARGIN + 8, y + 36, second, 13, font_weight="bold"))
    said = told(_("Last round decided: {line}. {trick}", line=line, trick=second))
    return [group(said, body)], y + (44 if second else 26) + 6


def _players(
    y: float, data: dict[str, Any], cards: dict[str, Any], marks: Changed, told: Teller
) -> tuple[list[str], float]:
    out = [text(MARGIN, y + 15, told(_("Players")), 15, font_weight="bold")]
    y += 22
    for seat, player in enumerate(data.get("players", ())):
        won = [str(n) for n in player.get("convoys", ())]
        convoy_vp = int(player.get("convoy_vp", 0))
        captured = int(player.get("captured_count", 0))
        card_vp = player.get("card_vp")
        if card_vp is not None:
            vp = told(_("{vp} VP", vp=convoy_vp + int(card_vp)))
            detail = told(_("convoys {convoys} + cards {cards}", convoys=convoy_vp, cards=int(card_vp)))
        else:
            vp = told(_("{vp} VP", vp=convoy_vp))
            detail = told(
                _.ngettext(
                    "convoys {convoys} + {count} card face down",
                    "convoys {convoys} + {count} cards face down",
                    captured,
                    convoys=convoy_vp,
                )
            )
        lines = _wrap([_card(cards, n) for n in won], told, WRAP + 4) if won else []
        height = 42 + LINE * len(lines)
        name = str(player.get("name", ""))
        hand = told(
            _("hand {count} of {size}", count=int(player.get("hand_count", 0)), size=int(player.get("hand_size", 0)))
        )
        leader = told(_(" · leads")) if data.get("leader") == seat and data.get("phase") != "over" else ""
        body = [
            _panel(y, height, marks("players", seat), fill="#f1f3f5", stroke="#ced4da"),
            text(MARGIN + 8, y + 18, f"{shorten(name, 28)}{leader}", 15, font_weight="bold"),
            text(WIDTH - MARGIN - 10, y + 18, vp, 16, anchor="end", font_weight="bold"),
            text(
                MARGIN + 8,
                y + 35,
                told(
                    _.ngettext(
                        "{hand} · {count} trick · {detail}",
                        "{hand} · {count} tricks · {detail}",
                        len(won),
                        hand=hand,
                        detail=detail,
                    )
                ),
                12,
                fill="#495057",
            ),
        ]
        body.extend(text(MARGIN + 8, y + 35 + LINE * (i + 1), ln, 13) for i, ln in enumerate(lines))
        label = told(
            _(
                "{player}: {vp} ({detail}), {hand}, convoys won: {convoys}",
                player=name,
                vp=vp,
                detail=detail,
                hand=hand,
                convoys=", ".join(lines) if lines else _.pgettext("convoys won", "none"),
            )
        )
        out.append(group(label, body))
        y += height + 4
    return out, y


def picture(view: Any, changed: Sequence[tuple[str, ...]] = (), words: Teller = english) -> str:
    """The table as an SVG document, highlighting what the `changed` paths name, its words told in `words`
    (the reader's language)."""
    told = words
    data = to_data(view)
    marks = Changed(changed)
    cards: dict[str, Any] = data.get("cards") or {}
    phase = str(data.get("phase", ""))
    fought = int(data.get("battles_fought", 0))
    total = int(data.get("battles", 0))
    battle = data.get("battle")
    # Between battles the heading names the battle to come (before the first: "battle 1 of 3"), the last
    # one once all are fought.
    number = battle.get("number", fought + 1) if battle else min(fought + 1, total) if total else fought
    status = told(_PHASES.get(phase, phase))
    deck, discard = int(data.get("deck", 0)), int(data.get("discard_count", 0))
    body = [
        text(
            MARGIN,
            22,
            told(_("Atlantic Storm · battle {number} of {total}", number=number, total=total)),
            18,
            font_weight="bold",
        ),
        text(
            MARGIN,
            42,
            told(_("{status} · deck {deck} · discard {discard}", status=status, deck=deck, discard=discard)),
            14,
            fill="#495057",
        ),
    ]
    y = 52.0
    if battle:
        block, y = _convoy_panel(y, data, cards, marks, told)
        body.extend(block)
        block, y = _plays(y, data, cards, marks, told)
        body.extend(block)
    block, y = _decision(y, data, cards, marks, told)
    body.extend(block)
    block, y = _players(y, data, cards, marks, told)
    body.extend(block)
    names = ", ".join(str(p.get("name", "")) for p in data.get("players", ()))
    title = told(_("Atlantic Storm: {players}; battle {number} of {total}", players=names, number=number, total=total))
    return document(WIDTH, y + 4, title, body, description=status)
