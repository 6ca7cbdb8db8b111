"""Writes the recorded-round fixtures (JSON Lines, the GameStarted first). Run once:
`python -m tests.domain.milles_nautiques.make_fixtures`. A fixture that exists is never rewritten:
recorded games are never edited. The expected scores are worked out by hand in test_recorded_rounds.py."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.catalogue import CARDS
from domain.milles_nautiques.events import (
    AlertPlayed,
    ConvoyPlaced,
    ConvoysRevealed,
    Dealt,
    Discarded,
    Drew,
    MilesPlayed,
    MineLaid,
    PlanePlayed,
    RadarPlayed,
    RevealedConvoy,
    WarshipPlayed,
)
from domain.record import fold
from testkit.players.milles_nautiques import cards_of, make_setup, started

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def two_players_to_forty() -> list[Any]:
    """Alain (seat 0) and Bea (seat 1); Bea deals, Alain plays first."""
    return [
        started(make_setup(2, dealer=1)),
        Dealt(
            dealer=1,
            hands=(
                ("convoy_20000", "convoy_5000", "miles_2000", "miles_1000", "miles_1000", "alert"),
                ("convoy_10000", "radar", "miles_400", "miles_600", "destroyer", "cruiser"),
            ),
        ),
        Drew(seat=0, card="miles_2000"),
        ConvoyPlaced(seat=0, position=0, card="convoy_20000"),
        Drew(seat=1, card="frigate"),
        ConvoyPlaced(seat=1, position=0, card="convoy_10000"),
        Drew(seat=0, card="miles_200"),
        ConvoyPlaced(seat=0, position=1, card="convoy_5000"),
        Drew(seat=1, card="alert"),
        RadarPlayed(seat=1, convoy=1),
        Drew(seat=0, card="carrier"),
        MilesPlayed(seat=0, convoy=1, card="miles_2000"),
        Drew(seat=1, card="miles_200"),
        AlertPlayed(seat=1, convoy=3),
        Drew(seat=0, card="submarine"),
        AlertPlayed(seat=0, convoy=2),
        Drew(seat=1, card="plane"),
        WarshipPlayed(seat=1, convoy=3, ship="destroyer"),
        Drew(seat=0, card="end_of_alert"),
        MilesPlayed(seat=0, convoy=1, card="miles_1000"),
        Drew(seat=1, card="miles_600"),
        MilesPlayed(seat=1, convoy=2, card="miles_400"),
        Drew(seat=0, card="miles_400"),
        MilesPlayed(seat=0, convoy=1, card="miles_1000"),
    ]


def four_players_in_teams() -> list[Any]:
    """Alain and Claire (seats 0, 2) against Bea and Damien (seats 1, 3); Damien deals."""
    return [
        started(make_setup(4, teams=True, dealer=3)),
        Dealt(
            dealer=3,
            hands=(
                ("convoy_20000", "mine", "convoy_5000", "storm", "fair_sea", "submarine"),
                ("convoy_20000", "cruiser", "convoy_10000", "plane_hit", "frigate", "miles_200"),
                ("miles_2000", "carrier", "miles_2000", "minesweeper", "miles_400", "alert"),
                ("alert", "miles_1000", "destroyer", "radar", "end_of_alert", "miles_600"),
            ),
        ),
        Drew(seat=0, card="miles_200"),
        ConvoyPlaced(seat=0, position=0, card="convoy_20000"),
        Drew(seat=1, card="miles_400"),
        ConvoyPlaced(seat=1, position=0, card="convoy_20000"),
        Drew(seat=2, card="plane"),
        MilesPlayed(seat=2, convoy=1, card="miles_2000"),
        Drew(seat=3, card="submarine"),
        AlertPlayed(seat=3, convoy=1),
        Drew(seat=0, card="frigate"),
        MineLaid(seat=0, convoy=2),
        Drew(seat=1, card="destroyer"),
        WarshipPlayed(seat=1, convoy=1, ship="cruiser"),
        Drew(seat=2, card="convoy_2500"),
        WarshipPlayed(seat=2, convoy=1, ship="carrier"),
        Drew(seat=3, card="miles_600"),
        MilesPlayed(seat=3, convoy=2, card="miles_1000"),
        Drew(seat=0, card="alert"),
        ConvoyPlaced(seat=0, position=1, card="convoy_5000"),
        Drew(seat=1, card="trawler"),
        ConvoyPlaced(seat=1, position=0, card="convoy_10000"),
        Drew(seat=2, card="miles_1000"),
        MilesPlayed(seat=2, convoy=1, card="miles_2000"),
    ]


def cards_run_out() -> list[Any]:
    """Alain (seat 0) and Bea (seat 1); Bea deals. Every draw is face down; the plays below are made
    on each player's first turns, every other card is discarded; Bea's trawler is laid face down and
    revealed at the end."""
    scripted: dict[int, list[Any]] = {
        0: [
            ConvoyPlaced(seat=0, position=0, card="convoy_10000"),
            ConvoyPlaced(seat=0, position=1, card="convoy_2500"),
            ConvoyPlaced(seat=0, position=2, card="convoy_5000"),
            *[MilesPlayed(seat=0, convoy=1, card="miles_600")] * 6,
            MilesPlayed(seat=0, convoy=1, card="miles_400"),
            MilesPlayed(seat=0, convoy=3, card="miles_1000"),
        ],
        1: [
            ConvoyPlaced(seat=1, position=0, card="convoy_5000"),
            ConvoyPlaced(seat=1, position=1, card="convoy_20000"),
            ConvoyPlaced(seat=1, position=2),
            PlanePlayed(seat=1, convoy=5),
            PlanePlayed(seat=1, convoy=5),
            MilesPlayed(seat=1, convoy=2, card="miles_2000"),
            MilesPlayed(seat=1, convoy=2, card="miles_2000"),
        ],
    }
    pool = Counter({card.name: card.count for card in CARDS})
    for plays in scripted.values():
        for event in plays:
            named = cards_of(event)
            kind, copies = named if named else ("trawler", 1)
            pool[kind] -= copies
    events: list[Any] = [started(make_setup(2, dealer=1)), Dealt(dealer=1)]
    folded = fold(RULESET, events)
    while folded.state.phase != "over":
        state = folded.state
        if state.phase == "reveal":
            event: Any = ConvoysRevealed(convoys=(RevealedConvoy(convoy=6, card="trawler"),))
        elif state.phase in ("draw", "extra_draw"):
            event = Drew(seat=state.to_play)
        elif scripted[state.to_play]:
            event = scripted[state.to_play].pop(0)
        else:
            card = next(card.name for card in CARDS if pool[card.name])
            pool[card] -= 1
            event = Discarded(seat=state.to_play, card=card)
        events.append(event)
        folded = folded.accept(event)
    return events


def write(name: str, events: list[Any]) -> None:
    path = FIXTURES / f"{name}.jsonl"
    if path.exists():
        print(f"{path.name} exists: recorded games are never rewritten")
        return
    fold(RULESET, events)  # every fixture is a round the rules accept
    path.write_bytes(b"".join(msgspec.json.encode(event) + b"\n" for event in events))
    print(f"wrote {path.name}: {len(events)} events")


if __name__ == "__main__":
    FIXTURES.mkdir(exist_ok=True)
    write("two_players_to_forty", two_players_to_forty())
    write("four_players_in_teams", four_players_in_teams())
    write("cards_run_out", cards_run_out())
