"""Campaigns: a series of games with the same players towards a target (AS-16's 75 VP, MN-17's
rounds to 200, a Mémoire 44 match). The series rules belong to the ruleset: this module only walks
the games in order and asks `ruleset.series_status` where the series stands after each of them.

How games count: a game whose players are not exactly the campaign's is refused (ProjectionError
`wrong_players`). A game that is not finished (for instance after a correction voided its last
events) is listed but not counted. A game played after the series was already decided is listed but
not counted either: the campaign ended before it.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.ruleset import Result, Ruleset, SeriesGame, SeriesStatus, Setup
from projections.errors import ProjectionError


class Campaign(msgspec.Struct, frozen=True, kw_only=True):
    """A campaign: the ruleset it is played under and its players (club player ids)."""

    campaign_id: str
    ruleset: str
    players: tuple[str, ...]


class CampaignGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a campaign, in the order it was played."""

    game_id: str
    setup: Setup
    result: Result


class CampaignStep(msgspec.Struct, frozen=True, kw_only=True):
    """Where the series stands after one game (`note` says why a game did not count)."""

    game_id: str
    counted: bool
    status: SeriesStatus
    note: str = ""


class CampaignStatus(msgspec.Struct, frozen=True, kw_only=True):
    """A campaign after each of its games, and where it stands now (`status`: cumulative totals,
    finished or not, winners, next dealer or starter, the ruleset's note)."""

    campaign_id: str
    ruleset: str
    steps: tuple[CampaignStep, ...]
    status: SeriesStatus


def campaign_status(ruleset: Ruleset, campaign: Campaign, games: Iterable[CampaignGame]) -> CampaignStatus:
    """Walk a campaign's games in order, with the series status after every one of them."""
    if ruleset.name != campaign.ruleset:
        raise ProjectionError("wrong_ruleset", f"This campaign is of {campaign.ruleset}, not {ruleset.name}.",
                              campaign=campaign.ruleset, ruleset=ruleset.name)
    counted: list[SeriesGame] = []
    status = ruleset.series_status(())
    steps: list[CampaignStep] = []
    seen: set[str] = set()
    for game in games:
        if game.game_id in seen:
            raise ProjectionError("duplicate_game", f"Game {game.game_id} is given twice.",
                                  game_id=game.game_id)
        seen.add(game.game_id)
        check_players(campaign, game)
        if status.finished:
            steps.append(CampaignStep(game_id=game.game_id, counted=False, status=status,
                                      note="played after the campaign was decided"))
        elif not game.result.finished:
            steps.append(CampaignStep(game_id=game.game_id, counted=False, status=status,
                                      note="not finished"))
        else:
            counted.append(SeriesGame(setup=game.setup, result=game.result))
            status = ruleset.series_status(tuple(counted))
            steps.append(CampaignStep(game_id=game.game_id, counted=True, status=status))
    return CampaignStatus(campaign_id=campaign.campaign_id, ruleset=campaign.ruleset, steps=tuple(steps),
                          status=status)


def check_players(campaign: Campaign, game: CampaignGame) -> None:
    """Raise ProjectionError unless the game is played by exactly the campaign's players (seats may
    change from game to game)."""
    seated = [p.player_id for p in game.setup.players]
    if sorted(seated) == sorted(campaign.players):
        return
    missing = sorted(set(campaign.players) - set(seated))
    extra = sorted(set(seated) - set(campaign.players))
    names = {p.player_id: p.name for p in game.setup.players}
    parts = []
    if extra:
        parts.append(f"{', '.join(names[p] for p in extra)} {'is' if len(extra) == 1 else 'are'} not in it")
    if missing:
        parts.append(f"{', '.join(missing)} did not play")
    if not parts:
        parts.append("a player is seated twice")
    raise ProjectionError(
        "wrong_players",
        f"Game {game.game_id} is not played by this campaign's players: {'; '.join(parts)}.",
        game_id=game.game_id,
        expected=sorted(campaign.players),
        seated=seated,
        missing=missing,
        extra=extra,
    )
