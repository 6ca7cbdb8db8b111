"""Club ratings (OpenSkill, Plackett–Luce): winners rise, placements order a multiplayer table, partners
move together, void and unfinished games are not rated, and rating game by game gives the same as
rating everything at once."""

from __future__ import annotations

from datetime import UTC, datetime

from domain.ruleset import Player, PlayerResult, Result
from projections.ratings import RatedGame, rate, rate_all


def game(
    game_id: str,
    day: int,
    *placed: tuple[str, int],
    teams: tuple[int, ...] | None = None,
    finished: bool = True,
    void: bool = False,
) -> RatedGame:
    players = tuple(
        Player(player_id=p, name=p.title(), seat=n, team=teams[n] if teams else None) for n, (p, _) in enumerate(placed)
    )
    result = Result(
        finished=finished,
        void=void,
        score_unit="vp",
        players=tuple(PlayerResult(seat=n, score=10 - place, placement=place) for n, (_, place) in enumerate(placed)),
    )
    return RatedGame(game_id=game_id, finished_at=datetime(2026, 3, day, tzinfo=UTC), players=players, result=result)


def test_the_winner_of_a_first_game_rises_and_the_loser_falls_by_the_same_amount():
    now, history = rate_all([game("g1", 1, ("ana", 1), ("bob", 2))])
    ana, bob = now["ana"].skill, now["bob"].skill
    assert ana.mu > 25 > bob.mu
    assert round(ana.mu - 25, 9) == round(25 - bob.mu, 9)
    assert ana.rating == ana.mu - 3 * ana.sigma
    assert [(player, point.game_id, point.placement) for player, point in history] == [
        ("ana", "g1", 1),
        ("bob", "g1", 2),
    ]
    assert history[0][1].change > 0 > history[1][1].change


def test_a_multiplayer_table_is_rated_in_the_order_of_its_placements_with_shared_places_equal():
    now, _ = rate_all([game("g1", 1, ("ana", 3), ("bob", 1), ("cy", 2), ("dee", 2))])
    assert now["bob"].skill.rating > now["cy"].skill.rating == now["dee"].skill.rating > now["ana"].skill.rating


def test_partners_of_a_team_move_together():
    now, _ = rate_all([game("g1", 1, ("ana", 1), ("bob", 2), ("cy", 1), ("dee", 2), teams=(0, 1, 0, 1))])
    assert now["ana"].skill == now["cy"].skill and now["bob"].skill == now["dee"].skill
    assert now["ana"].skill.mu > now["bob"].skill.mu


def test_void_and_unfinished_games_are_not_rated():
    now, history = rate_all(
        [game("v", 1, ("ana", 1), ("bob", 1), void=True), game("u", 2, ("ana", 1), ("bob", 2), finished=False)]
    )
    assert now == {} and history == []


def test_rating_game_by_game_gives_the_ratings_of_all_games_at_once_in_the_order_they_finished():
    games = [game(f"g{n}", n, ("ana", 1 + n % 2), ("bob", 2 - n % 2), ("cy", 1 + n % 3)) for n in range(1, 12)]
    all_at_once, history = rate_all(reversed(games))
    step = {}
    for one in games:
        step, _ = rate(step, [one])
    assert step == all_at_once
    assert all_at_once["ana"].games == 11 and all_at_once["ana"].last_game == "g11"
    assert [point.game_id for player, point in history if player == "cy"] == [f"g{n}" for n in range(1, 12)]
