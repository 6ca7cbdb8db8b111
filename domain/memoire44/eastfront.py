"""Eastern Front at an Overlord team table (M44-OV-8, M44-OV-10): pure helpers; the checks are in
`rules/overlord.py`.

Under the commissar rule the commander-in-chief places one to three command cards under the commissar
token in his side's turn; on the side's next turn those are the cards he hands out, every one of them.
Beside them only Counter-Attack goes out straight from his hand, and only while fewer than three cards lay
under the token; Recon 1 (which the two-player rule lets a side play at once) waits under the token like
any other card; Ambush stays in the hand and answers an enemy assault as usual.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product

from domain.memoire44.overlord import general_takes

MAX_UNDER_TOKEN = 3
# Cards handed out at once beside the token's. The summary also names Air Sortie: its cards are held
# apart from the command cards and played beside the turn's card (M44-AIR-15), never under the token.
AT_ONCE: frozenset[str] = frozenset({"counter_attack"})


def from_hand(token: Sequence[str | None], cards: Sequence[str | None]) -> tuple[int, ...] | None:
    """Which of the cards handed out (by index) come from the commander's hand rather than from under the
    token; None when a card under the token is not handed out. The token's named cards are matched first;
    its face-down ones take the other cards, at-once cards last, so that an at-once card counts as coming
    from the hand whenever it can."""
    named = [card for card in token if card is not None]
    rest: list[int] = []
    for index, card in enumerate(cards):
        if card is not None and card in named:
            named.remove(card)
        else:
            rest.append(index)
    face_down = len(token) - len([card for card in token if card is not None])
    if named or len(rest) < face_down:
        return None
    rest.sort(key=lambda index: cards[index] in AT_ONCE)
    return tuple(sorted(rest[face_down:]))


def token_fits(
    generals: Sequence[tuple[str, ...]], cards: Sequence[str | None], sections_of: Mapping[str, tuple[str, ...]]
) -> bool:
    """Whether `cards` could all be handed out together to generals commanding `generals` (M44-OV-3: at
    most two each, a tactic card alone, each in a section of his): the cards under the token go out
    together on the next turn, so a set that cannot is refused as it is placed. A face-down card (None)
    fits anywhere; Ambush is never placed."""
    if "ambush" in cards:
        return False
    for owners in product(range(len(generals)), repeat=len(cards)):
        per: dict[int, list[str | None]] = {}
        for owner, card in zip(owners, cards, strict=True):
            per.setdefault(owner, []).append(card)
        if all(general_takes(generals[owner], held, sections_of) for owner, held in per.items()):
            return True
    return False
