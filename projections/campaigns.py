"""Campaigns: a series of games with the same players towards a target (AS-16's 75 VP, MN-17's
rounds to 200, a Mémoire 44 match). The series rules belong to the ruleset: this module walks the
games in order, asks the ruleset whether each may follow the ones before (`series_next`: the same
seats, the deal passing left, sides swapped...) and where the series stands after each
(`series_status`).

How games count, in the order they were added:
- a game whose players are not exactly the campaign's is refused (ProjectionError `wrong_players`);
- a game the series rules refuse after the games before it is listed, not counted, with the rule
  (the service refuses it when it is added; this covers games added before a rule was checked);
- the campaign waits at its first unfinished game (one still being played, or reopened by a
  correction): that game and every later one are listed as pending, not counted in its place;
- a game played after the series was decided is listed but not counted.
Totals are kept in the ruleset's exact unit (`status.totals`) and given in points beside them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from domain.i18n import Message, english
from domain.ruleset import Result, RuleError, Ruleset, SeriesGame, SeriesStatus, Setup
from projections.contract import Points, points_of, score_scale, series_next
from projections.errors import ProjectionError
from projections.standings import Removal
from projections.words import Teller, _


class Campaign(msgspec.Struct, frozen=True, kw_only=True):
    """A campaign: the ruleset it is played under and its players (club player ids)."""

    campaign_id: str
    ruleset: str
    players: tuple[str, ...]
    automatic: bool = False
    """Takes by itself every finished game of its ruleset played by exactly its players (service's
    `ClubCollections`), after the games assigned to it."""


class CampaignGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a campaign, in the order it was played."""

    game_id: str
    setup: Setup
    result: Result


class CampaignStep(msgspec.Struct, frozen=True, kw_only=True):
    """Where the series stands after one game (`note` says why a game did not count; `rule_id` the
    series rule that refused it). `points` are the totals in points."""

    game_id: str
    counted: bool
    status: SeriesStatus
    points: dict[str, Points] = msgspec.field(default_factory=dict)
    note: str = ""
    rule_id: str = ""


class CampaignStatus(msgspec.Struct, frozen=True, kw_only=True):
    """A campaign after each of its games, and where it stands now (`status`: cumulative totals,
    finished or not, winners, next dealer or starter, the ruleset's note)."""

    campaign_id: str
    ruleset: str
    steps: tuple[CampaignStep, ...]
    status: SeriesStatus
    points: dict[str, Points] = msgspec.field(default_factory=dict)
    score_unit: str = ""
    """The unit of `status.totals` (half_point, vp, medal...); `points` are in points."""
    points_unit: str = "point"
    removals: tuple[Removal, ...] = ()
    """Games taken out of the campaign and put back, oldest first."""


def campaign_status(
    ruleset: Ruleset, campaign: Campaign, games: Iterable[CampaignGame], *, words: Teller = english
) -> CampaignStatus:
    """Walk a campaign's games in order, with the series status after every one of them; `words` says
    the steps' notes in the reader's language (English by default)."""
    return _Walk(ruleset, campaign, games, words).status()


def refused_note(refusal: RuleError) -> Message:
    """The note of a game the series rules refuse: the rule and its refusal (as the game told it)."""
    return _("refused by rule {rule_id}: {refusal}", rule_id=refusal.rule_id, refusal=refusal.said)


def pending_note(waiting: str) -> Message:
    """The note of a game after the first unfinished one, which the campaign waits for."""
    return _("pending: the campaign waits for game {game_id}", game_id=waiting)


DECIDED_NOTE = _("played after the campaign was decided")
WAITING_NOTE = _("not finished: the campaign waits for this game")


def admit(ruleset: Ruleset, campaign: Campaign, earlier: Iterable[CampaignGame], game: CampaignGame) -> None:
    """Raise ProjectionError unless `game` may follow `earlier` in the campaign: its players, and the
    series rules on what may come next (the error's details name the rule)."""
    walk = _Walk(ruleset, campaign, earlier)
    check_players(campaign, game)
    refusal = walk.refusal(game.setup)
    if refusal is not None:
        raise ProjectionError(
            refusal.code,
            _(
                "Game {game_id} cannot be the next game of this campaign: rule {rule_id}: {reason}",
                game_id=game.game_id,
                rule_id=refusal.rule_id,
                reason=refusal.said,
            ),
            game_id=game.game_id,
            rule_id=refusal.rule_id,
            **refusal.details,
        )


class _Walk:
    """The campaign's games walked in order (see the module docstring for how each counts)."""

    def __init__(
        self, ruleset: Ruleset, campaign: Campaign, games: Iterable[CampaignGame], words: Teller = english
    ) -> None:
        if ruleset.name != campaign.ruleset:
            raise ProjectionError(
                "wrong_ruleset",
                _("This campaign is of {campaign}, not {ruleset}.", campaign=campaign.ruleset, ruleset=ruleset.name),
                campaign=campaign.ruleset,
                ruleset=ruleset.name,
            )
        self.ruleset = ruleset
        self.campaign = campaign
        self.words = words
        self.scale = score_scale(ruleset)
        self.accepted: list[SeriesGame] = []  # the games the series rules let follow, finished or not
        self.counted: list[SeriesGame] = []
        self.series = self._series(())
        self.steps: list[CampaignStep] = []
        self.unit = ""
        waiting: str | None = None
        seen: set[str] = set()
        for game in games:
            if game.game_id in seen:
                raise ProjectionError(
                    "duplicate_game", _("Game {game_id} is given twice.", game_id=game.game_id), game_id=game.game_id
                )
            seen.add(game.game_id)
            check_players(campaign, game)
            refusal = self.refusal(game.setup)
            if refusal is not None:
                self._step(game, refused_note(refusal), refusal.rule_id)
                continue
            series_game = SeriesGame(setup=game.setup, result=game.result)
            self.accepted.append(series_game)
            if self.series.finished:
                self._step(game, DECIDED_NOTE)
            elif waiting is not None:
                self._step(game, pending_note(waiting))
            elif not game.result.finished:
                waiting = game.game_id
                self._step(game, WAITING_NOTE)
            else:
                try:
                    series = self._series((*self.counted, series_game))
                except RuleError as error:  # the series rules refuse it after all: listed, not counted
                    self.accepted.pop()
                    self._step(game, refused_note(error), error.rule_id)
                    continue
                self.counted.append(series_game)
                self.series = series
                self.unit = self.unit or game.result.score_unit
                self._step(game, None, counted=True)

    def _series(self, games: Sequence[SeriesGame]) -> SeriesStatus:
        """The series rules' status after `games`, its note in the reader's language where the game tells
        it as a message."""
        series = self.ruleset.series_status(games)
        told = self.ruleset.series_told
        if self.words is english or told is None or not series.note:
            return series
        note = told(games)
        return series if note is None else msgspec.structs.replace(series, note=self.words(note))

    def refusal(self, setup: Setup) -> RuleError | None:
        """Why the series rules refuse `setup` after the accepted games, or None."""
        check = series_next(self.ruleset)
        if check is None:
            return None
        try:
            check(tuple(self.accepted), setup)
        except RuleError as error:
            return error
        return None

    def _step(self, game: CampaignGame, note: Message | None, rule_id: str = "", *, counted: bool = False) -> None:
        self.steps.append(
            CampaignStep(
                game_id=game.game_id,
                counted=counted,
                status=self.series,
                points=points_of(self.series.totals, self.scale),
                note="" if note is None else self.words(note),
                rule_id=rule_id,
            )
        )

    def status(self) -> CampaignStatus:
        return CampaignStatus(
            campaign_id=self.campaign.campaign_id,
            ruleset=self.campaign.ruleset,
            steps=tuple(self.steps),
            status=self.series,
            points=points_of(self.series.totals, self.scale),
            score_unit=self.unit,
        )


def check_players(campaign: Campaign, game: CampaignGame) -> None:
    """Raise ProjectionError unless the game is played by exactly the campaign's players (seats may
    change from game to game)."""
    seated = [p.player_id for p in game.setup.players]
    if sorted(seated) == sorted(campaign.players):
        return
    missing = sorted(set(campaign.players) - set(seated))
    extra = sorted(set(seated) - set(campaign.players))
    names = {p.player_id: p.name for p in game.setup.players}
    parts: list[Message] = []
    if extra:
        strangers = ", ".join(names[p] for p in extra)
        parts.append(_.ngettext("{players} is not in it", "{players} are not in it", len(extra), players=strangers))
    if missing:
        parts.append(_("{players} did not play", players=", ".join(missing)))
    if not parts:
        parts.append(_("a player is seated twice"))
    why = parts[0] if len(parts) == 1 else _("{first}; {then}", first=parts[0], then=parts[1])
    raise ProjectionError(
        "wrong_players",
        _("Game {game_id} is not played by this campaign's players: {why}.", game_id=game.game_id, why=why),
        game_id=game.game_id,
        expected=sorted(campaign.players),
        seated=seated,
        missing=missing,
        extra=extra,
    )
