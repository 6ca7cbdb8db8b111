"""What the pages draw without a browser: scores in the units people read, a view as a readable list
with what changed marked (and nothing unescaped), and the campaign plot's target and deciding game."""

from __future__ import annotations

from domain.ruleset import SeriesStatus
from service.i18n import Translator
from service.pages.render import (
    RatingMark,
    campaign_plot,
    change_lines,
    change_text,
    points,
    rating_plot,
    state_html,
)
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
    # Drawn for a phone and for a wider screen, each with both lines, the target and the deciding game.
    assert svg.count("<svg") == 2 and 'class="plot plot-narrow"' in svg and 'class="plot plot-wide"' in svg
    assert svg.count("<polyline") == 4 and svg.count('class="target"') == 2 and "target 75" in svg
    # The deciding line stands at game 2, the last x position (left margin 52, right 16), its label to
    # its left so that it stays inside the picture.
    assert '<line x1="624.0" y1="16" x2="624.0" y2="260" class="decisive"/>' in svg
    assert '<line x1="324.0" y1="16" x2="324.0" y2="260" class="decisive"/>' in svg
    assert '<text x="620.0" y="40" class="decisive-label" text-anchor="end">decided</text>' in svg
    assert "Ann: 80 after game 2" in svg
    undecided = str(campaign_plot(steps[:1], {"ann": "Ann", "bob": "Bob"}, "vp", None))
    assert 'class="decisive"' not in undecided and 'class="target"' not in undecided
    french = str(campaign_plot(steps, {"ann": "Ann", "bob": "Bob"}, "vp", 75, Translator("fr")))
    assert "objectif 75" in french and ">partie<" in french and "décidée" in french


def test_the_rating_plot_draws_the_rating_with_its_band_and_each_date_once() -> None:
    marks = [
        RatingMark(when="Nov 25", rating=1450.0, spread=480.0, said="Ann: 1,450 ± 480"),
        RatingMark(when="Nov 25", rating=1520.0, spread=430.0, said="Ann: 1,520 ± 430"),
        RatingMark(when="Nov 30", rating=1610.0, spread=400.0, said="Ann: 1,610 ± 400"),
    ]
    svg = str(rating_plot(marks, "Ann"))
    assert svg.count("<polyline") == 2 and svg.count('class="spread"') == 2
    assert svg.count("<circle") == 6 and "<title>Ann: 1,610 ± 400</title>" in svg
    narrow = svg[: svg.index("</svg>")]
    assert narrow.count(">Nov 25<") == 1 and narrow.count(">Nov 30<") == 1  # one evening's games: one date
    assert ">1,000<" in narrow and ">2,000<" in narrow  # the axis in round steps, as the reader writes numbers
