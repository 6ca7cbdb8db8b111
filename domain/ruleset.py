"""The contract every game implements.

`service/` and `projections/` reach a game only through `Ruleset` (found by name in the
`domain.registry.Rulesets` they are given), so adding a game never touches them. The shape follows the
Decider pattern: `initial(setup)`, `validate(state, event)` (raises `RuleError`),
`evolve(state, event) -> state`.
A replay is `reduce(evolve, events, initial(setup))` (see `domain.record.fold`).

The contract is one frozen dataclass, `Ruleset[StateT, EventT]`, rather than a Protocol: every game
is a package of plain functions (`setup.initial`, `rules.validate`, `legal.legal_events`...), so a
game's `RULESET` is assembled from them instead of a class whose methods only forward to its modules;
the optional members get their defaults in one place, so callers read them as attributes instead of
`getattr` with a fallback; and the type parameters let mypy check each game's functions against its
own state and event types (`RULESET: Ruleset[State, MillesNautiquesEvent] = Ruleset(...)`). Code that
serves any game writes plain `Ruleset` (its parameters are then `Any`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

import msgspec

from domain.i18n import Catalogue, Message, Teller, english

_ = Catalogue("domain")


class RuleError(Exception):
    """A reported event that cannot have happened under the rules (G-1).

    `rule_id` is its entry's id in the rules reference (`domain/**/RULES.md`, e.g. `MN-6`), `code` a stable
    machine name, `message` a sentence a club member understands (in English; `said` is the same as a
    `Message` the service tells in the reader's language, where the game made it one), `details` the facts
    that led to it.
    """

    def __init__(self, rule_id: str, code: str, message: str | Message, **details: Any) -> None:
        self.message = english(message)
        super().__init__(f"{rule_id}: {self.message}")
        self.rule_id = rule_id
        self.code = code
        self.said = message
        self.details = details


MAX_RESOURCE_ERRORS = 100
"""The errors a resource's parser keeps; past them it only counts (a file of 490,000 bad rows must not
build 490,000 errors to list the first hundred)."""


class ResourceErrors(list[dict[str, Any]]):
    """The errors a resource's parser finds: the first `limit` kept, the others only counted in `omitted`."""

    def __init__(self, limit: int = MAX_RESOURCE_ERRORS) -> None:
        super().__init__()
        self.limit = limit
        self.omitted = 0

    def append(self, error: dict[str, Any]) -> None:
        if len(self) < self.limit:
            super().append(error)
        else:
            self.omitted += 1

    def extend(self, errors: Iterable[Mapping[str, Any]]) -> None:
        for error in errors:
            self.append(dict(error))

    @property
    def total(self) -> int:
        """How many errors were found, kept or not."""
        return len(self) + self.omitted


class ResourceError(Exception):
    """A club resource (a card catalogue, a scenario) that does not parse; one entry per bad row, and
    `omitted`, the count of further errors found but not kept (`ResourceErrors`).

    The sentence and each row's `message` may be a `Message`: `message` and `errors` are then in English
    (as the logs and the CLI say them), and `said` (the whole error's) and `rows_said` (each row's, in the
    order of `errors`) keep them as messages the service tells in the reader's language."""

    def __init__(self, message: str | Message, errors: Sequence[Mapping[str, Any]] = ()) -> None:
        self.message = english(message)
        super().__init__(self.message)
        self.errors = [{**row, "message": english(row["message"])} if "message" in row else dict(row) for row in errors]
        self.omitted = errors.omitted if isinstance(errors, ResourceErrors) else 0
        self.said = message
        self.rows_said: tuple[str | Message, ...] = tuple(row.get("message", "") for row in errors)


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event struct. Subclasses set an explicit, namespaced, never-renamed tag
    (`tag="milles_nautiques.miles_played"`) and may raise `schema_version` when they gain fields
    (new fields always get defaults, so stored events still decode)."""

    schema_version: ClassVar[int] = 1


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """A player at the table. `player_id` is the club's player id. `name` is the name shown in replays.
    `seat` is the seat (0-based, clockwise / to the left). `team` is the team number in team games."""

    player_id: str
    name: str
    seat: int
    team: int | None = None


class ResourceRef(msgspec.Struct, frozen=True, kw_only=True):
    """A club resource embedded in a game's set-up, so the fold never needs storage: the game
    records which catalogue or scenario it was played with and its parsed content. `kind` is the
    resource kind (`catalogue`, `scenario`). `resource_id` and `version` name the club's resource.
    `content_hash` is the hash of its content. `content` is the parsed content itself."""

    kind: str
    resource_id: str
    version: int
    content_hash: str
    content: Any


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """How a game starts. `players` are the players and their seats. `variant` is the rules variant.
    `options` are the game's own options (each ruleset converts them into its own struct). `resources`
    are the club resources it was played with, by kind."""

    players: tuple[Player, ...]
    variant: str = "standard"
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    resources: dict[str, ResourceRef] = msgspec.field(default_factory=dict)

    def seat_of(self, player_id: str) -> int | None:
        """The seat of a club player at this table, if seated."""
        for player in self.players:
            if player.player_id == player_id:
                return player.seat
        return None


class Viewer(msgspec.Struct, frozen=True, kw_only=True):
    """Who looks at a state (G-2): everyone (`public`), one seat (`seat`), or the record (`full`)."""

    kind: Literal["public", "seat", "full"] = "public"
    seat: int | None = None

    @classmethod
    def public(cls) -> Viewer:
        return cls(kind="public")

    @classmethod
    def full(cls) -> Viewer:
        return cls(kind="full")

    @classmethod
    def of_seat(cls, seat: int) -> Viewer:
        return cls(kind="seat", seat=seat)

    def sees(self, seat: int | None) -> bool:
        """Whether this viewer sees what `seat` holds in secret: the full record sees every seat, a seat
        sees its own, the public none."""
        return self.kind == "full" or (self.kind == "seat" and seat is not None and self.seat == seat)


class PlayerResult(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's score. `seat` is the seat. `score` is an integer in the ruleset's `score_unit`
    (half-points for Milles Nautiques: never floats). `placement` is the seat's place (1 = best, shared on
    ties). `breakdown` splits the score (convoy, capture, bonus...)."""

    seat: int
    score: int
    placement: int | None = None
    breakdown: dict[str, int] = msgspec.field(default_factory=dict)


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of a state: finished or not, scores, placements (1 = best, shared on ties) and
    the winning seats. A void game (nobody scores) is finished with no winner."""

    finished: bool
    score_unit: str
    players: tuple[PlayerResult, ...]
    winners: tuple[int, ...] = ()
    void: bool = False
    reported: bool = False
    """Reported as a result, the game not recorded event by event (G-6)."""


class ReportedResult(msgspec.Struct, frozen=True, kw_only=True):
    """A game played at the table but recorded by its result only (G-6). `players` gives each seat's
    score in the ruleset's unit and, where the table gives them, placements (1 = best, shared on ties;
    all or none). Without placements, they follow the scores (higher first)."""

    players: tuple[PlayerResult, ...]


def checked_report(
    setup: Setup,
    report: ReportedResult,
    *,
    score_unit: str,
    lowest: int = 0,
    highest: int | None = None,
    ties_split: bool = True,
) -> Result:
    """The checks every game makes of a reported result (G-6), and the `Result` it stands for: one entry
    per seat of the set-up, scores within [`lowest`, `highest`], partners of a team with one score and
    one placement, placements all given or none, ranked as placements are (1, 1, 3), and a higher score
    placed above a lower one (equal scores may be placed apart where the game's tie-breaks split them:
    `ties_split`)."""
    _check_seats(setup, report)
    _check_scores(report, lowest, highest)
    players = _placed(report)
    placement = {p.seat: int(p.placement or 0) for p in players}
    score = {p.seat: p.score for p in players}
    for seat, place in placement.items():
        _check_rank(place, placement)
        _check_order(seat, placement, score, ties_split)
    _check_partners(setup, placement, score)
    ordered = tuple(sorted(players, key=lambda p: p.seat))
    winners = tuple(p.seat for p in ordered if p.placement == 1)
    return Result(finished=True, score_unit=score_unit, players=ordered, winners=winners, reported=True)


def _check_seats(setup: Setup, report: ReportedResult) -> None:
    """One entry per seat of the set-up (G-6)."""
    seats = sorted(p.seat for p in setup.players)
    reported = sorted(p.seat for p in report.players)
    if reported != seats:
        raise RuleError(
            "G-6",
            "reported_seats",
            _("A reported result gives one score for each of the {count} seats.", count=len(seats)),
            seats=seats,
            reported=reported,
        )


def _check_scores(report: ReportedResult, lowest: int, highest: int | None) -> None:
    """Every score within the game's bounds (G-6)."""
    for entry in report.players:
        if entry.score < lowest or (highest is not None and entry.score > highest):
            raise RuleError(
                "G-6",
                "score_out_of_bounds",
                _("Seat {seat}'s score is out of the game's bounds.", seat=entry.seat + 1),
                seat=entry.seat,
                score=entry.score,
                lowest=lowest,
                highest=highest,
            )


def _placed(report: ReportedResult) -> tuple[PlayerResult, ...]:
    """The reported seats with their placements: as given when all are, by score when none is (G-6)."""
    given = [p.placement for p in report.players if p.placement is not None]
    players = report.players
    if not given:
        return tuple(
            msgspec.structs.replace(p, placement=1 + sum(1 for q in report.players if q.score > p.score))
            for p in report.players
        )
    if len(given) != len(players):
        raise RuleError("G-6", "placements_partial", _("Give every seat's placement, or none."))
    return players


def _check_rank(place: int, placement: Mapping[int, int]) -> None:
    """A place is one more than the places above it: 1, 1, 3 (G-6)."""
    if place != 1 + sum(1 for other in placement.values() if other < place):
        raise RuleError(
            "G-6",
            "placements_inconsistent",
            _("Placements run from 1, shared places skipping the next ones (1, 1, 3)."),
            placements=dict(sorted(placement.items())),
        )


def _check_order(seat: int, placement: Mapping[int, int], score: Mapping[int, int], ties_split: bool) -> None:
    """`seat` placed above every seat it outscored, and beside every seat it tied with unless the game's
    tie-breaks split them (G-6)."""
    place = placement[seat]
    for other, other_place in placement.items():
        if (score[seat] > score[other] and place >= other_place) or (
            not ties_split and score[seat] == score[other] and place != other_place
        ):
            raise RuleError(
                "G-6",
                "placements_inconsistent",
                _(
                    "Seat {seat} scored more than seat {other} but is not placed above it.",
                    seat=seat + 1,
                    other=other + 1,
                )
                if score[seat] > score[other]
                else _(
                    "Seats {seat} and {other} scored the same: they share their place.",
                    seat=seat + 1,
                    other=other + 1,
                ),
                placements=dict(sorted(placement.items())),
            )


def _check_partners(setup: Setup, placement: Mapping[int, int], score: Mapping[int, int]) -> None:
    """Partners of a team share their score and their place (G-6)."""
    teams: dict[int, tuple[int, int]] = {}
    for player in setup.players:
        if player.team is None:
            continue
        mine = (score[player.seat], placement[player.seat])
        if teams.setdefault(player.team, mine) != mine:
            raise RuleError(
                "G-6",
                "partners_apart",
                _("Partners of a team share their score and their place."),
                team=player.team,
            )


class Narration(msgspec.Struct, frozen=True, kw_only=True):
    """How a replay tells one event: a plain-English line, the seat that acted (None for the table
    or an automatic consequence) and the chapters it belongs to, outermost first, each as
    (kind, number), e.g. (("round", 2), ("turn", 14)). `message` is the line as a `Message`, which the
    service tells in the reader's language, where the game made it one (`text` is then its English)."""

    text: str
    seat: int | None = None
    chapters: tuple[tuple[str, int], ...] = ()
    message: Message | None = None

    @classmethod
    def told(cls, message: Message, seat: int | None = None, chapters: tuple[tuple[str, int], ...] = ()) -> Narration:
        """A line made as a message, with its English text beside it."""
        return cls(text=message.english(), seat=seat, chapters=chapters, message=message)

    def in_words(self, words: Teller) -> str:
        """The line as a reader reads it: `text` itself for an English reader (the message told once, not
        again: a recorder's look-ahead tells thousands), else the message told in the reader's language."""
        if self.message is None or words is english or getattr(words, "language", None) == "en":
            return self.text
        return words(self.message)


class SeriesGame(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game of a series (campaign), as the series rules see it."""

    setup: Setup
    result: Result


def player_totals(games: Iterable[SeriesGame]) -> dict[str, int]:
    """Each club player's score summed over a series' games (a seat missing from a result scores 0)."""
    totals: dict[str, int] = {}
    for game in games:
        for player in game.setup.players:
            score = next((p.score for p in game.result.players if p.seat == player.seat), 0)
            totals[player.player_id] = totals.get(player.player_id, 0) + score
    return totals


class SeriesStatus(msgspec.Struct, frozen=True, kw_only=True):
    """Where a series of games towards a target stands (AS-16, MN-17, a Mémoire 44 match).

    `totals` maps club player ids (or team labels) to cumulative scores in the ruleset's unit."""

    totals: dict[str, int]
    finished: bool
    winners: tuple[str, ...] = ()
    next_dealer: str | None = None
    note: str = ""
    target: int | None = None
    """The total that ends the series, in the same unit, where there is one (pages draw it as a line)."""


class ResourceKind(Protocol):
    """A kind of club resource a ruleset reads (Atlantic Storm's card catalogue, a Mémoire 44
    scenario): parsed and validated from the file a club imports, with the ones the project ships."""

    name: str
    media_types: tuple[str, ...]

    def parse(self, data: bytes) -> Any:
        """Parse and validate an imported file; returns JSON-able content or raises ResourceError."""
        ...

    def builtin(self) -> Mapping[str, bytes]:
        """The resources the project ships, by id."""
        ...


TEAM_TABLE_ONLY = "x-team-table-only"
"""In a set-up option's JSON Schema (`msgspec.Meta(extra_json_schema={TEAM_TABLE_ONLY: True})`): the option
applies only when the game is played in teams (`Ruleset.team_counts`), so a form asks for it only then."""


class Picture(Protocol):
    """A game's picture of a view (`Ruleset.picture`)."""

    def __call__(self, view: Any, changed: Sequence[tuple[str, ...]] = (), words: Teller = english) -> str: ...


ValueWords = Callable[[Sequence[str], Any], str | None]
"""A game's own words for a value of its view at a path of keys (`Ruleset.value_words`); None for plain
words."""

StateT = TypeVar("StateT")
"""A game's state: a frozen msgspec struct (snapshots decode it with `state_type`)."""
EventT = TypeVar("EventT")
"""A game's events: the tagged union of its event structs."""

HandledT = TypeVar("HandledT")
"""The one event type of the union a dispatch table's handler takes."""
ResultT = TypeVar("ResultT")
"""What a dispatch table's handlers return (None for a validator, the state for an evolver)."""

Dispatch = dict[type[EventT], Callable[[StateT, EventT], ResultT]]
"""A game's dispatch table (`rules._VALIDATORS: Dispatch[Event, State, None]`, `rules._EVOLVERS: Dispatch[Event,
State, State]`): the handler of each event type of the game's union. Made by `dispatch` from `on` entries, so
mypy checks each handler against the event type it is keyed by and the table's state and result types (that
the keys are the union's types, no more and no fewer, tests/domain/test_game_packages.py checks)."""


def on(
    kind: type[HandledT], handler: Callable[[StateT, HandledT], ResultT]
) -> tuple[type[Any], Callable[[StateT, Any], ResultT]]:
    """One entry of a dispatch table: `handler` takes the events of type `kind` (mypy checks that it does)."""
    return kind, handler


def dispatch(*entries: tuple[type[Any], Callable[[StateT, Any], ResultT]]) -> Dispatch[EventT, StateT, ResultT]:
    """A dispatch table from its `on` entries. A handler takes one type of the union, and the table gives it
    only events of that type (looked up by `type(event)`), so the table may call it with the union."""
    return dict(entries)


@dataclass(frozen=True, kw_only=True, eq=False)
class Ruleset(Generic[StateT, EventT]):
    """What a game provides to the rest of tablelog, assembled from the functions of its package
    (every game package has the same modules; `tests/domain/test_game_packages.py` checks it)."""

    name: str
    """The ruleset's stable name (`milles-nautiques`)."""
    version: str
    """The rules core's version, recorded in every game's first event (G-5)."""
    title: str
    event_type: Any
    """The tagged union of the game's event structs (a `typing.Union`, which is no `type[EventT]`)."""
    state_type: type[StateT]
    """The frozen struct type of the game's state (snapshots decode it)."""
    resource_kinds: Mapping[str, ResourceKind]
    """The kinds of club resource the game reads, by name."""
    initial: Callable[[Setup], StateT]
    """The state before any event; raises RuleError for a set-up the game cannot be played with."""
    validate: Callable[[StateT, EventT], None]
    """Raise RuleError if `event` cannot happen at `state`; return None if it can."""
    evolve: Callable[[StateT, EventT], StateT]
    """Apply an accepted event, with every automatic consequence; never validates."""
    view: Callable[[StateT, Viewer], Any]
    """What `viewer` may see of `state` (G-2), as msgspec-encodable data."""
    result: Callable[[StateT, Viewer], Result]
    """Finished or not, scores and placements, as `viewer` may know them (G-2): an unfinished game's
    score never counts a card the viewer has not seen."""
    legal_events: Callable[[StateT, int], list[EventT] | None]
    """The events `seat` may report at `state`, where the game can enumerate them (None where it
    cannot). Events the table reports about chance (draws, dice) are listed by form only where their
    outcome is unknown to the record. An event may be listed with a part left null that the table must
    name before it is true (Atlantic Storm's cut: each convoy shown): the rules refuse it as listed, and the
    recording page asks for each null part."""
    narrate: Callable[[StateT, EventT, StateT, Viewer], Narration]
    """One replay line for `event`, given the states around it, told as `viewer` may know it (G-2): the
    public line never names a card the public has not seen; the full record's tells all."""
    series_status: Callable[[Sequence[SeriesGame]], SeriesStatus]
    """The ruleset's series rules (campaigns) over finished games in order."""
    # Optional members (the defaults fit a game that says nothing of them):
    picture: Picture | None = None
    """Draws a view (what `view` returns) as an SVG document; `changed` are the paths (as in
    projections.diff) that changed from the step before, to highlight; its words (labels, legend, side
    names) told with `words`, the reader's language as the narration takes it. None: no picture."""
    # What the API documents about a game's set-up and events (`GET /rulesets/{name}`, the OpenAPI
    # document): the variants it accepts, the struct its options convert to, and the names an event
    # field may hold (field name -> allowed values: card or unit names), where the game has fixed ones.
    variants: tuple[str, ...] = ("standard",)
    options_type: type | None = None
    field_values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    field_descriptions: Mapping[str, str] = field(default_factory=dict)
    """What a field that many of the game's events share means (field name -> one sentence), where the
    event's own docstring does not say it: Milles Nautiques' `convoy` number, for example."""
    player_counts: tuple[int, ...] = ()
    """How many players the game takes (empty: not stated)."""
    team_counts: tuple[int, ...] = ()
    """How many players may play in teams, each `Player.team` naming a seat's team (empty: the game has
    no teams, and the page starting a game asks for none)."""
    score_scale: int = 1
    """Score units in one point people read (2 where scores are kept in half-points)."""
    series_next: Callable[[Sequence[SeriesGame], Setup], None] | None = None
    """Raise RuleError when `setup` cannot be the next game of a series after these finished games."""
    series_told: Callable[[Sequence[SeriesGame]], Message | None] | None = None
    """The note of `series_status` as a message, told in the reader's language (None: the game's notes
    are English only, or there is nothing to note)."""
    option_words: Mapping[str, tuple[Message, Message | None]] = field(default_factory=dict)
    """Each set-up option's label and hint as messages (the start form tells them in the reader's language);
    an option missing here is shown by its name and its schema's English description."""
    seat_sides: Callable[[Setup], tuple[str, ...]] | None = None
    """In a two-sided game, the side each seat commands (None where seats are not sides)."""
    field_names: Callable[[StateT], Mapping[str, Sequence[tuple[str, str]]]] | None = None
    """At a state, the names an event field may hold where they come from the game's resources (a
    catalogue's card numbers), each with the words people read: the recording page offers them for a card
    the record does not know yet (None: `field_values` says it all)."""
    what_changed: Callable[[StateT, StateT, Viewer], Sequence[Message]] | None = None
    """What a step changed, from the state before it to the state after, as lines in the game's own words
    (points as people count them, cards and units by their printed names, sides and players by name, never
    a field of the state), told as `viewer` may know it (G-2: a hidden score is said to be hidden, never
    0). None: the pages fall back to a plain reading of the view's differences."""
    extensions: Callable[[StateT, EventT], list[EventT]] | None = None
    """The events that report a listed `event` with one thing more, each legal now (a card added to a
    play), where the game lists its choices a piece at a time rather than every combination (Atlantic
    Storm's plays from a hand dealt face down): the recording page offers them after a tap. None: every
    choice is listed whole."""
    extensible: Callable[[EventT], bool] | None = None
    """Whether `extensions` may find more for `event` (cheap: the page marks those choices)."""
    choice_group: Callable[[StateT, EventT], tuple[int, Message]] | None = None
    """The group a listed event belongs to on the recording page, by what the table is doing, as (rank,
    name): lower ranks first (a naval battle's defence before the rest). None: grouped by event type."""
    seat_fields: tuple[str, ...] = ("seat",)
    """The event fields that name a seat (the recording page offers the players, Seat 1 to N)."""
    value_words: ValueWords | None = None
    """A value of the view, at its path of keys, in the game's own words where plain words would not do
    (a hex kept as [row, column], named as on the board); None leaves it to the reader's plain words."""
    reported_result: Callable[[Setup, ReportedResult], Result] | None = None
    """The result of a game played at the table and recorded by its result only (G-6): checks what the
    game can of it (the set-up, scores within its bounds, placements consistent with scores, most with
    `checked_report`) and returns it as `result` would a finished game's; raises RuleError. None: the game
    takes no result-only record."""
    known: Callable[[StateT, EventT, StateT, Viewer], Sequence[EventT]] | None = None
    """`event` as `viewer` knew it when it took the record from state `before` to `after`: every card it
    names that the viewer did not see turned unknown (None, as the record writes a card dealt or drawn face
    down, G-2), followed by what the step showed the viewer of cards it had not known (a convoy turned face
    up at the end of a round), as the game's own events. The fold of a record's events so told is the game
    as that viewer knew it: a "what if" line from a view starts there, so asking its rules can never tell a
    hidden card. None: the game's events hide nothing."""
    rules_package: str | None = None
    """The package whose `RULES.md` holds the game's rules reference (None: the package that defines
    `state_type`, as every game package does)."""
