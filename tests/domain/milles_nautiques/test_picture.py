"""The table drawn as SVG from a view: what the viewer may not see (MN-9, G-2) is not in the picture."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import msgspec

from domain.milles_nautiques import RULESET
from domain.milles_nautiques.events import AlertPlayed, ConvoyPlaced, PlanePlayed, WarshipPlayed
from domain.ruleset import Viewer
from testkit.players.milles_nautiques import Table, make_setup
from tests.domain.milles_nautiques.harness import Scene
from tests.domain.milles_nautiques.test_views import team_table

SVG = "{http://www.w3.org/2000/svg}"


def draw(state, viewer: Viewer | None = None, changed=()) -> str:
    return RULESET.picture(RULESET.view(state, viewer or Viewer.public()), changed)


def labelled(document: str, start: str) -> list[ET.Element]:
    """The elements whose aria-label starts with `start`."""
    return [e for e in ET.fromstring(document).iter() if (e.get("aria-label") or "").startswith(start)]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def outlined(element: ET.Element) -> bool:
    return any(e.get("class") == "changed" for e in element.iter())


def test_a_face_down_convoy_is_a_card_back_and_its_tonnage_is_nowhere_in_the_public_picture():
    # MN-9: Alain's 10,000 (convoy 1) and Bea's 20,000 (convoy 2) are face down; Damien's radar found convoy 3.
    document = draw(team_table().state)
    for hidden in ("10,000", "10000", "20,000", "20000", "convoy_10000", "convoy_20000"):
        assert hidden not in document
    [first] = labelled(document, "Convoy 1,")
    assert first.get("aria-label").startswith("Convoy 1, face down, at sea")
    assert "face down" in texts(first)


def test_a_detected_convoy_shows_its_tonnage_to_everyone():
    [third] = labelled(draw(team_table().state), "Convoy 3,")
    assert "5,000 t" in texts(third)
    assert "detected by radar" in third.get("aria-label")


def test_the_record_and_the_owners_side_see_their_own_face_down_tonnage():
    state = team_table().state
    [first] = labelled(draw(state, Viewer.full()), "Convoy 1,")
    assert "10,000 t" in texts(first)
    assert "20,000" not in draw(state, Viewer.of_seat(2))  # Claire sees her side's convoys, not Bea's


def test_each_hand_has_its_own_line_readable_at_phone_width():
    # Issue 11: the picture is 400 units wide and a 360 px phone shows it about 350 px wide, so text of
    # 14 units or more reads at 12 px or more there.
    root = ET.fromstring(draw(team_table().state))
    width = float(root.get("viewBox", "0 0 400 0").split()[2])
    lines = [t for t in root.iter(f"{SVG}text") if "in hand" in (t.text or "")]
    assert len(lines) == 4  # one per player, never one long line per team
    assert all(float(t.get("font-size", "0")) * 350 / width >= 12 for t in lines)


def test_hands_are_drawn_as_counts_only():
    document = draw(team_table().state)
    assert "Alain: 6 in hand" in document
    assert "alert" not in document.lower()  # Alain holds an alert: the picture does not say so


def test_the_ships_of_a_battle_are_stacked_under_the_convoy_with_their_strength():
    # Alain's convoy: Bea alerts it, Claire attacks with a frigate, Alain defends with a cruiser, Bea
    # sends a plane.
    scene = Scene(players=3).turn(ConvoyPlaced(seat=0, position=0))
    scene.turn(AlertPlayed(seat=1, convoy=1)).turn(WarshipPlayed(seat=2, convoy=1, ship="frigate"))
    scene.turn(WarshipPlayed(seat=0, convoy=1, ship="cruiser")).turn(PlanePlayed(seat=1, convoy=1))
    document = draw(scene.state)
    [convoy] = labelled(document, "Convoy 1,")
    assert convoy.get("aria-label").endswith("alert, a plane from Bea, 2 ships in battle")
    assert [t for t in texts(convoy) if t.isupper() or t.startswith("PLANE")] == ["ALERT", "PLANE Bea"]
    [attack] = labelled(document, "Claire attacks with a frigate")
    [defence] = labelled(document, "Alain defends with a cruiser")
    assert texts(attack) == ["Claire", "2"] and texts(defence) == ["Alain", "4"]
    y = [float(next(e.iter(f"{SVG}rect")).get("y")) for e in (attack, defence)]
    assert y[1] > y[0]  # stacked in the order played


def test_running_scores_are_drawn_in_points_never_half_points():
    view = msgspec.to_builtins(RULESET.view(team_table().state, Viewer.public()))
    view["sides"][0]["score"] = {"convoy": 40, "capture": 13, "round_bonus": 0, "slowness_bonus": 0}  # half-points
    document = RULESET.picture(view, ())
    assert "26.5 pts" in document
    assert "convoys 20 · captures 6.5" in document
    assert not [t for t in texts(ET.fromstring(document)) if "53" in t]


def test_the_convoy_a_step_changed_is_outlined_and_nothing_else():
    root = ET.fromstring(draw(team_table().state, changed=[("convoys", "2", "detected"), ("convoys", "2", "card")]))
    [third] = [e for e in root.iter() if (e.get("aria-label") or "").startswith("Convoy 3,")]
    everywhere = [e for e in root.iter() if e.get("class") == "changed"]
    assert everywhere and everywhere == [e for e in third.iter() if e.get("class") == "changed"]


def test_a_changed_score_and_hand_are_outlined():
    document = draw(team_table().state, changed=[("sides", "1", "score", "capture"), ("players", "3", "hand_size")])
    [bea_side] = labelled(document, "Bea and Damien:")
    [alain_side] = labelled(document, "Alain and Claire:")
    assert outlined(bea_side) and not outlined(alain_side)


def test_a_players_name_is_escaped_wherever_it_appears():
    view = msgspec.to_builtins(RULESET.view(team_table().state, Viewer.public()))
    name = '<script>alert("x")</script>'
    view["players"][0]["name"] = name
    view["sides"][0]["name"] = name
    document = RULESET.picture(view, ())
    assert "<script>" not in document
    root = ET.fromstring(document)
    assert name in [t.text for t in root.iter(f"{SVG}text")]
    assert root.find(f"{SVG}title").text.startswith(f"Milles Nautiques, round 1: {name} against")


def test_random_rounds_draw_at_every_step_and_a_hidden_convoy_is_never_face_up_in_public():
    drawn = 0
    for seed, players, teams in ((3, 2, False), (4, 4, True), (5, 6, False)):
        rng = random.Random(seed)
        table = Table(rng, make_setup(players, teams), known=0.5, hidden=0.4)

        def check(table: Table = table) -> None:
            nonlocal drawn
            state = table.state
            ET.fromstring(draw(state, Viewer.full()))
            root = ET.fromstring(draw(state, Viewer.public()))
            public = RULESET.view(state, Viewer.public())
            for convoy in public["convoys"]:
                if convoy["card"] is None and convoy["status"] != "destroyed":
                    [card] = [
                        e for e in root.iter() if (e.get("aria-label") or "").startswith(f"Convoy {convoy['number']},")
                    ]
                    assert "face down" in texts(card) and not [t for t in texts(card) if t.endswith(" t")]
            drawn += 1

        table.play(check)
    assert drawn > 100
