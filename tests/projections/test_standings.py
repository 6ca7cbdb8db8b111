"""League standings: hand-computed tables, every tie-break level, explanations, dates."""

from __future__ import annotations

import random
from datetime import date

import msgspec
import pytest

from projections.errors import ProjectionError
from projections.standings import CRITERIA, League, Scoring, Standings, standings
from tests.projections.leagues import at, duel, game, league

# Two-player games, 3/1/0; zed and yan are guests (not members).
DUELS = [
    duel("g1", 1, "ana", "bob", "W"),
    duel("g2", 2, "ana", "eve", "W"),
    duel("g3", 3, "bob", "cy", "W"),
    duel("g4", 4, "bob", "fay", "W"),
    duel("g5", 5, "cy", "dee", "D"),
    duel("g6", 6, "cy", "eve", "W"),
    duel("g7", 7, "dee", "zed", "W"),
    duel("g8", 8, "eve", "zed", "W"),
    duel("g9", 9, "fay", "zed", "D"),
    duel("g10", 10, "fay", "zed", "D"),
    duel("g11", 11, "fay", "zed", "D"),
    duel("g12", 12, "zed", "yan", "W"),
    duel("g13", 13, "gus", "yan", "D"),
    duel("g14", 14, "gus", "zed", "L"),
    duel("g15", 15, "hal", "yan", "D"),
]
DUEL_MEMBERS = ("ana", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")
DUEL_LEAGUE = league(
    DUEL_MEMBERS, Scoring(win_draw_loss=(3, 1, 0)), ("points", "head_to_head", "wins", "sonneborn_berger", "buchholz")
)


def _table(table: Standings) -> list[tuple[int, str, int]]:
    return [(row.rank, row.player_id, row.points) for row in table.rows]


def _why(table: Standings) -> list[tuple[str, str, str, int | None, int | None]]:
    return [(s.upper, s.lower, s.criterion, s.upper_value, s.lower_value) for s in table.separations]


def test_a_two_player_league_breaks_ties_at_every_level_of_its_chain_and_explains_each_pair():
    """Points (3/1/0): ana W bob, W eve = 6; bob L ana, W cy, W fay = 6; cy L bob, D dee, W eve = 4;
    dee D cy, W zed = 4; eve L ana, L cy, W zed = 3; fay L bob, D zed x3 = 3; gus D yan, L zed = 1;
    hal D yan = 1; ivy, jo no games = 0. Guests: zed L dee, L eve, D fay x3, W yan, W gus = 9;
    yan L zed, D gus, D hal = 2.

    - ana / bob (6): head-to-head among them, ana beat bob: 2 half-points to 0.
    - dee / cy (4): they drew (head-to-head 1 to 1), one win each; Sonneborn-Berger in half-points:
      dee = draw cy 1x4 + win zed 2x9 = 22, cy = loss bob 0 + draw dee 1x4 + win eve 2x3 = 10.
    - eve / fay (3): never met (head-to-head 0 to 0); wins 1 to 0.
    - gus / hal (1): never met, no wins; SB gus = draw yan 1x2 = 2, hal = draw yan 1x2 = 2;
      Buchholz gus = yan 2 + zed 9 = 11, hal = yan 2.
    - ivy / jo: nothing separates them: they share rank 9.
    """
    table = standings(DUEL_LEAGUE, DUELS, names={"ivy": "Ivy", "jo": "Jo"})
    assert _table(table) == [
        (1, "ana", 6),
        (2, "bob", 6),
        (3, "dee", 4),
        (4, "cy", 4),
        (5, "eve", 3),
        (6, "fay", 3),
        (7, "gus", 1),
        (8, "hal", 1),
        (9, "ivy", 0),
        (9, "jo", 0),
    ]
    assert _why(table) == [
        ("ana", "bob", "head_to_head", 2, 0),
        ("bob", "dee", "points", 6, 4),
        ("dee", "cy", "sonneborn_berger", 22, 10),
        ("cy", "eve", "points", 4, 3),
        ("eve", "fay", "wins", 1, 0),
        ("fay", "gus", "points", 3, 1),
        ("gus", "hal", "buchholz", 11, 2),
        ("hal", "ivy", "points", 1, 0),
        ("ivy", "jo", "tied", None, None),
    ]
    # Explanations read in the league's points: Sonneborn–Berger 22 and 10 exact half-results are 11 and 5.
    assert table.separations[2].text == "Dee is above Cy on Sonneborn–Berger (11 to 5)."
    assert table.separations[0].text == "Ana is above Bob on head-to-head (1 to 0)."
    assert table.separations[-1].text == "Ivy and Jo are tied."
    rows = {row.player_id: row for row in table.rows}
    assert (rows["fay"].played, rows["fay"].wins, rows["fay"].draws, rows["fay"].losses) == (4, 0, 3, 1)
    # Head-to-head is computed only among the tied: ana was alone with bob.
    assert rows["ana"].tie_breaks["head_to_head"] == 2
    # Guests count for the others' tie-breaks but get no row.
    assert "zed" not in rows


def test_head_to_head_is_counted_among_the_tied_players_only():
    """ana, bob, cy all 3/1/0 on 3 points: ana W bob, bob W cy, cy W ana (a cycle), and cy also lost
    to the guest zed (still 3 points). Head-to-head among the three: 2 each, tied; the chain then
    falls to Buchholz: ana = bob 3 + cy 3 = 6, bob = ana 3 + cy 3 = 6, cy = bob 3 + ana 3 + zed 3 = 9."""
    games = [
        duel("a", 1, "ana", "bob", "W"),
        duel("b", 2, "bob", "cy", "W"),
        duel("c", 3, "cy", "ana", "W"),
        duel("d", 4, "zed", "cy", "W"),
    ]
    table = standings(
        league(("ana", "bob", "cy"), Scoring(win_draw_loss=(3, 1, 0)), ("points", "head_to_head", "buchholz")), games
    )
    assert _table(table) == [(1, "cy", 3), (2, "ana", 3), (2, "bob", 3)]
    assert _why(table) == [("cy", "ana", "buchholz", 9, 6), ("ana", "bob", "tied", None, None)]
    assert [row.tie_breaks["head_to_head"] for row in table.rows] == [2, 2, 2]


# Three-player games, placement points 5/3/1; hal and ivy are guests.
MULTI = [
    game("m1", at(2), ("ana", 1, 30), ("bob", 2, 20), ("cy", 3, 10)),
    game("m2", at(3), ("dee", 1, 40), ("ana", 2, 20), ("bob", 2, 20)),
    game("m3", at(5), ("cy", None, 0), ("dee", None, 0), ("bob", None, 0), void=True),
    game("m4", at(9), ("cy", 1, 12), ("dee", 2, 11), ("bob", 3, 4)),
    game("m5", at(10), ("hal", 1, 20), ("eve", 2, 15), ("ivy", 3, 5)),
    game("m6", at(11), ("hal", 1, 16), ("fay", 2, 14), ("ivy", 3, 1)),
    game("m7", at(12), ("hal", 1, 30), ("jo", 2, 20), ("ivy", 3, 10)),
    game("m8", at(13), ("hal", 1, 28), ("kim", 2, 24), ("ivy", 3, 20)),
]
MULTI_LEAGUE = league(
    ("ana", "bob", "cy", "dee", "eve", "fay", "jo", "kim"),
    Scoring(placement_points={1: 5, 2: 3, 3: 1}),
    ("points", "games_played", "score_difference", "score"),
)


def test_a_multiplayer_league_counts_placements_shared_places_and_a_void_game():
    """Points 5/3/1 per placement: ana m1 1st 5 + m2 shared 2nd 3 = 8; dee m2 1st 5 + m3 void 0 +
    m4 2nd 3 = 8; bob m1 2nd 3 + m2 shared 2nd 3 + m3 void + m4 3rd 1 = 7; cy m1 3rd 1 + m3 void +
    m4 1st 5 = 6; eve, fay, jo, kim one 2nd place each = 3.

    - ana / dee (8): games played, fewer first: ana 2, dee 3 (the void game counts as played).
    - fay / eve / kim / jo (3, one game each): score difference = own minus each opponent:
      fay (14-16)+(14-1) = 11, eve (15-20)+(15-5) = 5, kim (24-28)+(24-20) = 0, jo (20-30)+(20-10) = 0;
      then score: kim 24, jo 20.
    """
    table = standings(MULTI_LEAGUE, MULTI)
    assert _table(table) == [
        (1, "ana", 8),
        (2, "dee", 8),
        (3, "bob", 7),
        (4, "cy", 6),
        (5, "fay", 3),
        (6, "eve", 3),
        (7, "kim", 3),
        (8, "jo", 3),
    ]
    assert _why(table) == [
        ("ana", "dee", "games_played", 2, 3),
        ("dee", "bob", "points", 8, 7),
        ("bob", "cy", "points", 7, 6),
        ("cy", "fay", "points", 6, 3),
        ("fay", "eve", "score_difference", 11, 5),
        ("eve", "kim", "score_difference", 5, 0),
        ("kim", "jo", "score", 24, 20),
    ]
    assert table.separations[0].text == "Ana is above Dee on games played, fewer first (2 to 3)."
    rows = {row.player_id: row for row in table.rows}
    # bob: m1 (20-30)+(20-10) = 0, m2 (20-40)+(20-20) = -20, m3 void, m4 (4-12)+(4-11) = -15.
    assert rows["bob"].score_difference == -35
    # The void game is played but neither won, drawn nor lost.
    assert (rows["bob"].played, rows["bob"].wins, rows["bob"].draws, rows["bob"].losses) == (4, 0, 0, 3)
    void_line = next(line for line in table.games if line.game_id == "m3")
    assert void_line.counted and {e.points for e in void_line.entries} == {0}
    assert {e.outcome for e in void_line.entries} == {"void"}


def test_standings_as_of_a_date_count_only_games_finished_on_or_before_it():
    """As of 9 March: m1-m4 (m4 finished on the 9th). ana 8, dee 8, bob 7, cy 6, the rest 0.
    As of 8 March: m4 not yet; dee 5, cy 1, bob 6."""
    by_day = standings(MULTI_LEAGUE, MULTI, as_of=date(2026, 3, 9))
    assert [line.game_id for line in by_day.games] == ["m1", "m2", "m3", "m4"]
    points = {row.player_id: row.points for row in by_day.rows}
    assert points == {"ana": 8, "dee": 8, "bob": 7, "cy": 6, "eve": 0, "fay": 0, "jo": 0, "kim": 0}
    earlier = standings(MULTI_LEAGUE, MULTI, as_of=date(2026, 3, 8))
    points = {row.player_id: row.points for row in earlier.rows}
    assert (points["ana"], points["dee"], points["bob"], points["cy"]) == (8, 5, 6, 1)
    assert earlier.as_of == date(2026, 3, 8)


def test_standings_as_of_a_time_are_refused():
    with pytest.raises(ProjectionError) as error:
        standings(MULTI_LEAGUE, MULTI, as_of=at(9))
    assert error.value.code == "as_of_not_a_date"


def test_games_outside_the_period_or_unfinished_are_listed_but_not_counted():
    games = [
        duel("in", 31, "ana", "bob", "W"),
        duel("april", 1, "bob", "ana", "W"),
        game("open", at(4), ("bob", 1, 9), ("ana", 2, 3), finished=False),
    ]
    games[1] = msgspec.structs.replace(games[1], finished_at=at(1, month=4))
    table = standings(league(("ana", "bob"), Scoring(win_draw_loss=(3, 1, 0)), ("points",)), games)
    assert _table(table) == [(1, "ana", 3), (2, "bob", 0)]
    notes = {line.game_id: (line.counted, line.note) for line in table.games}
    assert notes == {"open": (False, "not finished"), "in": (True, ""), "april": (False, "outside the league's period")}


def test_in_a_team_game_teammates_are_not_opponents():
    """ana+cy (team 0) beat bob+dee (team 1), 3/1/0 between two sides: ana, cy 3; bob, dee 0.
    Then bob beats ana alone: bob 3. Buchholz of ana = bob 3 + dee 0 (g1) + bob 3 (g2) = 6; of cy =
    bob 3 + dee 0 = 3 (ana, a teammate, does not count)."""
    games = [
        game("g1", at(1), ("ana", 1, 12), ("bob", 2, 8), ("cy", 1, 10), ("dee", 2, 2), teams=(0, 1, 0, 1)),
        duel("g2", 2, "bob", "ana", "W"),
    ]
    table = standings(
        league(("ana", "bob", "cy", "dee"), Scoring(win_draw_loss=(3, 1, 0)), ("points", "buchholz")), games
    )
    rows = {row.player_id: row for row in table.rows}
    assert {p: r.points for p, r in rows.items()} == {"ana": 3, "bob": 3, "cy": 3, "dee": 0}
    assert rows["ana"].tie_breaks["buchholz"] == 6
    assert rows["cy"].tie_breaks["buchholz"] == 3
    assert rows["cy"].wins == 1
    # Score difference in g1 counts each opponent: ana (12-8)+(12-2) = 14, then (0-0) in g2.
    assert rows["ana"].score_difference == 14


def test_a_two_player_game_in_a_placement_league_with_win_draw_loss_scores_win_draw_loss():
    scoring = Scoring(placement_points={1: 5, 2: 3, 3: 1}, win_draw_loss=(2, 1, 0))
    games = [duel("d", 1, "ana", "bob", "D"), game("t", at(2), ("ana", 1, 0), ("bob", 2, 0), ("cy", 3, 0))]
    points = {
        row.player_id: row.points for row in standings(league(("ana", "bob", "cy"), scoring, ("points",)), games).rows
    }
    assert points == {"ana": 1 + 5, "bob": 1 + 3, "cy": 1}


def test_a_vp_league_adds_each_players_score_to_their_points():
    games = [duel("a", 1, "ana", "bob", "W", scores=(7, 4)), duel("b", 2, "bob", "ana", "W", scores=(6, 5))]
    table = standings(league(("ana", "bob"), Scoring(score_as_points=True), ("points", "wins")), games)
    assert _table(table) == [(1, "ana", 12), (2, "bob", 10)]


def test_an_unknown_criterion_is_refused_with_the_known_ones_named():
    bad = msgspec.structs.replace(DUEL_LEAGUE, tie_breaks=("points", "goal_average", "coin"))
    with pytest.raises(ProjectionError) as error:
        standings(bad, DUELS)
    assert error.value.code == "unknown_criterion"
    assert error.value.details["unknown"] == ["goal_average", "coin"]
    assert "'goal_average', 'coin'" in error.value.message
    assert "sonneborn_berger" in error.value.message
    assert error.value.details["known"] == list(CRITERIA)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"tie_breaks": ()}, "no_criteria"),
        ({"tie_breaks": ("points", "wins", "points")}, "duplicate_criterion"),
        ({"scoring": Scoring()}, "no_scoring"),
        ({"ends": date(2026, 2, 1)}, "bad_period"),
        ({"members": ("ana", "ana")}, "duplicate_member"),
    ],
)
def test_a_league_that_cannot_be_ranked_is_refused(change, code):
    bad = msgspec.structs.replace(DUEL_LEAGUE, **change)
    with pytest.raises(ProjectionError) as error:
        standings(bad, [])
    assert error.value.code == code


def test_a_game_given_twice_is_refused():
    with pytest.raises(ProjectionError) as error:
        standings(DUEL_LEAGUE, [DUELS[0], DUELS[0]])
    assert error.value.code == "duplicate_game"


def test_standings_and_leagues_survive_json():
    table = standings(MULTI_LEAGUE, MULTI)
    assert msgspec.json.decode(msgspec.json.encode(table), type=Standings) == table
    assert msgspec.json.decode(msgspec.json.encode(MULTI_LEAGUE), type=League) == MULTI_LEAGUE


def test_the_order_of_the_games_given_does_not_change_the_table():
    assert standings(DUEL_LEAGUE, list(reversed(DUELS))) == standings(DUEL_LEAGUE, DUELS)


def _random_league_games(rng: random.Random, members: list[str]) -> list:
    games = []
    for number in range(rng.randint(0, 40)):
        size = rng.choice((2, 2, 3, 4))
        seated = rng.sample([*members, "guest1", "guest2"], size)
        placed = [(pid, rng.randint(1, size), rng.randint(0, 20)) for pid in seated]
        teams = tuple(seat % 2 for seat in range(size)) if size == 4 and rng.random() < 0.3 else None
        games.append(
            game(
                f"r{number}",
                at(rng.randint(1, 31)),
                *placed,
                teams=teams,
                void=rng.random() < 0.05,
                finished=rng.random() > 0.05,
            )
        )
    return games


@pytest.mark.parametrize("seed", range(40))
def test_random_leagues_give_consistent_self_explaining_tables(seed):
    rng = random.Random(seed)
    members = ["ana", "bob", "cy", "dee", "eve", "fay"][: rng.randint(2, 6)]
    chain = tuple(rng.sample(CRITERIA, rng.randint(1, len(CRITERIA))))
    scoring = rng.choice(
        (
            Scoring(win_draw_loss=(3, 1, 0)),
            Scoring(placement_points={1: 5, 2: 3, 3: 1}),
            Scoring(placement_points={1: 4, 2: 2}, win_draw_loss=(2, 1, 0), score_as_points=True),
        )
    )
    games = _random_league_games(rng, members)
    table = standings(league(tuple(members), scoring, chain), games)
    assert sorted(row.player_id for row in table.rows) == sorted(members)
    assert table.rows[0].rank == 1
    assert len(table.separations) == len(table.rows) - 1
    for upper, lower, why in zip(table.rows, table.rows[1:], table.separations, strict=False):
        assert (why.upper, why.lower) == (upper.player_id, lower.player_id)
        if why.criterion == "tied":
            assert lower.rank == upper.rank
            assert upper.tie_breaks == lower.tie_breaks
            continue
        assert lower.rank > upper.rank
        # Every criterion before the separating one is level; the separating one favours the upper.
        for criterion in chain[: chain.index(why.criterion)]:
            assert upper.tie_breaks[criterion] == lower.tie_breaks[criterion]
        assert (why.upper_value, why.lower_value) == (upper.tie_breaks[why.criterion], lower.tie_breaks[why.criterion])
        if why.criterion == "games_played":
            assert why.upper_value < why.lower_value
        else:
            assert why.upper_value > why.lower_value
    # Points are the sum of what the counted games gave each member.
    for row in table.rows:
        given = [e for line in table.games if line.counted for e in line.entries if e.player_id == row.player_id]
        assert row.points == sum(e.points for e in given)
        assert row.played == len(given)
        assert row.wins + row.draws + row.losses + sum(e.outcome == "void" for e in given) == row.played
    # The table does not depend on the order the games are given in.
    assert standings(league(tuple(members), scoring, chain), list(reversed(games))) == table


# A cycle: each of Cleo, Dan and Eve beats one of the others and draws a guest (the test below says how it ranks).
CYCLE = [
    duel("a", 1, "cleo", "dan", "W"),
    duel("b", 2, "dan", "eve", "W"),
    duel("c", 3, "eve", "cleo", "W"),
    duel("d", 4, "cleo", "g1", "D"),
    duel("e", 5, "dan", "g2", "D"),
    duel("f", 6, "eve", "g3", "D"),
    duel("g", 7, "g1", "g4", "W"),
    duel("h", 8, "g3", "g4", "W"),
    duel("i", 9, "g3", "g5", "W"),
]
CYCLE_LEAGUE = league(
    ("cleo", "dan", "eve"), Scoring(win_draw_loss=(3, 1, 0)), ("points", "head_to_head", "sonneborn_berger")
)


def test_a_cycle_is_told_with_names_in_the_leagues_points_down_to_the_criterion_that_separates_it():
    """cleo W dan, dan W eve, eve W cleo, and each draws a guest: 4 points each (3/1/0). Head-to-head
    among them: one win each. Sonneborn–Berger in points: a win adds the opponent's points, a draw
    half of them: cleo 4 (dan) + 2 (g1, 4 points) = 6; dan 4 + 0.5 (g2, 1 point) = 4.5; eve 4 + 3.5
    (g3, 7 points) = 7.5."""
    table = standings(CYCLE_LEAGUE, CYCLE)
    assert _table(table) == [(1, "eve", 4), (2, "cleo", 4), (3, "dan", 4)]
    (tie,) = table.ties
    assert tie.players == ("eve", "cleo", "dan")
    assert tie.text == (
        "Eve, Cleo and Dan have 4 points each. They beat each other once each: head-to-head "
        "does not separate them; Sonneborn–Berger does: Eve 7.5, Cleo 6, Dan 4.5."
    )
    assert [row.tie_break_points["sonneborn_berger"] for row in table.rows] == [7.5, 6, 4.5]
    assert [row.tie_breaks["sonneborn_berger"] for row in table.rows] == [15, 12, 9]
    assert "cleo" not in tie.text and "half" not in tie.text


def test_half_point_scores_read_as_points_with_the_exact_integers_beside_them():
    """A game scored in half-points (scale 2): placement points 2/0 plus the score. Ana: 2 + 26.5 =
    28.5 points (57 exact), Bob: 0 + 10 = 10 (20 exact)."""
    scoring = Scoring(placement_points={1: 2, 2: 0}, score_as_points=True)
    table = standings(
        league(("ana", "bob"), scoring, ("points",)), [game("g", at(2), ("ana", 1, 53), ("bob", 2, 20))], scale=2
    )
    ana, bob = table.rows
    assert (ana.points, ana.points_exact, ana.score, ana.score_exact) == (28.5, 57, 26.5, 53)
    assert (bob.points, bob.points_exact, bob.score_difference, bob.score_difference_exact) == (10, 20, -16.5, -33)
    assert table.scale == 2
    assert table.separations[0].text == "Ana is above Bob on points (28.5 to 10)."
    encoded = msgspec.json.decode(msgspec.json.encode(table))
    assert encoded["rows"][0]["points"] == 28.5 and encoded["rows"][0]["points_exact"] == 57


def test_a_tie_of_hundreds_is_told_in_one_short_sentence_and_each_row_still_says_why():
    """A Swiss of 1,000 after one round has hundreds level on points: naming them all in one nested
    sentence overflowed Python's recursion limit (found by `bench.tournament`)."""
    members = tuple(f"p{n:04}" for n in range(600))
    games = [duel(f"g{n}", 1, members[2 * n], members[2 * n + 1], "W", (5, n % 7)) for n in range(300)]
    table = standings(league(members, Scoring(win_draw_loss=(2, 1, 0)), ("points", "buchholz", "score")), games)
    assert [len(t.players) for t in table.ties] == [300, 300]
    assert table.ties[0].text == "300 players have 2 points each: the rows say how the rest of the chain ranks them."
    assert len(table.separations) == 599 and all(s.text for s in table.separations)
