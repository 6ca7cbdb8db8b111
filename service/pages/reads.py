"""What each page shows, read through the same records, projections and read models as the API (the
replay and its snapshots, standings, campaign status, game summaries, listings): a page never reads a
table the API does not, and never names a game."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from typing import Any

import msgspec
from markupsafe import Markup

from domain import rules_reference
from domain.i18n import Catalogue, Message, english
from domain.record import decoder
from domain.ruleset import Player, Ruleset, Viewer
from projections.campaigns import Campaign
from projections.replay import ChapterMark, Replay, Step, StepView, replay, view_at
from projections.standings import Row, Standings, separation_message
from projections.verdict import verdict_at
from projections.words import Teller as Words
from service.cache import Recent, of_games
from service.http.links import rule_url
from service.i18n import ENGLISH, Translator
from service.pages import lines, notes, outcomes
from service.pages.render import campaign_plot, change_lines, points, state_html, unit_word
from service.usecases.access import Principal
from service.usecases.clubs import Clubs
from service.usecases.collections import ClubCollections
from service.usecases.games import NotFound, Records
from service.usecases.replays import Replays
from service.usecases.spectators import Spectators
from service.usecases.tournaments import Tournaments
from service.usecases.types import GameFilter, GameRecord, SpectatorDelay, StreamId

_ = Catalogue("service.pages")
WINDOW = 12
"""Steps of narration shown on each side of the current one (a long game's list stays short)."""


class ViewChoice(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the view chooser: its query string and its label."""

    query: str
    label: Message
    current: bool


def viewer_of(principal: Principal, view: str, seat: int | None, seats: int) -> Viewer:
    """The view asked for, where the principal may see it (a spectator always gets the public view), at
    a table of `seats` seats."""
    if not principal.sees_hidden or view not in ("seat", "full"):
        return Viewer.public()
    if view == "full":
        return Viewer.full()
    return Viewer.of_seat(seat) if seat is not None and 0 <= seat < seats else Viewer.public()


def view_choices(principal: Principal, viewer: Viewer, players: Sequence[Player]) -> list[ViewChoice]:
    """The views this principal may choose between (only the public one for a spectator)."""
    choices = [
        ViewChoice(query="view=public", label=_("Public (what the table sees)"), current=viewer.kind == "public")
    ]
    if principal.sees_hidden:
        for player in sorted(players, key=lambda p: p.seat):
            choices.append(
                ViewChoice(
                    query=f"view=seat&seat={player.seat}",
                    label=_("{player}'s hand", player=player.name),
                    current=viewer.kind == "seat" and viewer.seat == player.seat,
                )
            )
        choices.append(ViewChoice(query="view=full", label=_("Everything (the record)"), current=viewer.kind == "full"))
    return choices


def view_query(viewer: Viewer) -> str:
    if viewer.kind == "seat":
        return f"view=seat&seat={viewer.seat}"
    return f"view={viewer.kind}"


def chapter_label(mark: ChapterMark) -> str | Message:
    kind, number = mark.chapters[-1]
    label = CHAPTERS.get(kind)
    return label(str(number)) if label is not None else f"{kind.capitalize()} {number}"


CHAPTERS: dict[str, Callable[[str], Message]] = {
    "round": lambda number: _("Round {number}", number=number),
    "turn": lambda number: _("Turn {number}", number=number),
    "battle": lambda number: _("Battle {number}", number=number),
    "half": lambda number: _("Half {number}", number=number),
}
"""The chapters the games mark, named in the reader's language (another kind is shown as the game names it)."""


class Told(msgspec.Struct, frozen=True, kw_only=True):
    """A game narrated up to some step, with its chapter index split for quick lookups: the outermost
    chapters, and the chapters inside each one (first steps in increasing order)."""

    replay: Replay
    outer: tuple[ChapterMark, ...]
    inner: dict[tuple[tuple[str, int], ...], tuple[ChapterMark, ...]]

    @classmethod
    def of(cls, told: Replay) -> Told:
        inner: dict[tuple[tuple[str, int], ...], list[ChapterMark]] = {}
        for mark in told.chapters:
            if len(mark.chapters) == 2:
                inner.setdefault(mark.chapters[:1], []).append(mark)
        return cls(
            replay=told,
            outer=tuple(m for m in told.chapters if len(m.chapters) == 1),
            inner={k: tuple(v) for k, v in inner.items()},
        )

    def chapters_near(self, current: Step, around: int = 8) -> list[ChapterMark]:
        """The chapters to jump to: the first and last outermost ones and those near the current step,
        and the chapters inside the current one near it (thousands of turns stay a short list)."""
        inner = self.inner.get(current.chapters[:1], ())
        return _near(self.outer, current, around, ends=True) + _near(inner, current, around, ends=False)


def _near(marks: Sequence[ChapterMark], current: Step, around: int, ends: bool) -> list[ChapterMark]:
    here = max(0, bisect.bisect_right([m.version for m in marks], current.version) - 1) if marks else 0
    picked = set(range(max(0, here - around), min(len(marks), here + around + 1)))
    if ends and marks:
        picked |= {0, len(marks) - 1}
    return [marks[i] for i in sorted(picked)]


class StreamEvents(Sequence[Any]):
    """The first `length` events of a game's stream, read from the store where they are asked for: a
    step page reads the set-up and the events after the snapshot it seeks from, not the whole record
    (a correction that refolds from the start asks for the rest, and gets it)."""

    def __init__(self, replays: Replays, ruleset: Ruleset, game_id: StreamId, length: int, read_from: int) -> None:
        self._replays, self._decoder, self._game_id, self._length = replays, decoder(ruleset), game_id, length
        self._read: dict[int, Any] = {}
        self._load(1, 1)
        self._load(max(1, read_from), length)

    def _load(self, first: int, last: int) -> None:
        """Events `first` to `last` (versions, inclusive), unless already read."""
        missing = [v for v in range(first, last + 1) if v not in self._read]
        if not missing:
            return
        rows = self._replays.read_from(self._game_id, missing[0] - 1, missing[-1] - missing[0] + 1)
        for version, data in rows:
            self._read[version] = self._decoder.decode(data)

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):  # a part, read only when it is used (`restore` keeps its prefix so)
            return _Part(self, range(self._length)[index])
        position = index + self._length if index < 0 else index
        if not 0 <= position < self._length:
            raise IndexError(index)
        return self.at(position)

    def at(self, position: int) -> Any:
        self._load(position + 1, position + 1)
        return self._read[position + 1]

    def span(self, positions: range) -> list[Any]:
        if positions:
            self._load(min(positions) + 1, max(positions) + 1)
        return [self._read[p + 1] for p in positions]


class _Part(Sequence[Any]):
    """Some of a `StreamEvents`, read when first used, all at once."""

    def __init__(self, whole: StreamEvents, positions: range) -> None:
        self._whole, self._positions = whole, positions

    def __len__(self) -> int:
        return len(self._positions)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return _Part(self._whole, self._positions[index])
        return self._whole.at(self._positions[index])

    def __iter__(self) -> Iterator[Any]:
        return iter(self._whole.span(self._positions))


def game_step(
    records: Records,
    principal: Principal,
    club_id: str,
    game_id: str,
    step: int | None,
    view: str,
    seat: int | None,
    *,
    words: Words = english,
) -> dict[str, Any]:
    """The replay viewer at `step` (the last one the principal may see when None), told in `words`."""
    replays = Replays.of(records)
    record, ruleset = replays.game(club_id, game_id)
    horizon = replays.horizon(principal, record.stream_id)
    # The narration is the viewer's too (G-2): a seat's replay names its own draws, the public's none.
    viewer = viewer_of(principal, view, seat, len(record.player_ids))
    indexed = told_up_to(replays, ruleset, record.stream_id, horizon, viewer, words)
    told = indexed.replay
    last = len(told.steps)
    at = last if step is None else step
    if not 1 <= at <= last:
        raise NotFound("step", f"{at} (this game has steps 1 to {last})")
    # Seek from the latest snapshot before the step (view_at folds to the step before it, then applies
    # the step): only the events after it are read.
    stream = record.stream_id
    snaps = [s for s in replays.snapshots(ruleset, stream, at) if s.version < at][-1:]
    events = StreamEvents(replays, ruleset, stream, at, snaps[0].version if snaps else 1)
    shown = view_at(ruleset, events, at, viewer, snaps, words=words)
    current = told.steps[at - 1]
    return {
        "game": record,
        "ruleset": ruleset,
        "replay": told,
        "step": current,
        "last": last,
        "held_back": replays.held_back(record),
        "viewer": viewer,
        "view_query": view_query(viewer),
        "choices": view_choices(principal, viewer, told.players),
        "picture": picture_of(ruleset, shown, words),
        "changes": changes_of(ruleset, shown) if at > 1 else [],
        "window": told.steps[max(0, at - 1 - WINDOW) : at + WINDOW],
        "chapters": indexed.chapters_near(current),
        "chapter_label": chapter_label,
        "players": sorted(told.players, key=lambda p: p.seat),
        # Who won, at the last step the viewer may see, as that viewer may know it.
        "verdict": verdict_at(ruleset, events, at, viewer, snaps) if at == last else None,
        **notes.at_step(records, principal, record, viewer, told.steps, horizon, at, told.players),
        **lines.at_step(records, principal, record, at),
        "line_views": lines.view_options(told.players),
    }


_TOLD: Recent[tuple[str, str, str, int, Viewer, str], Told] = of_games(64)


def told_up_to(
    replays: Replays,
    ruleset: Ruleset,
    game_id: StreamId,
    horizon: int | None,
    viewer: Viewer,
    words: Words = english,
) -> Told:
    """The game narrated for `viewer` up to `horizon` (all of it when None), told in `words`. A record only
    grows, so the narration of its first N events never changes: it is remembered per game, length, viewer
    and language (a step page then folds only from the nearest snapshot, as the API's does)."""
    length = replays.length(game_id) if horizon is None else horizon
    key = (game_id, ruleset.name, ruleset.version, length, viewer, getattr(words, "language", "en"))
    told = _TOLD.get(key)
    if told is None:
        told = Told.of(replay(ruleset, replays.events(ruleset, game_id, up_to=length), viewer, words=words))
        _TOLD.put(key, told)
    return told


def changes_of(ruleset: Ruleset, shown: StepView) -> list[str]:
    """What a step changed: in the game's own words where it tells them, else the view's differences read
    plainly."""
    if shown.said is not None:
        return list(shown.said)
    return change_lines(shown.view, [(c.path, c.op, c.old, c.new) for c in shown.changes], ruleset.value_words)


def picture_of(ruleset: Ruleset, shown: StepView, words: Words = english) -> Any:
    """The game's own picture of the view (inlined SVG) with its words in `words`, or the view as a
    readable list when the game draws none. Either is drawn from the view the viewer may see, never from
    the state."""
    return drawn(ruleset, shown.view, [tuple(str(p) for p in c.path) for c in shown.changes if c.path], words)


def drawn(ruleset: Ruleset, view: Any, changed: Sequence[tuple[str, ...]], words: Words = english) -> Markup:
    """A view (as plain data) drawn by the game's picture in `words`, or as a readable list when it has
    none."""
    if ruleset.picture is not None:
        return Markup(ruleset.picture(view, changed, words))
    return state_html(view, changed)


def live_table(records: Records, club_id: str, game_id: str, *, words: Words = english) -> dict[str, Any]:
    """The live page as it opens: the public view at the last step spectators may see (the stream that
    follows holds steps back the same way)."""
    replays = Replays.of(records)
    record, ruleset = replays.game(club_id, game_id)
    stream = record.stream_id
    delay = Spectators.of(records).delay(stream)
    horizon = replays.public_horizon(stream)
    events = replays.events(ruleset, stream, up_to=horizon)
    told = replay(ruleset, events, Viewer.public(), words=words)
    at = len(told.steps)
    snaps = replays.snapshots(ruleset, stream, at)
    shown = view_at(ruleset, events, at, Viewer.public(), snaps)
    return {
        "game": record,
        "ruleset": ruleset,
        "replay": told,
        "step": told.steps[-1],
        "last": at,
        "picture": picture_of(ruleset, shown, words),
        "window": told.steps[max(0, at - 2 * WINDOW) :],
        "delay": delay,
        "delay_text": delay_text(delay),
        "players": sorted(told.players, key=lambda p: p.seat),
    }


def delay_text(delay: SpectatorDelay) -> Message | None:
    events = _.ngettext("{count} event", "{count} events", delay.events) if delay.events else None
    seconds = _.ngettext("{count} second", "{count} seconds", delay.seconds) if delay.seconds else None
    if events is not None and seconds is not None:
        return _("{events} and {seconds}", events=events, seconds=seconds)
    return events or seconds


def club_home(records: Records, club_id: str) -> dict[str, Any]:
    clubs, collections = Clubs.of(records), ClubCollections.of(records)
    club = clubs.club(club_id)
    recent = clubs.games(club_id, GameFilter(limit=30))
    recent.sort(key=lambda g: g.created_at, reverse=True)
    return {
        "club": club,
        "live": [g for g in recent if not g.finished],
        "finished": [g for g in recent if g.finished],
        "leagues": collections.ids("league", club_id),
        "campaigns": collections.ids("campaign", club_id),
        "tournaments": Tournaments.of(records).listed(club_id),
        "players": clubs.menu(club_id),  # retired and merged ones on the players page only
        "names": clubs.names(club_id),
        "titles": {r.name: r.title for r in records.rulesets},
        "verdicts": outcomes.verdicts(records, club_id, recent),
        "rated": outcomes.rated_games(records, club_id),
    }


def explained_rows(table: Standings) -> list[tuple[Row, Message | str]]:
    """Each row of the standings with why it is above the next (the tie-break that separates them, in
    words; blank when the next is below on the first criterion alone or there is no next)."""
    # Each separation as a message (its `text` is English), told in the reader's language by the template.
    rows = {row.player_id: row for row in table.rows}
    why = {(s.upper, s.lower): separation_message(rows[s.upper], rows[s.lower], s.criterion) for s in table.separations}
    return [
        (row, why.get((row.player_id, table.rows[i + 1].player_id), "") if i + 1 < len(table.rows) else "")
        for i, row in enumerate(table.rows)
    ]


def league_page(records: Records, club_id: str, league_id: str, as_of: date | None) -> dict[str, Any]:
    collections = ClubCollections.of(records)
    league, _ = collections.league(club_id, league_id)
    table = collections.standings(club_id, league_id, as_of)
    explained = explained_rows(table)
    ruleset = records.rulesets.get(league.ruleset)
    return {
        "league": league,
        "table": table,
        "rows": explained,
        "title": ruleset.title,
        "counted": sum(1 for g in table.games if g.counted),
        "names": {r.player_id: r.name for r in table.rows},
    }


class RuleHint(msgspec.Struct, frozen=True, kw_only=True):
    """A rule id as the pages show it: a link to its entry in the rules reference, its words on hover."""

    rule_id: str
    url: str
    hint: str


def rule_hint(ruleset: Ruleset, rule_id: str, language: str = "en") -> RuleHint:
    """The rules reference's entry for `rule_id` (issue 17: "the club pages show it on hover"): its title
    and first paragraph in the reader's language, shortened to a tooltip's length."""
    entry = rules_reference.entry_for(ruleset, rule_id, language)
    if entry is None:
        return RuleHint(rule_id=rule_id, url=rule_url(ruleset.name, rule_id), hint=rule_id)
    first = " ".join(entry.text.split("\n\n")[0].split())
    hint = f"{entry.rule_id}: {entry.title}. {first}"
    return RuleHint(rule_id=rule_id, url=rule_url(ruleset.name, rule_id), hint=hint[:400])


def campaign_page(records: Records, club_id: str, campaign_id: str, words: Translator = ENGLISH) -> dict[str, Any]:
    campaign, ruleset, games, status = ClubCollections.of(records).status(club_id, campaign_id, words=words)
    unit = games[0].result.score_unit if games else ""
    names = _names(records, club_id, campaign, status.status.totals)
    counted = [(s.game_id, s.status) for s in status.steps if s.counted]
    return {
        "campaign": campaign,
        "title": ruleset.title,
        "status": status,
        "unit": unit,
        "names": names,
        "plot": campaign_plot(counted, names, unit, status.status.target, words),
        "decisive": next((s.game_id for s in status.steps if s.counted and s.status.finished), None),
        "rules": {s.rule_id: rule_hint(ruleset, s.rule_id, words.language) for s in status.steps if s.rule_id},
        "points": points,
        "unit_word": unit_word(unit),
    }


def _names(records: Records, club_id: str, campaign: Campaign, totals: dict[str, int]) -> dict[str, str]:
    """Label -> the name people read (a team's label joins its players' ids with "+")."""
    known = Clubs.of(records).names(club_id, campaign.players)
    labels = list(totals) or list(campaign.players)
    return {label: " & ".join(known.get(part, part) for part in label.split("+")) for label in labels}


def player_page(records: Records, club_id: str, player_id: str) -> dict[str, Any]:
    clubs, collections = Clubs.of(records), ClubCollections.of(records)
    people = clubs.people(club_id)  # a merged record's page is its person's, with both records' games
    clubs.player(club_id, player_id)
    player_id = people(player_id)
    player = clubs.player(club_id, player_id)
    ids = people.records_of(player_id, [p.player_id for p in clubs.players(club_id)])
    found = {g.game_id: g for pid in ids for g in clubs.games(club_id, GameFilter(player_id=pid, limit=200))}
    games = sorted(found.values(), key=lambda g: g.created_at, reverse=True)
    summaries = collections.summaries(club_id, [g.game_id for g in games])
    results = []
    for game in games:
        summary = summaries.get(game.game_id)
        line: str | Message = _("in progress")
        if summary is not None and summary.outcome.finished:
            line = _result_line(people.seated(summary.players), summary.outcome.result, player_id)
        results.append((game, line))
    leagues = [
        league.league_id for league, _ in collections.leagues(club_id) if player_id in people.ids(league.members)
    ]
    return {
        "also": ids[1:],
        "player": player,
        "results": results,
        "leagues": leagues,
        "names": clubs.names(club_id),
        "titles": {r.name: r.title for r in records.rulesets},
        "played": outcomes.played_games(records, club_id, player_id, games),
        "ratings": outcomes.player_ratings(records, club_id, player_id),
    }


def _result_line(players: Sequence[Player], result: Any, player_id: str) -> Message:
    seat = next((p.seat for p in players if p.player_id == player_id), None)
    mine = next((p for p in result.players if p.seat == seat), None)
    if result.void:
        return _("void game")
    if mine is None:
        return _("finished")
    score = {"score": points(mine.score, result.score_unit), "unit": unit_word(result.score_unit)}
    if seat in result.winners:
        return _("won, {score} {unit}", **score)
    if mine.placement:
        return _("placed {place}, {score} {unit}", place=str(mine.placement), **score)
    return _("finished, {score} {unit}", **score)


def game_title(record: GameRecord, told: Replay) -> str:
    names = " · ".join(p.name for p in sorted(told.players, key=lambda p: p.seat))
    return record.title or names
