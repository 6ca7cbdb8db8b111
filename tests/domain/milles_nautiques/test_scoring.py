"""MN-13 to MN-16: the scoring tables cell by cell, in half-points. The expected values are copied from
the seed's table in points (the French rulebook, "Article 11") and doubled here, apart from the implementation."""

from __future__ import annotations

import pytest

from domain.milles_nautiques.scoring import capture_points, convoy_points, distance_band

CONVOYS = ("convoy_2500", "convoy_5000", "convoy_10000", "convoy_20000")
# The seed's table in points: rows are distance bands, columns 2,500 / 5,000 / 10,000 / 20,000 tons.
SEED_TABLE = {
    (0, 0): ("0", "0", "1", "2"),
    (200, 1000): ("0,5", "1", "2", "4"),
    (1200, 2000): ("1", "2", "4", "8"),
    (2200, 3000): ("1,5", "3", "6", "12"),
    (3200, 3800): ("2", "4", "8", "16"),
    (4000, 6000): ("2,5", "5", "10", "20"),
}
SEED_CAPTURE = ("2,5", "5", "10", "20")


def half_points(points: str) -> int:
    """ "2,5" (French decimal comma, points) -> 5 half-points."""
    whole, _, half = points.partition(",")
    return int(whole) * 2 + (1 if half == "5" else 0)


# (card, distance, its table column, the row of the seed's table at that distance)
ROWS = [
    (card, distance, column, values)
    for (low, high), values in SEED_TABLE.items()
    for distance in sorted({low, high})
    for column, card in enumerate(CONVOYS)
]
CELLS = [(card, distance, half_points(values[column])) for card, distance, column, values in ROWS]


@pytest.mark.parametrize(("card", "distance", "expected"), CELLS)
def test_a_convoy_is_worth_its_table_cell(card, distance, expected):
    # MN-13: the cell is the value, not an addition to the 0-mile row.
    assert convoy_points(card, distance, detected=False) == expected


# MN-21: a detected convoy scores as a convoy of twice its tonnage (the next column to the right);
# a detected 20,000 scores twice its own cell.
DETECTED_CELLS = [
    (card, distance, half_points(values[column + 1]) if column < 3 else 2 * half_points(values[column]))
    for card, distance, column, values in ROWS
]


@pytest.mark.parametrize(("card", "distance", "expected"), DETECTED_CELLS)
def test_a_detected_convoy_is_worth_the_cell_of_twice_its_tonnage(card, distance, expected):
    assert convoy_points(card, distance, detected=True) == expected


def test_a_detected_five_thousand_at_zero_miles_counts_as_a_ten_thousand():
    # MN-21, the rulebook's own example under the convoy table (a detected 5,000 counts as a 10,000):
    # 1 point, where doubling its cell (0) would give nothing.
    assert convoy_points("convoy_5000", 0, detected=True) == half_points("1")
    assert convoy_points("convoy_5000", 0, detected=False) == 0


@pytest.mark.parametrize("distance", [0, 200, 1000, 1200, 2000, 2200, 3000, 3200, 3800, 4000, 6000])
def test_the_trawler_is_worth_nothing_at_any_distance(distance):
    assert convoy_points("trawler", distance, detected=False) == 0
    assert convoy_points("trawler", distance, detected=True) == 0


def test_the_distance_bands_split_where_the_table_says():
    bands = [distance_band(d) for d in (0, 200, 1000, 1200, 2000, 2200, 3000, 3200, 3800, 4000, 8000)]
    assert bands == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


@pytest.mark.parametrize(("card", "points"), list(zip(CONVOYS, SEED_CAPTURE, strict=True)))
def test_a_captured_convoy_scores_its_capture_value_doubled_if_detected(card, points):
    assert capture_points(card, detected=False) == half_points(points)
    assert capture_points(card, detected=True) == 2 * half_points(points)


def test_a_captured_trawler_scores_nothing():
    assert capture_points("trawler", detected=False) == capture_points("trawler", detected=True) == 0


def test_a_convoy_the_record_does_not_know_counts_nothing_until_revealed():
    assert convoy_points(None, 4000, detected=False) == 0
    assert capture_points(None, detected=True) == 0
