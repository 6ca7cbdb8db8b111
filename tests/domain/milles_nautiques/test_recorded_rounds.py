"""Whole recorded rounds, kept as JSON Lines fixtures that are never edited: they guard stored records
against changes to events, rules or scoring. Each expected score is worked out by hand below."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.milles_nautiques import RULESET
from domain.record import Folded, decoder, fold
from domain.ruleset import Viewer

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _replay(name: str) -> tuple[list[Any], Folded]:
    lines = (FIXTURES / f"{name}.jsonl").read_bytes().splitlines()
    events = [decoder(RULESET).decode(line) for line in lines]
    # The record path: every event is checked against the rules before it is applied.
    folded = fold(RULESET, events[:1])
    for event in events[1:]:
        folded = folded.accept(event)
    return events, folded


def _scores(folded: Folded) -> dict[int, tuple[int, dict[str, int]]]:
    return {p.seat: (p.score, p.breakdown) for p in RULESET.result(folded.state, Viewer.public()).players}


def test_a_two_player_round_ends_when_alain_reaches_forty_points():
    """Alain (seat 0) against Bea (seat 1), Bea deals (MN-19: Alain plays first).

    Alain lays his 20,000-ton convoy (convoy 1) and a 5,000 (convoy 3); Bea lays a 10,000 (convoy 2).
    Bea's radar detects convoy 1, the port end of Alain's row (MN-9). Bea alerts convoy 3 and lays a
    destroyer against it; Alain does not answer, so at the start of Bea's next turn the destroyer has
    held: convoy 3 is sunk and captured by Bea (MN-6). Alain sails convoy 1: 2,000 + 1,000 + 1,000 =
    4,000 miles, it arrives (MN-4).

    Alain: convoy 1, 20,000 tons at 4,000 miles = 20 points, detected so doubled = 40 (MN-13, MN-9;
    MN-21: a detected 20,000 scores twice its own cell).
    That is 40: the round ends at once (MN-15). Winner bonus +10 (MN-16); no slowness bonus, he laid
    2,000 and 1,000 cards. Alain = 50 points = 100 half-points.
    Bea: captured a 5,000 (5 points) but has no convoy in port, so she scores nothing (MN-15): 0.
    """
    _, folded = _replay("two_players_to_forty")
    result = RULESET.result(folded.state, Viewer.public())
    assert result.finished and not result.void
    assert result.winners == (0,)
    assert _scores(folded) == {
        0: (100, {"convoy": 80, "capture": 0, "round_bonus": 20, "slowness_bonus": 0}),
        1: (0, {"convoy": 0, "capture": 0, "round_bonus": 0, "slowness_bonus": 0}),
    }
    assert [(p.seat, p.placement) for p in result.players] == [(0, 1), (1, 2)]


def test_a_four_player_team_round_scores_the_team_of_alain_and_claire():
    """Alain and Claire (seats 0, 2) against Bea and Damien (seats 1, 3); Damien deals, Alain first.

    Alain lays the team's 20,000 (convoy 1); Bea lays hers (convoy 2). Claire sails her partner's
    convoy 2,000 miles (MN-18: one row per team). Damien alerts convoy 1, Alain mines convoy 2, Bea lays
    a cruiser against convoy 1 and Claire defends it with a carrier (partners defend each other).
    At the start of Alain's next turn his mine explodes: convoy 2 (20,000 tons, never detected) is
    sunk and captured by Alain (MN-8). Alain lays a 5,000 (convoy 3) at 0 miles. Nobody answers
    Claire's carrier: at the start of her turn convoy 1 is saved (MN-6), and she sails it 2,000 more:
    4,000 miles, it arrives.

    Alain and Claire: convoy 1, 20,000 at 4,000 = 20 points; convoy 3, 5,000 at 0 miles = 0; capture
    of a 20,000 = 20 (MN-14). 40 points: the round ends (MN-15). +10 winner; no slowness (2,000 cards).
    Team = 50 points = 100 half-points, shown for both partners. Bea and Damien: no convoy in port, 0.
    """
    _, folded = _replay("four_players_in_teams")
    result = RULESET.result(folded.state, Viewer.public())
    assert result.finished
    assert result.winners == (0, 2)
    team = (100, {"convoy": 40, "capture": 40, "round_bonus": 20, "slowness_bonus": 0})
    nothing = (0, {"convoy": 0, "capture": 0, "round_bonus": 0, "slowness_bonus": 0})
    assert _scores(folded) == {0: team, 1: nothing, 2: team, 3: nothing}


def test_a_round_whose_cards_run_out_goes_to_the_best_scorer_with_a_convoy_in_port():
    """Alain (seat 0) against Bea (seat 1), Bea deals. Every draw is recorded face down (G-2); every
    card not played below is discarded, until the stock and both hands are empty (MN-15).

    Alain lays a 10,000 (convoy 1), a 2,500 (convoy 3) and a 5,000 (convoy 5); he sails convoy 1 with
    six 600s and a 400 (4,000 miles: it arrives, never more than 600 at a time) and lays 1,000 miles on
    convoy 3. Bea lays a 5,000 (convoy 2), a 20,000 (convoy 4) and a convoy face down (convoy 6);
    two planes of hers destroy convoy 5 (MN-7); convoy 2 sails 2,000 + 2,000 and arrives. At the end the
    table reveals convoy 6: the trawler.

    Alain: 10,000 at 4,000 = 10; 2,500 at 1,000 = 0.5; no capture: 10.5 points.
    Bea: 5,000 at 4,000 = 5; 20,000 at 0 miles = 2 (the cell, MN-13); trawler 0; capture of a 5,000 = 5:
    12 points. Nobody reached 40: the winner is the best scorer with a convoy in port, Bea (12 > 10.5;
    bonuses do not decide it, see the package docstring), +10 = 22 points = 44 half-points.
    Alain's only arrived convoy never took more than 600: slowness bonus +7 (the 1,000 on convoy 3
    does not count, it never arrived) = 17.5 points = 35 half-points.
    """
    events, folded = _replay("cards_run_out")
    state = folded.state
    assert state.ended == "cards"
    assert state.stock == 0 and all(hand.size == 0 for hand in state.hands)
    result = RULESET.result(state, Viewer.public())
    assert result.winners == (1,)
    assert _scores(folded) == {
        0: (35, {"convoy": 21, "capture": 0, "round_bonus": 0, "slowness_bonus": 14}),
        1: (44, {"convoy": 14, "capture": 10, "round_bonus": 20, "slowness_bonus": 0}),
    }
    assert len(events) == 203  # start, deal, 94 draws, 106 plays and discards, the reveal


def test_a_recorded_round_replays_the_same_with_evolve_alone():
    events, checked = _replay("cards_run_out")
    assert fold(RULESET, events).state == checked.state


def test_a_recorded_round_narrates_every_event_in_round_and_turn_chapters():
    events, _ = _replay("two_players_to_forty")
    folded = fold(RULESET, events[:1])
    lines = []
    for event in events[1:]:
        before = folded.state
        folded = folded.apply(event)
        lines.append(RULESET.narrate(before, event, folded.state, Viewer.public()))
    assert lines[0].text == "Bea deals six cards to each player; Alain plays first."
    assert lines[0].chapters == (("round", 1),)
    texts = [line.text for line in lines]
    assert "Bea lays a destroyer against Alain's second convoy." in texts
    assert any(text.endswith("Alain's second convoy is sunk and captured by Bea.") for text in texts)
    assert lines[-1].chapters == (("round", 1), ("turn", 11))
    assert lines[-1].seat == 0
    assert lines[-1].text.endswith(
        "Alain's first convoy arrives in port. Round over: Alain reaches 40 points and wins the round."
    )


def test_the_public_view_of_a_finished_round_shows_every_convoy():
    _, folded = _replay("cards_run_out")
    public = RULESET.view(folded.state, Viewer.public())
    assert [c["card"] for c in public["convoys"]] == [
        "convoy_10000",
        "convoy_5000",
        "convoy_2500",
        "convoy_20000",
        "convoy_5000",
        "trawler",
    ]
