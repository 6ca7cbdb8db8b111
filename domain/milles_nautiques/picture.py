"""The table of a Milles Nautiques round as an SVG picture, drawn from a view (G-2: a convoy the viewer
may not see is a card back, its tonnage nowhere in the picture).

Each side has a panel: its name, running score in points (never half-points) and hands; its convoys at
sea from port to starboard, each with its miles and what lies on it (alert, storm, neutral flag, mine,
lone plane, the ships of a battle stacked under it); the convoys it brought into port; the convoys it
captured. The header says the round, turn, who plays and the stock.

Its words are messages (issue 26), told in the reader's language with the `words` the picture is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from domain.i18n import Arg, Catalogue, Message, Teller, english
from domain.milles_nautiques.catalogue import ARRIVAL_MILES, BY_NAME, grouped
from domain.milles_nautiques.scoring import in_points
from domain.svg import Changed, changed_class, document, esc, group, pick, rect, shorten, text, to_data

WIDTH = 400
HAND_TEXT = 15
MARGIN = 8
CARD_W = 72
CARD_GAP = 6
PER_LINE = 5
SHIP_H = 18
BADGE_H = 16

BACK_FILL = "#1f3a5f"
FACE_FILL = "#f6f1e1"
PORT_FILL = "#d8f0d2"
ATTACK_FILL = "#c92a2a"
DEFEND_FILL = "#2b8a3e"

_ = Catalogue("domain.milles_nautiques")

# What lies on a convoy, as a short badge: its label, colour and words for a screen reader.
_BADGES = (
    ("alert", _.pgettext("badge", "ALERT"), "#c92a2a", _.pgettext("on a convoy", "alert")),
    ("storm", _.pgettext("badge", "STORM"), "#1864ab", _.pgettext("on a convoy", "storm")),
    ("neutral", _.pgettext("badge", "NEUTRAL FLAG"), "#495057", _.pgettext("on a convoy", "neutral flag")),
)


def _tons(card: str, told: Teller) -> str:
    kind = BY_NAME[card]
    return told(_("{tons} t", tons=grouped(kind.tons)) if kind.tons else _.pgettext("picture", "Trawler"))


def _convoy_words(card: str | None) -> Message:
    if card is None:
        return _.pgettext("picture", "face down")
    kind = BY_NAME[card]
    return _("{tons} tons", tons=grouped(kind.tons)) if kind.tons else _.pgettext("picture", "the trawler")


def _name(names: Sequence[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def _badges(convoy: dict[str, Any], names: Sequence[str], told: Teller) -> list[tuple[str, str, str]]:
    """What lies on a convoy: (badge text, colour, words for a screen reader)."""
    found = [(told(label), colour, told(said)) for key, label, colour, said in _BADGES if convoy.get(key)]
    plane = convoy.get("plane_by")
    if plane is not None:
        who = _name(names, plane)
        found.append(
            (
                told(_("PLANE {player}", player=shorten(who, 6))),
                "#5f3dc4",
                told(_("a plane from {player}", player=who)),
            )
        )
    mine = convoy.get("mine_by")
    if mine is not None:
        who = _name(names, mine)
        found.append(
            (
                told(_("MINE {player}", player=shorten(who, 7))),
                "#862e9c",
                told(_("a mine laid by {player}", player=who)),
            )
        )
    return found


def _card_height(convoy: dict[str, Any], names: Sequence[str]) -> float:
    return 62 + BADGE_H * len(_badges(convoy, names, english)) + SHIP_H * len(convoy.get("battle", ()))


class _Table(NamedTuple):
    """What every part of the picture needs: the players' names, the changed paths, the round over, and
    the reader's language its words are told in."""

    names: list[str]
    changed: Changed
    over: bool
    told: Teller


def _convoy_card(x: float, y: float, convoy: dict[str, Any], table: _Table) -> str:
    """One convoy: its card (face or back), miles sailed with a bar to port, badges, ships under it."""
    names, changed, told = table.names, table.changed, table.told
    card = convoy.get("card")
    number = convoy["number"]
    detected = bool(convoy.get("detected"))
    arrived = convoy.get("status") == "arrived"
    badges = _badges(convoy, names, told)
    ships = convoy.get("battle", ())
    height = 62 + BADGE_H * len(badges)
    body: list[str] = []
    if card is None:
        body.append(rect(x, y, CARD_W, height, rx=6, fill=BACK_FILL, stroke="#0b1d33"))
        body.append(rect(x + 4, y + 4, CARD_W - 8, 52, rx=4, fill="none", stroke="#8fa9c9"))
        body.append(text(x + CARD_W / 2, y + 22, told(_convoy_words(None)), 12, anchor="middle", fill="#ffffff"))
        ink = "#ffffff"
    else:
        # A card the viewer knows but the table has not seen (the record, its own side) has a dashed edge.
        dashed = None if detected or arrived or table.over else "5 3"
        body.append(
            rect(
                x,
                y,
                CARD_W,
                height,
                rx=6,
                fill=PORT_FILL if arrived else FACE_FILL,
                stroke="#343a40",
                stroke_dasharray=dashed,
            )
        )
        body.append(text(x + CARD_W / 2, y + 22, _tons(card, told), 14, anchor="middle", font_weight="bold"))
        ink = "#1b1b1b"
    distance = int(convoy.get("distance", 0))
    body.append(
        text(x + CARD_W / 2, y + 47, told(_("{miles} mi", miles=grouped(distance))), 14, anchor="middle", fill=ink)
    )
    filled = (CARD_W - 12) * min(distance, ARRIVAL_MILES) / ARRIVAL_MILES
    body.append(rect(x + 6, y + 50, CARD_W - 12, 5, fill="#adb5bd"))
    if filled:
        body.append(rect(x + 6, y + 50, filled, 5, fill="#2f9e44"))
    if detected:
        # Its own line between the tonnage and the miles, so it never runs over either (phone width).
        radar = told(_.pgettext("picture", "radar"))
        body.append(text(x + CARD_W / 2, y + 33, radar, 10, anchor="middle", fill="#e8590c", font_weight="bold"))
    for i, (label, colour, _said) in enumerate(badges):
        top = y + 58 + BADGE_H * i
        body.append(rect(x + 3, top, CARD_W - 6, BADGE_H - 2, rx=3, fill=colour))
        body.append(text(x + CARD_W / 2, top + 12, label, 12, anchor="middle", fill="#ffffff", font_weight="bold"))
    for i, ship in enumerate(ships):
        top = y + height + SHIP_H * i
        who = _name(names, ship.get("seat"))
        attacking = bool(ship.get("attacking"))
        strength = ship.get("strength")
        cards = _ship_cards(ship.get("cards", ()))
        said = (
            _("{player} attacks with {cards}, strength {strength}", player=who, cards=cards, strength=str(strength))
            if attacking
            else _(
                "{player} defends with {cards}, strength {strength}", player=who, cards=cards, strength=str(strength)
            )
        )
        title = (
            _("{player} attacks: {cards} ({strength})", player=who, cards=cards, strength=str(strength))
            if attacking
            else _("{player} defends: {cards} ({strength})", player=who, cards=cards, strength=str(strength))
        )
        body.append(
            group(
                told(said),
                [
                    f"<title>{esc(told(title))}</title>",
                    rect(
                        x + 2,
                        top + 1,
                        CARD_W - 4,
                        SHIP_H - 2,
                        rx=2,
                        fill=ATTACK_FILL if ship.get("attacking") else DEFEND_FILL,
                        class_=changed_class(changed("convoys", number - 1, "battle", i)),
                    ),
                    text(x + 6, top + 13, shorten(who, 6), 12, fill="#ffffff"),
                    text(x + CARD_W - 6, top + 13, str(strength), 13, anchor="end", fill="#ffffff", font_weight="bold"),
                ],
            )
        )
    outline = changed("convoys", number - 1)
    if outline:
        body.append(
            rect(x - 2, y - 2, CARD_W + 4, height + SHIP_H * len(ships) + 4, rx=7, fill="none", class_="changed")
        )
    place = _.pgettext("picture", "in port") if arrived else _.pgettext("picture", "at sea")
    spoken = [told(word) for word in (_("Convoy {number}", number=number), _convoy_words(card), place)]
    spoken.append(told(_("{miles} miles", miles=grouped(distance))))
    if detected:
        spoken.append(told(_("detected by radar")))
    spoken.extend(words for _label, _colour, words in badges)
    if ships:
        spoken.append(told(_.ngettext("{count} ship in battle", "{count} ships in battle", len(ships))))
    return group(", ".join(spoken), body, class_=None, **pick(f"convoy {number}", convoy=number))


def _ship_cards(cards: Sequence[str]) -> Arg:
    """A ship's cards: "a cruiser", or "a submarine and a submarine" for the pair."""
    named: list[Arg] = [BY_NAME[card].label if card in BY_NAME else str(card) for card in cards]
    if not named:
        return ""
    line = named[0]
    for card in named[1:]:
        line = _("{first} and {then}", first=line, then=card)
    return line


def _captured_chip(x: float, y: float, convoy: dict[str, Any], table: _Table) -> str:
    card = convoy.get("card")
    label = _tons(card, table.told) if card is not None else table.told(_convoy_words(None))
    owner = _name(table.names, convoy.get("laid_by"))
    changed = table.changed
    said = _(
        "Captured convoy {number}, {convoy}, laid by {player}",
        number=convoy["number"],
        convoy=_convoy_words(card),
        player=owner,
    )
    return group(
        table.told(said),
        [
            rect(
                x,
                y,
                CARD_W,
                22,
                rx=4,
                fill=BACK_FILL if card is None else "#ffe3e3",
                stroke="#343a40",
                class_=changed_class(changed("convoys", convoy["number"] - 1)),
            ),
            text(
                x + CARD_W / 2,
                y + 16,
                label,
                13,
                anchor="middle",
                fill="#ffffff" if card is None else "#1b1b1b",
                font_weight="bold",
            ),
        ],
    )


def _cards_block(y: float, title: Message, convoys: list[dict[str, Any]], table: _Table) -> tuple[list[str], float]:
    """A titled set of convoy cards in lines of five; returns the elements and the height used."""
    out = [text(MARGIN, y + 14, table.told(title), 13, fill="#495057")]
    y += 20
    for start in range(0, len(convoys), PER_LINE):
        line = convoys[start : start + PER_LINE]
        for i, convoy in enumerate(line):
            out.append(_convoy_card(MARGIN + i * (CARD_W + CARD_GAP), y, convoy, table))
        y += max(_card_height(c, table.names) for c in line) + 8
    return out, y


def _side_panel(y0: float, side: dict[str, Any], data: dict[str, Any], table: _Table) -> tuple[str, float]:
    changed, told = table.changed, table.told
    convoys = data.get("convoys", ())
    index = int(side["side"])
    score = side.get("score", {})
    total = sum(int(v) for v in score.values())
    body: list[str] = []
    y = y0 + 22
    body.append(text(MARGIN, y, shorten(side.get("name", ""), 28), 17, font_weight="bold"))
    score_changed = changed("sides", index, "score")
    if score_changed:
        body.append(rect(WIDTH - MARGIN - 92, y - 17, 92, 23, rx=4, fill="#fff4e6", class_="changed"))
    hidden = bool(side.get("score_hidden"))
    # A convoy in port face down: its tonnage is the side's secret, so the picture shows no total (G-2).
    points = told(_("? pts")) if hidden else told(_("{points} pts", points=in_points(total)))
    body.append(text(WIDTH - MARGIN - 4, y, points, 17, anchor="end", font_weight="bold"))
    parts = [
        _("convoys {points}", points=in_points(int(score.get("convoy", 0)))),
        _("captures {points}", points=in_points(int(score.get("capture", 0)))),
        _("round bonus {points}", points=in_points(int(score.get("round_bonus", 0)))),
        _("slowness {points}", points=in_points(int(score.get("slowness_bonus", 0)))),
    ]
    y += 18
    split = " · ".join(told(part) for part in parts if part.args["points"]) or told(_("no points yet"))
    if hidden:
        split = told(_("a convoy in port: tonnage hidden"))
    body.append(text(MARGIN, y, split, 13, fill="#495057"))
    # One line per player at HAND_TEXT units: a phone shows the 400-unit picture about 350 px wide, so
    # the hand lines read at 13 px or more there (issue 11); a team's line of three never runs over.
    for seat in side.get("seats", ()):
        player = data["players"][seat]
        to_play = data.get("to_play") == seat and data.get("phase") not in ("over", "deal")
        if changed("players", seat, "hand_size") or changed("players", seat, "hand"):
            body.append(
                rect(MARGIN - 2, y + 4, WIDTH - 2 * MARGIN + 4, HAND_TEXT + 6, rx=3, fill="none", class_="changed")
            )
        y += HAND_TEXT + 4
        name, size = str(player.get("name", "")), int(player.get("hand_size", 0))
        hand = (
            _("{player}: {count} in hand (to play)", player=name, count=size)
            if to_play
            else _("{player}: {count} in hand", player=name, count=size)
        )
        body.append(text(MARGIN, y, told(hand), HAND_TEXT))
    y += 6
    by_number = {c["number"]: c for c in convoys}
    at_sea = [by_number[n] for n in side.get("row", ()) if n in by_number]
    in_port = [c for c in convoys if c.get("side") == index and c.get("status") == "arrived"]
    seats = set(side.get("seats", ()))
    captured = [c for c in convoys if c.get("status") == "destroyed" and c.get("captor") in seats]
    title = _("At sea (port to starboard)") if at_sea else _("No convoy at sea")
    block, y = _cards_block(y, title, at_sea, table)
    body.extend(block)
    if in_port:
        block, y = _cards_block(y, _("In port"), in_port, table)
        body.extend(block)
    if captured:
        body.append(text(MARGIN, y + 14, told(_("Captured")), 13, fill="#495057"))
        y += 20
        for start in range(0, len(captured), PER_LINE):
            for i, convoy in enumerate(captured[start : start + PER_LINE]):
                body.append(_captured_chip(MARGIN + i * (CARD_W + CARD_GAP), y, convoy, table))
            y += 28
    y += 4
    frame = rect(2, y0 + 2, WIDTH - 4, y - y0 - 4, rx=8, fill="#f1f3f5", stroke="#ced4da")
    label = _(
        "{side}: {points} points, {at_sea} at sea, {in_port} in port, {captured} captured",
        side=str(side.get("name", "")),
        points=in_points(total),
        at_sea=len(at_sea),
        in_port=len(in_port),
        captured=len(captured),
    )
    return group(told(label), [frame, *body]), y


def picture(view: Any, changed: Sequence[tuple[str, ...]] = (), words: Teller = english) -> str:
    """The round as an SVG document, highlighting what the `changed` paths name, its words told in
    `words` (the reader's language)."""
    data = to_data(view)
    marks = Changed(changed)
    names = [p.get("name", "") for p in data.get("players", ())]
    phase = data.get("phase", "")
    number, stock = int(data.get("round", 1)), int(data.get("stock", 0))
    if phase == "over":
        status = _.pgettext("picture", "Round over")
    elif phase == "deal":
        status = _("Before the deal")
    else:
        status = _(
            "Turn {turn} · {player} to play", turn=int(data.get("turn", 0)), player=_name(names, data.get("to_play"))
        )
    head = [
        text(MARGIN, 22, words(_("Milles Nautiques · round {round}", round=number)), 18, font_weight="bold"),
        text(MARGIN, 42, words(_("{status} · stock {stock}", status=status, stock=stock)), 14, class_=None),
    ]
    if marks("stock") or marks("to_play") or marks("phase"):
        head.insert(0, rect(2, 28, WIDTH - 4, 20, rx=4, fill="#fff4e6"))
    body = [group(words(_("{status}, {stock} cards in the stock", status=status, stock=stock)), head)]
    y = 52.0
    for side in data.get("sides", ()):
        panel, y = _side_panel(y, side, data, _Table(names, marks, phase == "over", words))
        body.append(panel)
        y += 4
    title = _("Milles Nautiques, round {round}: {sides}", round=number, sides=_against(data.get("sides", ())))
    return document(WIDTH, y + 4, words(title), body, description=words(status))


def _against(sides: Sequence[dict[str, Any]]) -> str | Message:
    """The sides facing each other: "Alain against Bea against Claire"."""
    names = [str(side.get("name", "")) for side in sides]
    line: str | Message = names[0] if names else ""
    for name in names[1:]:
        line = _("{first} against {then}", first=line, then=name)
    return line
