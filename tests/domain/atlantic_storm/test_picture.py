"""The table drawn as SVG from a view, on the recorded three-player game (see test_recorded_game for
the game worked by hand): hands are counts, captured cards stay face down until the end (G-2)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import msgspec

from domain.atlantic_storm import RULESET
from domain.record import fold
from domain.ruleset import Viewer
from projections.diff import diff
from testkit.players.atlantic_storm import RandomGame, generated_catalogue
from tests.domain.atlantic_storm.test_recorded_game import events

SVG = "{http://www.w3.org/2000/svg}"


def state_after(step: int):
    """The state after the record's first `step` events (step 1 is the set-up)."""
    return fold(RULESET, events()[:step]).state


def labels(document: str) -> list[str]:
    return [e.get("aria-label") for e in ET.fromstring(document).iter() if e.get("aria-label")]


def group(document: str, start: str) -> ET.Element:
    [found] = [e for e in ET.fromstring(document).iter() if (e.get("aria-label") or "").startswith(start)]
    return found


def test_the_convoy_at_stake_its_vp_and_the_declared_zone_are_drawn():
    # Step 7: battle 1 for SC 42 (7 VP) in the submarine zone, Bea and Carl have played.
    document = RULESET.picture(RULESET.view(state_after(7), Viewer.public()), ())
    convoy = group(document, "Convoy at stake")
    assert convoy.get("aria-label") == "Convoy at stake: SC 42, 7 VP, zone submarine, round 1"
    assert [t.text for t in convoy.iter(f"{SVG}text")][:2] == ["SC 42", "7 VP"]


def test_each_play_of_the_round_is_drawn_with_its_combat_value_and_the_sides_totals():
    # AS-9: U-201 (2) + Wolfpack Radio (+1) = 3 for the Germans; Achates 3 for the Allies.
    document = RULESET.picture(RULESET.view(state_after(7), Viewer.public()), ())
    plays = [label for label in labels(document) if " plays for the " in label]
    assert plays == [
        "Bea plays for the German side: U-201, Wolfpack Radio; combat value 3",
        "Carl plays for the Allied side: Achates; combat value 3",
    ]
    assert "Plays this round · Allies 3 : Germans 3" in document
    assert "Still to play: Alain" in document


def test_the_view_gives_each_play_its_value_in_the_zone_in_force():
    battle = RULESET.view(state_after(7), Viewer.public())["battle"]
    assert battle["zone_now"] == "submarine"
    assert [play["value"] for play in battle["plays"]] == [3, 3]


def test_the_decided_round_tricks_and_vp_are_drawn_for_each_player():
    # Step 12: battle 1 went to the Allies 6 : 3, Carl took the trick (SC 42, 7 VP, and U-201 face down).
    document = RULESET.picture(RULESET.view(state_after(12), Viewer.public()), ())
    assert "Last round decided: Battle 1, round 1, SC 42: the Allies win, 6 : 3. Trick to Carl" in labels(document)
    carl = group(document, "Carl:")
    assert carl.get("aria-label").startswith("Carl: 7 VP (convoys 7 + 1 card face down)")
    assert "1 trick" in " ".join(t.text for t in carl.iter(f"{SVG}text"))


def test_a_public_picture_holds_no_card_of_a_hand_nor_a_captured_card_before_the_end():
    # At step 12 the record knows Alain holds Sunderland, U38 and Catalina, Bea Rodney and U552, Carl
    # Scharnhorst, Condor and Reuben James; Carl captured U-201 face down (it was seen in play, so
    # only its place, not its name, is hidden: the count says one card).
    state = state_after(12)
    full = RULESET.view(state, Viewer.full())
    held = {number for player in full["players"] for number in player["hand"]}
    names = {full["cards"][number]["name"] for number in held}
    assert names == {"Sunderland", "U38", "Catalina", "Rodney", "U552", "Scharnhorst", "Condor", "Reuben James"}
    public = RULESET.view(state, Viewer.public())
    assert not held & set(public["cards"])  # the view does not describe a card it hides
    for viewer in (Viewer.public(), Viewer.full()):
        document = RULESET.picture(RULESET.view(state, viewer), ())
        assert not [name for name in names if name in document]  # hands are drawn as counts


def test_the_play_a_step_added_is_outlined():
    stream = events()
    before = RULESET.view(fold(RULESET, stream[:6]).state, Viewer.public())
    after = RULESET.view(fold(RULESET, stream[:7]).state, Viewer.public())
    paths = [tuple(str(p) for p in change.path) for change in diff(before, after)]
    assert ("battle", "plays", "1") in paths
    root = ET.fromstring(RULESET.picture(after, paths))
    outlined = [
        e.get("aria-label")
        for e in root.iter()
        if e.get("aria-label") and any(c.get("class") == "changed" for c in e.findall(f"{SVG}rect"))
    ]
    assert "Carl plays for the Allied side: Achates; combat value 3" in outlined
    assert not [label for label in outlined if label.startswith("Bea plays")]


def test_a_players_name_is_escaped():
    view = msgspec.to_builtins(RULESET.view(state_after(7), Viewer.public()))
    view["players"][1]["name"] = "<script>alert(1)</script>"
    document = RULESET.picture(view, ())
    assert "<script>" not in document and "&lt;script&gt;" in document
    assert "<script>alert(1)</script> plays for the German side" in " ".join(labels(document))


def test_random_games_draw_at_every_step_and_the_public_picture_names_no_card_in_a_hand():
    catalogue = generated_catalogue(1)
    rng = random.Random(7)
    drawn = 0

    def draw(game: RandomGame) -> None:
        nonlocal drawn
        state = game.record.state
        full = RULESET.view(state, Viewer.full())
        ET.fromstring(RULESET.picture(full, ()))
        public = RULESET.picture(RULESET.view(state, Viewer.public()), ())
        ET.fromstring(public)
        public = public.replace("Atlantic Storm:", "").replace("Atlantic Storm ·", "")  # the game, not the card
        for player in full["players"]:
            for number in player["hand"]:
                assert not re.search(rf"(?<!\w){re.escape(full['cards'][number]['name'])}(?!\w)", public)
        drawn += 1

    for players, variant in ((3, "advanced"),):
        RandomGame(rng, catalogue, players, variant).play(draw)
    assert drawn > 100


def test_the_heading_names_the_battle_to_come_before_it_is_set_up_and_the_last_at_the_end():
    def heading(state) -> str:
        title = ET.fromstring(RULESET.picture(RULESET.view(state, Viewer.public()), ())).find(f"{SVG}title")
        assert title is not None and title.text is not None
        return title.text.rsplit("; ", 1)[1]

    start = state_after(1)
    assert start.battle is None and start.battles_fought == 0
    assert heading(start) == f"battle 1 of {start.pile_size}"
    end = fold(RULESET, events()).state
    assert end.battles_fought == end.pile_size
    assert heading(end) == f"battle {end.pile_size} of {end.pile_size}"
