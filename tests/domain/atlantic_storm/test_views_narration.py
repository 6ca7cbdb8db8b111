"""Views (G-2), narration, and a correction (G-3) in an Atlantic Storm record."""

from __future__ import annotations

import random

from domain.atlantic_storm import RULESET
from domain.atlantic_storm.events import CardDiscarded, CardsDrawn, CardsPlayed
from domain.record import Correction, decoder, fold
from domain.ruleset import Viewer
from testkit.players.atlantic_storm import RandomGame, generated_catalogue
from tests.domain.atlantic_storm.test_worked_examples import five_player_battle


def test_the_public_view_hides_hands_and_captured_cards_and_a_seat_sees_its_own():
    state = five_player_battle("basic").state
    public = RULESET.view(state, Viewer.public())
    assert all("hand" not in p and "captured" not in p for p in public["players"])
    assert public["players"][1]["captured_count"] == 2
    assert public["players"][1]["convoys"] == ["C1"]
    assert "discard" not in public  # nobody looks through the discard pile (002 §5)
    bea = RULESET.view(state, Viewer.of_seat(1))
    assert bea["players"][1]["hand_face_down"] == 3
    assert sorted(bea["players"][1]["captured"]) == ["G2", "G3"]
    assert "hand" not in bea["players"][0]
    full = RULESET.view(state, Viewer.full())
    assert full["players"][0]["hand"] == []
    assert "G1" in full["discard"]


def test_the_replay_tells_the_five_player_example_in_plain_english():
    table = five_player_battle("basic")
    folded = fold(RULESET, table.events[:1])
    lines = []
    for event in table.events[1:]:
        after = folded.apply(event)
        lines.append(RULESET.narrate(folded.state, event, after.state, Viewer.full()))
        folded = after
    texts = [n.text for n in lines]
    assert texts[0].endswith("A cut the lowest number and deals.")
    assert texts[2] == "A turns SC 42 (1941, North Atlantic, full cargo, 7 VP)."
    assert "A plays Markgraf for the Germans." in texts[4]
    assert "fate card's value doubles" in texts[4]
    assert texts[5] == "B plays Sunderland with Metric ASV Radar and Atlantic Storm for the Allies."
    assert texts[7] == "B's storm cancels A's play (Markgraf)."
    assert texts[-1] == "E rolls 4 for Escort Group 36. The Allies win 8 to 7; B takes the trick (SC 42)."
    assert lines[4].chapters == (("battle", 1), ("round", 1))
    assert lines[5].seat == 1


def test_a_correction_voids_a_mistaken_play_and_the_fold_skips_it():
    table = five_player_battle("basic")
    events = table.events[:9]  # up to C's play of U38
    mistaken = [*events, CardsPlayed(seat=3, normals=("G4",)), Correction(voids=1)]
    # G-3: the mistake is in the record; the fold is as if it never happened.
    assert fold(RULESET, mistaken).state == fold(RULESET, events).state
    raw = b"\n".join(__import__("msgspec").json.encode(e) for e in mistaken)
    decoded = [decoder(RULESET).decode(line) for line in raw.splitlines()]
    assert decoded[1:] == mistaken[1:]


def test_an_unfinished_result_counts_captured_cards_only_for_who_sees_them():
    # G-2: captured cards lie face down until the game ends (the view hides them), so the result does too.
    state = five_player_battle("basic").state
    assert state.phase != "over" and state.captured[1]
    full = RULESET.result(state, Viewer.full()).players[1]
    public = RULESET.result(state, Viewer.public()).players[1]
    bea = RULESET.result(state, Viewer.of_seat(1)).players[1]
    assert full == bea and full.breakdown["cards"] == RULESET.view(state, Viewer.of_seat(1))["players"][1]["card_vp"]
    assert public.breakdown == {"convoy": full.breakdown["convoy"], "cards": 0}
    assert RULESET.result(state, Viewer.of_seat(0)).players[1] == public


def test_a_draw_and_a_discard_are_named_to_their_seat_only():
    # G-2: drawn cards join a hand unseen; a discard instead of a play goes face down (AS-3, AS-12).
    game = RandomGame(random.Random(16), generated_catalogue(0), 3, "basic", hidden=0.0)
    game.play(lambda _: None)
    folded, checked = fold(RULESET, [game.record_started]), 0
    for _, event in game.truth.effective_events():
        after = folded.apply(event)
        if isinstance(event, CardsDrawn | CardDiscarded) and (
            not isinstance(event, CardDiscarded) or folded.state.battle.queue[0].intelligence is None
        ):
            cards = event.cards if isinstance(event, CardsDrawn) else (event.card,)
            names = [folded.state.cards[c].name for c in cards if c]
            own = RULESET.narrate(folded.state, event, after.state, Viewer.of_seat(event.seat)).text
            public = RULESET.narrate(folded.state, event, after.state, Viewer.public()).text
            other = RULESET.narrate(folded.state, event, after.state, Viewer.of_seat((event.seat + 1) % 3)).text
            assert all(name in own for name in names) and other == public, own
            assert not any(name in public for name in names), public
            checked += 1
        folded = after
    assert checked > 20
