"""The battlefield drawn as SVG from a view, on the recorded Hedgerow Lane game: the board is public,
hands are counts (G-2)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import msgspec
import pytest

from domain.memoire44 import RULESET
from domain.memoire44.battlefield import objective_holder
from domain.memoire44.board import hex_name
from domain.memoire44.catalogue import CARDS
from domain.record import decoder, fold, start
from domain.ruleset import Viewer
from projections.diff import diff
from tests.domain.memoire44.harness import RandomTable, read_record, setup_for, state_after

SVG = "{http://www.w3.org/2000/svg}"
RECORD = Path(__file__).parent / "fixtures" / "hedgerow_lane_axis_medal_victory.jsonl"


@pytest.fixture(scope="module")
def events():
    read = decoder(RULESET)
    return [read.decode(line) for line in RECORD.read_bytes().splitlines()]


def view_at(events, step: int, viewer: Viewer | None = None):
    return RULESET.view(fold(RULESET, events[:step]).state, viewer or Viewer.public())


def changes(events, step: int) -> list[tuple[str, ...]]:
    return [tuple(str(p) for p in c.path) for c in diff(view_at(events, step - 1), view_at(events, step))]


def labelled(root: ET.Element, start: str) -> list[ET.Element]:
    return [e for e in root.iter() if (e.get("aria-label") or "").startswith(start)]


def test_the_board_has_one_hex_element_per_board_hex_with_its_terrain(events):
    root = ET.fromstring(RULESET.picture(view_at(events, 30), ()))
    hexes = [e for e in root.iter(f"{SVG}path") if e.get("class") == "hex"]
    assert len(hexes) == 5 * 13 + 4 * 12  # M44-1: nine rows of 13 and 12 hexes
    terrain = {e.get("aria-label") for e in hexes if e.get("aria-label")}
    assert {"C4 hill", "E4 hedgerow", "G5 town", "D5 forest"} <= terrain


def test_a_unit_is_drawn_on_its_hex_with_its_figures_and_side(events):
    view = msgspec.to_builtins(view_at(events, 30))
    unit = view["units"][0]
    unit["figures"] = 2
    name = hex_name(tuple(unit["hex"]))
    root = ET.fromstring(RULESET.picture(view, ()))
    [token] = labelled(root, f"{name}: Axis {unit['kind']}")
    assert token.get("aria-label") == f"{name}: Axis {unit['kind']}, 2 figures"
    assert [t.text for t in token.iter(f"{SVG}text")] == ["2"]


def test_objectives_and_obstacles_are_marked(events):
    root = ET.fromstring(RULESET.picture(view_at(events, 30), ()))
    assert [e.get("aria-label") for e in labelled(root, "G5: medal objective")] == [
        "G5: medal objective, temporary for Axis, temporary for Allies"
    ]
    assert labelled(root, "I5: sandbags")


def test_medals_and_hands_are_drawn_as_counts_and_no_hidden_card_is_named(events):
    # Step 30: the record knows the Axis hold Probe Centre and Recon 1 Left, the Allies Recon 1 Centre.
    full = view_at(events, 30, Viewer.full())
    held = {CARDS[c].name for hand in full["hands"] for c in hand["known"]}
    assert held == {"Probe Centre", "Recon 1 Left", "Recon 1 Centre"}
    document = RULESET.picture(view_at(events, 30), ())
    assert not [name for name in held if name in document]
    root = ET.fromstring(document)
    assert labelled(root, "Axis, Alain: 0 of 4 medals · 3 cards in hand, playing Behind Enemy Lines, to play")
    assert labelled(root, "Allies, Bea: 0 of 4 medals · 4 cards in hand")


def test_the_unit_a_battle_hit_is_outlined_and_the_target_that_must_retreat_is_marked(events):
    # Step 13: a battle takes a figure from unit 10; step 15: a battle leaves a retreat to report.
    root = ET.fromstring(RULESET.picture(view_at(events, 13), changes(events, 13)))
    [hit] = [e for e in root.iter() if (e.get("aria-label") or "").endswith(", hit")]
    assert [c.get("class") for c in hit if c.tag != f"{SVG}text"] == ["changed"]
    assert len([e for e in root.iter() if e.get("class") == "changed"]) == 1
    view = view_at(events, 15)
    target = hex_name(tuple(view["pending"]["hex"]))
    root = ET.fromstring(RULESET.picture(view, changes(events, 15)))
    assert labelled(root, f"Battle target at {target}: must retreat")


def test_a_unit_that_moved_is_outlined(events):
    step = 12  # the first UnitMoved of the record
    paths = changes(events, step)
    [moved] = {int(p[1]) for p in paths if p[0] == "units" and p[2] == "hex"}
    view = view_at(events, step)
    unit = view["units"][moved]
    root = ET.fromstring(RULESET.picture(view, paths))
    [token] = labelled(root, f"{hex_name(tuple(unit['hex']))}: ")
    assert token.get("aria-label").endswith(", moved")
    assert [c.get("class") for c in token if c.tag != f"{SVG}text"] == ["changed"]


def test_a_players_name_is_escaped(events):
    view = msgspec.to_builtins(view_at(events, 30))
    view["sides"][0]["player"] = "<script>x</script>"
    document = RULESET.picture(view, ())
    assert "<script>" not in document
    assert "Axis · <script>x</script>  (to play)" in [t.text for t in ET.fromstring(document).iter(f"{SVG}text")]


def test_random_games_draw_at_every_step_and_the_public_picture_names_only_the_card_in_play():
    drawn = 0
    for seed, scenario in ((11, "hedgerow_lane"), (12, "vernay_crossroads")):
        table = RandomTable(random.Random(seed), setup_for(scenario))
        table.play()
        folded = start(RULESET, table.events[0])
        before = RULESET.view(folded.state, Viewer.public())
        for event in table.events[1:]:
            folded = folded.apply(event)
            public = RULESET.view(folded.state, Viewer.public())
            paths = [tuple(str(p) for p in c.path) for c in diff(before, public)]
            document = RULESET.picture(public, paths)
            root = ET.fromstring(document)
            assert len([e for e in root.iter(f"{SVG}path") if e.get("class") == "hex"]) == 113
            full = RULESET.view(folded.state, Viewer.full())
            ET.fromstring(RULESET.picture(full, paths))
            held = {CARDS[c].name for hand in full["hands"] for c in hand["known"]} - {
                CARDS[public["card"]].name if public["card"] else ""
            }
            assert not [name for name in held if name in document]
            before = public
            drawn += 1
    assert drawn > 100


def test_the_turns_last_move_and_battle_are_drawn_until_the_next_card(events):
    # Issue 11: "the last move's path and battle target marked", read from the view.
    from domain.memoire44.events import Battle, CardPlayed, UnitMoved

    moved = next(i for i, e in enumerate(events) if isinstance(e, UnitMoved) and i + 1 < len(events))
    move = events[moved]
    start_hex = fold(RULESET, events[:moved]).state.units[move.unit].hex
    view = view_at(events, moved + 1)
    assert view["last_move"] == [list(start_hex), *(list(h) for h in move.path)]
    root = ET.fromstring(RULESET.picture(view, ()))
    (line,) = labelled(root, "Last move: ")
    assert line.get("aria-label").startswith(f"Last move: {hex_name(start_hex)} to {hex_name(move.path[0])}")
    assert line.find(f"{SVG}polyline") is not None

    fought = next(i for i, e in enumerate(events) if isinstance(e, Battle))
    view = view_at(events, fought + 1)
    assert view["last_battle"] == list(events[fought].target)
    assert labelled(ET.fromstring(RULESET.picture(view, ())), "")  # parses
    assert f"Last battle at {hex_name(events[fought].target)}" in RULESET.picture(view, ())

    played = next(i for i, e in enumerate(events) if isinstance(e, CardPlayed) and i > fought)
    view = view_at(events, played + 1)
    assert view["last_move"] == [] and view["last_battle"] is None
    assert "Last move" not in RULESET.picture(view, ()) and "<polyline" not in RULESET.picture(view, ())


def test_a_team_table_shows_who_commands_each_section_and_never_the_cards_handed_out():
    from tests.domain.memoire44.harness import read_record, state_after

    record = read_record("meuse_line_overlord_six.jsonl")
    state = state_after(record, 12)  # the Axis commander has just handed out two cards (M44-OV-3)
    svg = RULESET.picture(RULESET.view(state, Viewer.public()), ())
    ET.fromstring(svg)
    assert "Alain commander; Bea left; Chloe centre+right" in svg  # M44-OV-2
    assert "Denis commander+centre; Emma left; Fred right" in svg
    assert "Medics" not in svg and "Infantry Assault" not in svg  # given, not yet played (G-2)


# ---------------------------------------------------------------- conditions, control, reserve (issue 14)
def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_the_night_light_and_the_weather_are_a_banner_named_in_the_legend(events):
    state = RULESET.initial(setup_for("hedgerow_lane", options={"night_visibility_rules": True, "weather": "fog"}))
    view = RULESET.view(state, Viewer.public())
    root = ET.fromstring(RULESET.picture(view, ()))
    [banner] = labelled(root, "Conditions of play")
    lines = [g.get("aria-label") for g in banner.findall(f"{SVG}g")]
    assert lines == [
        "Night: light 1 of 6, battles at most 1 hex away",  # M44-NT-1: the light starts at level 1
        "Fog: units battle only an enemy next to them",  # M44-WX-2
    ]
    assert {"night light", "fog"} <= set(texts(root))
    assert "Night: light 1 of 6" in root.get("aria-label", "")  # the picture's own text alternative says it
    assert not [e for e in banner.iter() if e.get("class") == "changed"]
    # The light rises (M44-NT-1): the banner follows and is outlined as changed; full daylight is said.
    view = msgspec.to_builtins(view) | {"visibility": 3}
    root = ET.fromstring(RULESET.picture(view, [("visibility",)]))
    [banner] = labelled(root, "Conditions of play")
    assert labelled(banner, "Night: light 3 of 6, battles at most 3 hexes away")
    assert [e.tag for e in banner.iter() if e.get("class") == "changed"] == [f"{SVG}rect"]
    root = ET.fromstring(RULESET.picture(view | {"visibility": 6}, ()))
    assert labelled(root, "Night attacks: full daylight (light 6 of 6)")
    # A game without night or weather draws no banner and names neither in its legend.
    plain = ET.fromstring(RULESET.picture(view_at(events, 30), ()))
    assert not labelled(plain, "Conditions of play") and not {"night light", "fog", "snow"} & set(texts(plain))


def test_snow_and_the_desert_rules_are_said_in_words():
    state = RULESET.initial(setup_for("hedgerow_lane", options={"weather": "snow"}))
    root = ET.fromstring(RULESET.picture(RULESET.view(state, Viewer.public()), ()))
    assert labelled(root, "Snow: moves at most 2 hexes; battles only adjacent")  # M44-WX-1, M44-WX-2
    assert not labelled(root, "Night")
    desert = read_record("sidi_ghazal_expansions_axis_victory.jsonl")
    root = ET.fromstring(RULESET.picture(RULESET.view(state_after(desert, 1), Viewer.public()), ()))
    assert labelled(root, "Desert rules: armour may overrun one more hex")  # M44-NA-1
    assert "desert rules" in texts(root)


def flags(root: ET.Element) -> dict[str, str]:
    """Hex name -> the words of the control marker drawn there."""
    layers = labelled(root, "Control markers")
    assert len(layers) <= 1
    return {
        g.get("aria-label").split(":")[0]: g.get("aria-label") for layer in layers for g in layer.findall(f"{SVG}g")
    }


def test_a_village_shows_a_control_marker_of_the_side_holding_it_and_it_changes_hands():
    # Sidi Ghazal: the Axis hold the village at the start; Allied armour takes it at step 101 (M44-DD-1).
    record = read_record("sidi_ghazal_expansions_axis_victory.jsonl")
    before, after = state_after(record, 100), state_after(record, 101)
    [village] = [i for i, o in enumerate(before.objectives) if o.kind == "village"]
    names = [hex_name(h) for h in before.objectives[village].hexes]
    assert (objective_holder(before, village), objective_holder(after, village)) == (0, 1)
    assert before.sides == ("AXIS", "ALLIES")
    root = ET.fromstring(RULESET.picture(RULESET.view(before, Viewer.public()), ()))
    assert flags(root) == {name: f"{name}: village controlled by Axis" for name in names}
    assert "Axis control" in texts(root) and "Allies control" not in texts(root)
    [medal] = labelled(root, f"{names[0]}: medal objective")
    assert "village held by Axis" in medal.get("aria-label")
    root = ET.fromstring(RULESET.picture(RULESET.view(after, Viewer.public()), ()))
    assert flags(root) == {name: f"{name}: village controlled by Allies" for name in names}
    assert "Allies control" in texts(root) and "Axis control" not in texts(root)


def test_beaches_and_bridges_carry_a_marker_only_while_a_side_controls_them(dday_events):
    # M44-DD-2, M44-DD-3: every controlled objective hex has its side's flag, and no other hex has one.
    seen = set()
    for step in (0, 12, 120, 185, 186, 250):
        state = state_after(dday_events, step)
        expected = {}
        for index, objective in enumerate(state.objectives):
            holder = objective_holder(state, index)
            if objective.kind in ("village", "beach", "bridge") and holder is not None:
                side = state.sides[holder].title()
                expected |= {
                    hex_name(h): f"{hex_name(h)}: {objective.kind} controlled by {side}" for h in objective.hexes
                }
                seen.add((objective.kind, side))
        root = ET.fromstring(RULESET.picture(RULESET.view(state, Viewer.public()), ()))
        assert flags(root) == expected, step
    assert {("beach", "Allies"), ("village", "Axis")} <= seen  # the steps chosen show both kinds of marker
    plain = ET.fromstring(RULESET.picture(view_at(read_record("hedgerow_lane_axis_medal_victory.jsonl"), 30), ()))
    assert flags(plain) == {} and not [t for t in texts(plain) if t.endswith(" control")]


@pytest.fixture(scope="module")
def dday_events():
    return read_record("pointe_du_verrier_dday.jsonl")


def test_the_dday_reserve_and_the_units_to_place_are_written_under_the_board(dday_events):
    state = state_after(dday_events, 11)  # the Allies' first roll brought four units, none placed yet
    assert state.reinforcements == ("infantry", "armour", "infantry", "infantry")
    root = ET.fromstring(RULESET.picture(RULESET.view(state, Viewer.public()), ()))
    [reserve] = labelled(root, "D-Day reserve")
    assert [g.get("aria-label") for g in reserve.findall(f"{SVG}g")] == [
        "Axis reserve: 8 infantry, 3 armour, 2 artillery",
        "Allies reserve: 16 infantry, 6 armour, 2 artillery",
        "Allies to place now: 3 infantry, 1 armour",
    ]
    # Written whole: counted, a roll of six fits the line (listed unit by unit, it was cut short).
    six = msgspec.structs.replace(
        state, reinforcements=("artillery", "infantry", "armour", "artillery", "armour", "infantry")
    )
    [reserve] = labelled(ET.fromstring(RULESET.picture(RULESET.view(six, Viewer.public()), ())), "D-Day reserve")
    [line] = [t.text for t in reserve.iter(f"{SVG}text") if "to place now" in (t.text or "")]
    assert line == "Allies to place now: 2 infantry, 2 armour, 2 artillery"
    state = state_after(dday_events, 15)  # three placed from the reserve (M44-DD-8)
    root = ET.fromstring(RULESET.picture(RULESET.view(state, Viewer.public()), ()))
    assert labelled(root, "Allies reserve: 8 infantry, 3 armour, 2 artillery")
    plain = ET.fromstring(RULESET.picture(view_at(read_record("hedgerow_lane_axis_medal_victory.jsonl"), 30), ()))
    assert not labelled(plain, "D-Day reserve") and not [t for t in texts(plain) if "reserve" in t]


def test_the_legend_names_planes_and_ammunition_markers_when_they_are_drawn():
    record = read_record("pointe_du_verrier_air_axis_victory.jsonl")
    step = next(n for n in range(1, len(record)) if (s := state_after(record, n)).air and s.air.markers)
    state = state_after(record, step)
    root = ET.fromstring(RULESET.picture(RULESET.view(state, Viewer.public()), ()))
    flying = {state.sides[p.camp].title() for p in state.air.planes if p.hex is not None}
    assert flying and {f"{side} plane" for side in flying} | {"ammunition"} <= set(texts(root))
    markers = [f"{hex_name(tuple(h))}: ammunition marker" for h in state.air.markers]
    assert [w for e in root.iter() if (w := e.get("aria-label") or "").endswith("ammunition marker")] == markers
    plain = ET.fromstring(RULESET.picture(view_at(read_record("hedgerow_lane_axis_medal_victory.jsonl"), 30), ()))
    assert not [t for t in texts(plain) if t.endswith(" plane") or t == "ammunition"]


def test_the_public_picture_of_a_dday_game_is_the_records_picture(dday_events):
    # Everything the picture draws is public (G-2): the record's view adds only cards, never drawn.
    for step in range(0, len(dday_events), 37):
        state = state_after(dday_events, step)
        public = RULESET.picture(RULESET.view(state, Viewer.public()), ())
        assert public == RULESET.picture(RULESET.view(state, Viewer.full()), ()), step
