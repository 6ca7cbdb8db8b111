"""What the pages draw without a browser: scores in the units people read, a view as a readable list
with what changed marked (and nothing unescaped), and the campaign plot's target and deciding game."""

from __future__ import annotations

from domain.ruleset import SeriesStatus
from service.pages.render import campaign_plot, change_lines, change_text, points, state_html
from tests.support.rulesets import RULESETS


def test_half_points_are_read_as_points_and_other_units_as_they_are() -> None:
    assert [points(109, "half_point"), points(108, "half_point"), points(7, "vp"), points(None, "vp")] == [
        "54.5",
        "54",
        "7",
        "—",
    ]


def test_a_view_reads_as_nested_lists_with_the_changed_values_marked_and_escaped() -> None:
    view = {"to_play": 1, "players": [{"name": "<Bea>", "hand_size": 7}], "discard": {}, "scores": [3, 4]}
    html = str(state_html(view, [("players", "0", "hand_size"), ("scores", "1")]))
    assert "&lt;Bea&gt;" in html and "<Bea>" not in html
    assert '<div class="changed"><dt>hand size</dt><dd>7</dd></div>' in html
    assert '3, <mark class="changed">4</mark>' in html
    assert '<dt>discard</dt><dd><span class="none">none</span></dd>' in html
    assert change_text(["players", "0", "hand_size"], "changed", 6, 7) == "players 0 hand size: 6 → 7"


def test_what_changed_reads_in_words_naming_the_items_from_the_view() -> None:
    view = {
        "units": [{"uid": 0, "side": "AXIS", "kind": "infantry", "hex": [3, 4], "figures": 3}],
        "players": [{"seat": 0, "name": "Bea", "hand_size": 7}],
        "convoys": [{"number": 5, "status": "at_sea"}],
        "discard": ["attack_centre"],
        "last_move": [],
        "orders": [],
        "active": "ALLIES",
    }
    changes = [
        (("units", 0, "figures"), "changed", 4, 3),
        (("units", 0, "hex", 0), "changed", 2, 3),  # a hex's row and column are one line
        (("units", 0, "hex", 1), "changed", 5, 4),
        (("players", 0, "hand_size"), "changed", 6, 7),
        (("convoys", 0, "status"), "changed", "sailing", "at_sea"),
        (("discard", 0), "added", None, "attack_centre"),
        (("last_move", 0), "removed", [2, 5], None),
        (("orders", 0), "removed", {"uid": 0, "moved": 1}, None),
        (("active",), "changed", "AXIS", "ALLIES"),
        (("last_move",), "changed", ["H4"], ["J6"]),
    ]
    assert change_lines(view, changes) == [
        "unit 1 (Axis infantry) figures: 4 → 3",
        "unit 1 (Axis infantry) hex: now 3, 4",
        "player 1 (Bea) hand size: 6 → 7",
        "convoy 5 status: sailing → at sea",
        "discard: attack centre added",
        "last move: 2, 5 removed",
        "order 1: removed",
        "active: Axis → Allies",
        "last move: H4 → J6",
    ]
    # In the game's own words where it has some: Mémoire 44 names a hex as the board does.
    words = RULESETS.get("memoire-44").value_words
    assert change_lines(view, changes[1:3], words) == ["unit 1 (Axis infantry) hex: now C4"]
    moved = [(("last_move", 1), "added", None, [4, 6]), (("units", 0, "figures"), "changed", 4, 3)]
    assert change_lines({**view, "last_move": [[3, 4], [4, 6]]}, moved, words) == [
        "last move: D5 added",
        "unit 1 (Axis infantry) figures: 4 → 3",
    ]
    assert change_lines(view, [(("last_battle",), "changed", None, [3, 4])], words) == ["last battle: — → C4"]


def test_the_campaign_plot_draws_the_target_and_marks_the_game_that_decided_it() -> None:
    steps = [
        ("g1", SeriesStatus(totals={"ann": 40, "bob": 30}, finished=False, target=75)),
        ("g2", SeriesStatus(totals={"ann": 80, "bob": 50}, finished=True, winners=("ann",), target=75)),
    ]
    svg = str(campaign_plot(steps, {"ann": "Ann", "bob": "Bob"}, "vp", 75))
    assert svg.count("<polyline") == 2 and 'class="target"' in svg and "target 75" in svg
    # The deciding line stands at game 2, the last x position (left margin 48, width 640, right 16).
    assert '<line x1="624.0" y1="16" x2="624.0" y2="260" class="decisive"/>' in svg
    assert "Ann: 80 after game 2" in svg
    undecided = str(campaign_plot(steps[:1], {"ann": "Ann", "bob": "Bob"}, "vp", None))
    assert 'class="decisive"' not in undecided and 'class="target"' not in undecided
