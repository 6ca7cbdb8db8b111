"""Hex geometry on the doubled-column board (M44-1), line of sight (M44-4), sections (M44-1)."""

from domain.memoire44.board import Board, distance, hex_name, sight_line
from domain.memoire44.events import Battle, CardPlayed, UnitsOrdered
from domain.memoire44.rules.base import in_sight

from .tables import ALLIES, hexagon, table

EMPTY = Board("STANDARD", {}, frozenset())


def test_the_standard_board_has_nine_rows_of_thirteen_and_twelve_hexes():
    # M44-1
    assert len(EMPTY.hexes) == 5 * 13 + 4 * 12
    assert (0, 24) in EMPTY.hexes and (1, 23) in EMPTY.hexes and (1, 24) not in EMPTY.hexes


def test_a_hex_in_the_middle_has_six_neighbours_and_a_corner_two():
    assert sorted(EMPTY.neighbours((4, 12))) == [(3, 11), (3, 13), (4, 10), (4, 14), (5, 11), (5, 13)]
    assert sorted(EMPTY.neighbours((0, 0))) == [(0, 2), (1, 1)]


def test_distance_counts_hexes_on_the_doubled_grid():
    assert distance((4, 12), (4, 12)) == 0
    assert distance((4, 12), (3, 13)) == 1
    assert distance((4, 12), (4, 16)) == 2
    assert distance((0, 0), (8, 0)) == 8  # straight down zig-zagging rows
    assert distance((0, 0), (2, 4)) == 3
    assert distance((0, 0), (0, 24)) == 12


def test_hexes_are_named_by_column_letter_and_row_number():
    assert hex_name((0, 0)) == "A1"
    assert hex_name((3, 13)) == "G4"


def test_a_line_through_hex_centres_crosses_the_hexes_between():
    assert sight_line((4, 4), (4, 10)) == [((4, 6), (4, 6)), ((4, 8), (4, 8))]


def test_a_line_along_hex_edges_gives_the_two_hexes_on_either_side():
    assert sight_line((2, 4), (4, 4)) == [((3, 5), (3, 3))] or sight_line((2, 4), (4, 4)) == [((3, 3), (3, 5))]


def _battle_sight(hexagons, target=(4, 12)):
    game = table([hexagon(4, 4, unit="infus"), *hexagons, hexagon(*target, unit="infger")], allies=("direct_from_hq",))
    return game.state


def test_a_forest_between_blocks_line_of_sight_but_a_forest_target_does_not():
    # M44-4: the terrain of the hexes between blocks; the target's own hex never does.
    state = _battle_sight([hexagon(4, 8, "woods")])
    assert not in_sight(state, (4, 4), (4, 12))
    state = _battle_sight([hexagon(4, 10, "woods")], target=(4, 10))
    assert in_sight(state, (4, 4), (4, 10))


def test_a_unit_between_blocks_line_of_sight():
    state = _battle_sight([hexagon(4, 8, unit="infus")])
    assert not in_sight(state, (4, 4), (4, 12))


def test_a_line_along_edges_is_blocked_only_when_both_sides_are():
    # Seed: "si longe un ou des bords, bloquée si obstruée des deux côtés".
    one_side = _battle_sight([hexagon(3, 5, "woods")], target=(2, 4))
    assert in_sight(one_side, (4, 4), (2, 4))
    both = _battle_sight([hexagon(3, 5, "woods"), hexagon(3, 3, "buildings")], target=(2, 4))
    assert not in_sight(both, (4, 4), (2, 4))


def test_a_hill_blocks_sight_except_between_hexes_of_the_same_hill():
    # M44-4
    crossing = _battle_sight([hexagon(4, 8, "hills")])
    assert not in_sight(crossing, (4, 4), (4, 12))
    on_hill = _battle_sight(
        [hexagon(4, 4, "hills"), hexagon(4, 6, "hills"), hexagon(4, 8, "hills"), hexagon(4, 10, "hills")],
        target=(4, 10),
    )
    assert in_sight(on_hill, (4, 4), (4, 10))


def test_a_battle_without_line_of_sight_is_refused():
    game = table(
        [hexagon(4, 6, unit="infus"), hexagon(4, 8, "woods"), hexagon(4, 10, unit="infger")], allies=("direct_from_hq",)
    )
    game.accept(CardPlayed(seat=ALLIES, card="direct_from_hq"), UnitsOrdered(seat=ALLIES, units=(0,)))
    error = game.refused(Battle(seat=ALLIES, unit=0, target=(4, 10), dice=2, faces=("flag", "flag")))
    assert error.rule_id == "M44-4"
    assert "line of sight" in error.message


def test_a_hex_cut_by_a_section_line_is_in_both_sections_seen_from_each_side():
    # M44-1: the lines cut the hexes of column 8 and 16 on the 13-hex rows; each side sees its own left.
    assert EMPTY.sections((0, 8), camp=1) == ("left", "centre")
    assert EMPTY.sections((1, 7), camp=1) == ("left",)
    assert EMPTY.sections((1, 9), camp=1) == ("centre",)
    assert EMPTY.sections((0, 8), camp=0) == ("centre", "right")
    assert EMPTY.sections((0, 0), camp=0) == ("right",)
    assert EMPTY.sections((8, 24), camp=1) == ("right",)
