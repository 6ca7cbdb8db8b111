"""Campaigns: cumulative series status after every game, through the ruleset's series rules."""

from __future__ import annotations

import msgspec
import pytest

from domain.milles_nautiques import RULESET as MN
from domain.record import fold
from domain.ruleset import Player, PlayerResult, Result, SeriesStatus, Setup, Viewer
from projections.campaigns import Campaign, CampaignGame, CampaignStatus, admit, campaign_status
from projections.errors import ProjectionError
from testkit.tally import RULESET, Rolled
from tests.projections.games import duel_setup, tally_stream

ALAIN, BEA, CARLA = ("p1", "Alain"), ("p2", "Bea"), ("p3", "Carla")
CAMPAIGN = Campaign(campaign_id="winter", ruleset="tally", players=("p1", "p2"))


def played(game_id: str, first: tuple[str, str], second: tuple[str, str], *faces: int) -> CampaignGame:
    """A tally game to 10 where seat 0 and seat 1 roll `faces` in turn."""
    setup = duel_setup(first, second)
    stream = tally_stream(setup, *(Rolled(seat=n % 2, face=face) for n, face in enumerate(faces)))
    return CampaignGame(
        game_id=game_id, setup=setup, result=RULESET.result(fold(RULESET, stream).state, Viewer.public())
    )


def mn_round(
    game_id: str, seats: tuple[str, str], options: dict[str, int], half_points: tuple[int, int]
) -> CampaignGame:
    """A finished Milles Nautiques round with these half-point scores by seat."""
    names = {"p1": "Alain", "p2": "Bea"}
    setup = Setup(
        players=tuple(Player(player_id=p, name=names[p], seat=n) for n, p in enumerate(seats)), options=dict(options)
    )
    result = Result(
        finished=True,
        score_unit="half_point",
        players=tuple(PlayerResult(seat=n, score=s) for n, s in enumerate(half_points)),
    )
    return CampaignGame(game_id=game_id, setup=setup, result=result)


GAMES = [
    played("c1", ALAIN, BEA, 6, 3, 5),  # Alain 11, Bea 3
    played("c2", BEA, ALAIN, 6, 2, 6),  # Bea 12, Alain 2
    played("c3", ALAIN, BEA, 6, 6, 6),  # Alain 12, Bea 6
    played("c4", BEA, ALAIN, 5, 6, 6),  # Bea 11, Alain 6
]


def test_a_campaign_gives_the_cumulative_totals_after_every_game():
    """Tally's series: totals add up until someone has 30. Alain 11, 13, 25, 31; Bea 3, 15, 21, 32:
    after c4 the series is over and Bea, with the highest total, wins."""
    status = campaign_status(RULESET, CAMPAIGN, GAMES)
    assert [step.status.totals for step in status.steps] == [
        {"p1": 11, "p2": 3},
        {"p1": 13, "p2": 15},
        {"p1": 25, "p2": 21},
        {"p1": 31, "p2": 32},
    ]
    assert [step.status.finished for step in status.steps] == [False, False, False, True]
    assert [step.counted for step in status.steps] == [True] * 4
    assert status.status == status.steps[-1].status
    assert status.status.winners == ("p2",)


def test_before_any_game_a_campaign_stands_where_the_series_rules_start_it():
    status = campaign_status(RULESET, CAMPAIGN, [])
    assert status.steps == ()
    assert status.status == SeriesStatus(totals={}, finished=False)


def test_a_game_with_other_players_is_refused():
    with pytest.raises(ProjectionError) as error:
        campaign_status(RULESET, CAMPAIGN, [*GAMES[:2], played("x", ALAIN, CARLA, 6, 6, 6)])
    assert error.value.code == "wrong_players"
    assert error.value.message == (
        "Game x is not played by this campaign's players: Carla is not in it; p2 did not play."
    )
    assert error.value.details["missing"] == ["p2"]
    assert error.value.details["extra"] == ["p3"]


def test_a_game_with_a_player_seated_twice_is_refused():
    setup = duel_setup(ALAIN, BEA)
    again = Player(player_id="p1", name="Alain", seat=2)
    twice = msgspec.structs.replace(setup, players=(*setup.players, again))
    game = msgspec.structs.replace(GAMES[0], setup=twice)
    with pytest.raises(ProjectionError) as error:
        campaign_status(RULESET, CAMPAIGN, [game])
    assert error.value.code == "wrong_players"
    assert "seated twice" in error.value.message


def test_the_campaign_waits_at_an_unfinished_game_and_later_games_are_pending():
    unfinished = played("c2", BEA, ALAIN, 6, 2)
    status = campaign_status(RULESET, CAMPAIGN, [GAMES[0], unfinished, GAMES[2]])
    assert [(s.counted, s.note) for s in status.steps] == [
        (True, ""),
        (False, "not finished: the campaign waits for this game"),
        (False, "pending: the campaign waits for game c2"),
    ]
    assert status.steps[2].status.totals == {"p1": 11, "p2": 3}
    assert status.status.totals == {"p1": 11, "p2": 3}


def test_a_round_with_the_seats_swapped_is_listed_as_refused_by_mn_17_rather_than_breaking_the_campaign():
    """Stored before the series rules were checked on entry: the status still answers, naming the rule."""
    campaign = Campaign(campaign_id="autumn", ruleset=MN.name, players=("p1", "p2"))
    first = mn_round("r1", ("p1", "p2"), {"round": 1, "dealer": 1}, (80, 20))
    swapped = mn_round("r2", ("p2", "p1"), {"round": 2, "dealer": 1}, (30, 10))
    status = campaign_status(MN, campaign, [first, swapped])
    assert [(s.counted, s.rule_id) for s in status.steps] == [(True, ""), (False, "MN-17")]
    assert status.steps[1].note == (
        "refused by rule MN-17: Every round of a game is played by the same players in the same seats."
    )
    assert status.status.totals == {"p1": 80, "p2": 20}
    assert status.points == {"p1": 40, "p2": 10} and status.score_unit == "half_point"


def test_admitting_a_round_dealt_by_the_wrong_player_names_mn_19_and_totals_read_in_points():
    campaign = Campaign(campaign_id="autumn", ruleset=MN.name, players=("p1", "p2"))
    first = mn_round("r1", ("p1", "p2"), {"round": 1, "dealer": 1}, (81, 20))
    with pytest.raises(ProjectionError) as error:
        admit(MN, campaign, [first], mn_round("r2", ("p1", "p2"), {"round": 2, "dealer": 1}, (0, 0)))
    assert error.value.code == "wrong_dealer" and error.value.details["rule_id"] == "MN-19"
    assert error.value.message == (
        "Game r2 cannot be the next game of this campaign: rule MN-19: Alain deals round 2: "
        "the deal passes to the left."
    )
    admit(MN, campaign, [first], mn_round("r2", ("p1", "p2"), {"round": 2, "dealer": 0}, (0, 0)))
    assert campaign_status(MN, campaign, [first]).points == {"p1": 40.5, "p2": 10}


def test_a_game_after_the_campaign_was_decided_is_not_counted():
    status = campaign_status(RULESET, CAMPAIGN, [*GAMES, played("c5", ALAIN, BEA, 6, 1, 6)])
    assert status.steps[-1].counted is False
    assert status.steps[-1].note == "played after the campaign was decided"
    assert status.status.totals == {"p1": 31, "p2": 32}


def test_a_campaign_of_another_ruleset_is_refused():
    with pytest.raises(ProjectionError) as error:
        campaign_status(RULESET, msgspec.structs.replace(CAMPAIGN, ruleset="milles_nautiques"), GAMES)
    assert error.value.code == "wrong_ruleset"


def test_a_campaign_status_survives_json():
    status = campaign_status(RULESET, CAMPAIGN, GAMES)
    assert msgspec.json.decode(msgspec.json.encode(status), type=CampaignStatus) == status


def test_the_series_note_is_told_in_the_readers_language_at_every_step():
    """The ruleset's note (English in `note` by default) as the game tells it in French and Spanish."""
    from service.i18n import Translator

    campaign = Campaign(campaign_id="autumn", ruleset=MN.name, players=("p1", "p2"))
    first = mn_round("r1", ("p1", "p2"), {"round": 1, "dealer": 1}, (80, 20))
    assert campaign_status(MN, campaign, [first]).status.note == "Another round is needed: nobody has 200 points yet."
    french = campaign_status(MN, campaign, [first], words=Translator("fr"))
    assert (
        french.status.note
        == french.steps[0].status.note
        == "Il faut une autre manche : personne n'a encore 200 points."
    )
    spanish = campaign_status(MN, campaign, [], words=Translator("es"))
    assert spanish.status.note == Translator("es")(MN.series_told([])) != MN.series_status([]).note
