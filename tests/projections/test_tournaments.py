"""Tournament pairings: properties of Swiss, round robin and multiplayer tables over generated
tournaments (any ranking the standings could give), the tournament's events replaying to the same
state, and standings after each round through the league's tie-break chains."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from itertools import combinations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.ruleset import Player, PlayerResult, Result
from projections.errors import ProjectionError
from projections.standings import LeagueGame, Scoring
from projections.tournaments import (
    EVENT_DECODER,
    GameAttached,
    History,
    PlayerEntered,
    PlayerWithdrew,
    RoundPaired,
    RoundUnpaired,
    Tournament,
    TournamentCreated,
    apply,
    check,
    fold,
    history,
    pair,
    ranking,
    table_sizes,
    tournament_standings,
)

WIN_DRAW_LOSS = Scoring(win_draw_loss=(2, 1, 0))


def created(system: str, sides: bool = False, **more: object) -> TournamentCreated:
    return TournamentCreated(
        tournament_id="open",
        ruleset="tally",
        system=system,  # type: ignore[arg-type]
        scoring=WIN_DRAW_LOSS,
        sides=sides,
        **more,
    )  # type: ignore[arg-type]


def with_players(definition: TournamentCreated, count: int) -> Tournament:
    state = apply(None, definition)
    for n in range(count):
        state = apply(state, PlayerEntered(player_id=f"p{n:02}", name=f"Player {n}"))
    return state


def matchings(players: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Every perfect matching of an even list (brute force, for small lists)."""
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    out = []
    for index, partner in enumerate(rest):
        for tail in matchings(rest[:index] + rest[index + 1 :]):
            out.append([(first, partner), *tail])
    return out


def feasible(order: Sequence[str], past: History, level: set[str]) -> bool:
    """Whether some bye and pairing keep every constraint of `level` (brute force)."""
    byes: list[str | None] = [None] if len(order) % 2 == 0 else list(order)
    for bye in byes:
        if bye is not None and "one_bye" in level and past.byes.get(bye):
            continue
        rest = [p for p in order if p != bye]
        for matching in matchings(rest):
            if "no_repeat" in level and any(past.meetings(a, b) for a, b in matching):
                continue
            if "sides" in level and any(
                (past.balance(a) > 0 and past.balance(b) > 0) or (past.balance(a) < 0 and past.balance(b) < 0)
                for a, b in matching
            ):
                continue
            return True
    return False


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 9), rounds=st.integers(1, 8), sides=st.booleans(), data=st.data())
def test_swiss_pairs_everyone_once_and_keeps_each_constraint_while_it_can_be_kept(
    count: int, rounds: int, sides: bool, data: st.DataObject
) -> None:
    state = with_players(created("swiss", sides), count)
    for _ in range(rounds):
        order = data.draw(st.permutations(state.active))
        past = history(state.rounds)
        paired = pair(state, order)
        seated = [p for t in paired.tables for p in t.seats]
        assert sorted(seated + list(paired.byes)) == sorted(order)  # every active player paired or given a bye
        assert all(len(t.seats) == 2 for t in paired.tables) and len(paired.byes) == count % 2
        if "no_repeat" not in paired.relaxed:
            assert not any(past.meetings(*t.seats) for t in paired.tables)
        if "one_bye" not in paired.relaxed:
            assert not any(past.byes.get(p) for p in paired.byes)
        # A constraint is dropped only when no pairing keeps it with the ones ranked above it.
        constraints = [c for c in ("sides", "one_bye", "no_repeat") if sides or c != "sides"]
        if paired.relaxed:
            kept = set(constraints) - set(paired.relaxed)
            assert not feasible(order, past, kept | {paired.relaxed[-1]})
        state = apply(state, paired)
        if sides and "sides" not in paired.relaxed:
            after = history(state.rounds)
            assert all(abs(after.balance(p)) <= 1 for p in state.active)


def test_swiss_with_an_even_field_never_repeats_a_pairing_or_unbalances_sides_in_the_first_rounds() -> None:
    state = with_players(created("swiss", sides=True), 8)
    for _ in range(5):
        order = ranking(state.active, None, seed=7)
        paired = pair(state, order)
        assert paired.relaxed == ()
        state = apply(state, paired)
    past = history(state.rounds)
    assert max(past.met.values()) == 1
    assert all(abs(past.balance(p)) <= 1 for p in state.active)


def test_a_player_gets_at_most_one_bye_while_another_can_take_it() -> None:
    state = with_players(created("swiss"), 5)
    byes: list[str] = []
    for _ in range(5):
        paired = pair(state, sorted(state.active))
        byes.extend(paired.byes)
        state = apply(state, paired)
    assert sorted(byes) == sorted(state.active)  # five rounds, five players: one bye each


@pytest.mark.parametrize("count", [4, 5, 6, 7])
def test_a_round_robin_meets_everyone_once_with_sides_within_one(count: int) -> None:
    state = with_players(created("round_robin", sides=True), count)
    rounds = count - 1 if count % 2 == 0 else count
    for _ in range(rounds):
        state = apply(state, pair(state, state.active))
    past = history(state.rounds)
    assert sorted(past.met) == sorted(combinations(sorted(state.active), 2))
    assert set(past.met.values()) == {1}
    assert all(abs(past.balance(p)) <= 1 for p in state.active)
    assert sum(past.byes.values()) == (count if count % 2 else 0)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(3, 60), rounds=st.integers(1, 4), data=st.data())
def test_multiplayer_tables_seat_everyone_once_at_tables_of_three_to_five(
    count: int, rounds: int, data: st.DataObject
) -> None:
    state = with_players(created("tables"), count)
    for _ in range(rounds):
        paired = pair(state, data.draw(st.permutations(state.active)))
        seated = [p for t in paired.tables for p in t.seats]
        assert sorted(seated) == sorted(state.active) and paired.byes == ()
        assert all(3 <= len(t.seats) <= 5 for t in paired.tables)
        sizes = [len(t.seats) for t in paired.tables]
        assert max(sizes) - min(sizes) <= 1
        state = apply(state, paired)


def test_table_sizes_stay_within_the_range_and_as_even_as_possible() -> None:
    assert table_sizes(120, (3, 5)) == [4] * 30
    assert table_sizes(7, (3, 5)) == [4, 3]
    assert table_sizes(11, (3, 5)) == [4, 4, 3]
    assert table_sizes(5, (3, 5)) == [5]
    assert table_sizes(2, (3, 5)) == [2]


def test_multiplayer_tables_avoid_repeat_opponents_when_they_can() -> None:
    """Sixteen players at tables of four: the second round can seat everyone with strangers, and does,
    whatever the standings; the third too."""
    state = with_players(created("tables"), 16)
    for number in range(3):
        order = sorted(state.active, reverse=number % 2 == 1)
        past = history(state.rounds)
        paired = pair(state, order)
        assert all(not past.meetings(a, b) for t in paired.tables for a, b in combinations(t.seats, 2))
        state = apply(state, paired)


def test_seats_at_a_multiplayer_table_are_balanced() -> None:
    """Four players at one table for four rounds: each takes every seat once."""
    state = with_players(created("tables"), 4)
    for _ in range(4):
        state = apply(state, pair(state, state.active))
    past = history(state.rounds)
    assert all(sorted(past.seats[p]) == [0, 1, 2, 3] for p in state.active)


def test_pairing_is_deterministic_and_seeded() -> None:
    state = with_players(created("swiss", seed=3), 9)
    assert pair(state, ranking(state.active, None, 3)) == pair(state, ranking(state.active, None, 3))
    assert ranking(state.active, None, 3) != ranking(state.active, None, 4)


def duel(game_id: str, first: str, second: str, winner: int) -> LeagueGame:
    players = (
        Player(player_id=first, name=first.title(), seat=0),
        Player(player_id=second, name=second.title(), seat=1),
    )
    result = Result(
        finished=True,
        score_unit="pip",
        players=(
            PlayerResult(seat=0, score=10 if winner == 0 else 5, placement=1 if winner == 0 else 2),
            PlayerResult(seat=1, score=10 if winner == 1 else 5, placement=1 if winner == 1 else 2),
        ),
    )
    return LeagueGame(game_id=game_id, finished_at=datetime(2026, 3, 1, tzinfo=UTC), players=players, result=result)


def test_a_tournament_replays_from_its_events_to_the_same_rounds_and_standings_after_each_round() -> None:
    """Five players, Swiss, a bye worth 2 points. Round 1 (seeded order) then round 2 from the standings."""
    events: list[object] = [created("swiss", bye_points=2)]
    events += [PlayerEntered(player_id=p, name=p.title()) for p in ("ana", "bob", "cy", "dee", "eve")]
    state = fold(events)  # type: ignore[arg-type]
    first = pair(state, ranking(state.active, None, 0))
    events.append(first)
    state = apply(state, first)
    games: dict[str, LeagueGame] = {}
    for table in first.tables:
        game_id = f"r1t{table.table}"
        games[game_id] = duel(game_id, *table.seats, winner=0)
        attach = GameAttached(round=1, table=table.table, game_id=game_id)
        check(state, attach)
        events.append(attach)
        state = apply(state, attach)
    after_one = tournament_standings(state, games, 1)
    winners = {t.seats[0] for t in first.tables} | set(first.byes)
    assert {r.player_id for r in after_one.rows if r.points == 2} == winners
    withdrawal = PlayerWithdrew(player_id=first.tables[0].seats[1], reason="ill")
    events.append(withdrawal)
    state = apply(state, withdrawal)
    second = pair(state, ranking(state.active, after_one, 0))
    assert first.tables[0].seats[1] not in {p for t in second.tables for p in t.seats} | set(second.byes)
    events.append(second)
    state = apply(state, second)
    encoded = [msgspec.json.encode(e) for e in events]
    assert fold([EVENT_DECODER.decode(e) for e in encoded]) == state
    assert tournament_standings(state, games, 0).rows[0].points == 0


def test_only_the_latest_round_is_paired_again_and_a_table_takes_one_game() -> None:
    state = with_players(created("swiss"), 4)
    state = apply(state, pair(state, state.active))
    state = apply(state, GameAttached(round=1, table=1, game_id="g1"))
    with pytest.raises(ProjectionError) as error:
        check(state, GameAttached(round=1, table=1, game_id="g2"))
    assert error.value.code == "table_played"
    with pytest.raises(ProjectionError) as error:
        check(state, GameAttached(round=1, table=2, game_id="g1"))
    assert error.value.code == "game_attached"
    with pytest.raises(ProjectionError) as error:
        check(state, RoundUnpaired(round=2))
    assert error.value.code == "not_latest_round"
    again = apply(state, RoundUnpaired(round=1, reason="a result was corrected"))
    assert again.rounds == () and isinstance(pair(again, again.active), RoundPaired)
