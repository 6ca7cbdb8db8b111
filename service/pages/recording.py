"""The scorekeeper's recording page (issue 12): start a game from a form, then record it by choosing among
the events the rules allow now, checked before they are sent and again by the server.

The page never holds a copy of the rules: the server describes what may happen next as data (`Choices`),
each legal event with a label the game writes itself (its narration of that event: `narrate(state,
event, evolve(state, event))`), and a bounded look-ahead (the choices after each choice, a few levels,
states met twice described once) so a page that loses its connection can keep checking taps against
what it last knew. Taps past the look-ahead are queued as "checked when sent" (see the guide's
docs/how-to/record-at-the-table.md). Events go in through the same use case as the API's append
(`GameRecords.append`: expected version, idempotency key, the rules' check), so a refusal is the same
problem details.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery, HeaderParameter, JSONBody
from litestar.response import Redirect, Template
from markupsafe import Markup

from domain.i18n import english
from domain.record import Folded, GameStarted, decoder
from domain.ruleset import TEAM_TABLE_ONLY, RuleError, Ruleset, Viewer
from projections.replay import Step, opening, tell
from projections.words import Teller as Words
from service.cache import Recent, of_games
from service.http.dependencies import RequestContext
from service.http.errors import PROBLEMS, exception_handlers
from service.http.event_schemas import ruleset_event_schema
from service.http.wire import AppendBody, AppendDTO, AppendOut
from service.logs import bind
from service.pages import reads
from service.pages.controllers import MEMBER_GUARDS, STATIC, Links
from service.usecases.access import Principal
from service.usecases.clubs import Clubs
from service.usecases.games import NewGame, Records, ResourceChoice, SeatSpec, accept_batch, heavy
from service.usecases.replays import Replays
from service.usecases.types import GameRecord, StoredEvent, StreamId, VersionConflict

LOOK_AHEAD_TABLES = 16
"""States described ahead of the current one (breadth first): enough for a turn or two of taps while
the Wi-Fi is down, small enough that answering a tap stays a few milliseconds (bench.recording, Milles
Nautiques: the next tap offered at once for 93 % of a round's taps against 94 % with 24 states, three
in a row for 51 % against 61 %, at three quarters of the look-ahead's CPU per tap and half its weight)."""
LOOK_AHEAD_DEPTH = 3
LOOK_AHEAD_CHOICES = 120
"""Choices described in all (the current state's are always all there): a Mémoire 44 turn's moves are
many, and the page's answer must stay small. A crowded turn's next tables are as long as its own, and
240 choices described one or two of the dozens its moves lead to: the next tap offered at once for 42 %
of the taps against 36 %, and Atlantic Storm with every hand face down 72 against 60 %, for 1.3 and 1.8
times the look-ahead's CPU and twice its weight (65 KB at most against 31)."""
TOLD_LINES = 12
MAX_SEATS = 8
"""Seats on the start form where the game states no player counts (otherwise its largest count)."""


def script_json(text: str) -> str:
    """JSON text safe inside a `<script type="application/json">`: every `<` written `\\u003c` (the same
    character to a JSON parser), so no `</script>` ends the block early and no `<!--<script` in a name
    turns the rest of the page into script data."""
    return text.replace("<", "\\u003c")


class Choice(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One event a seat may report, as the page offers it: the event (the API's JSON), the game's own
    words for it, and the index of the table of choices after it in the look-ahead (None: not known).
    `blank`: the rules refuse it as listed, until each of its null parts is named (the page asks for
    them); `more`: the game may add to it (`Ruleset.extensions`, asked for on a tap)."""

    event: dict[str, Any]
    label: str
    then: int | None  # always sent: null says "not known" (the page checks such a tap when it is sent)
    blank: bool = False
    more: bool = False
    group: str = ""
    """The group the page shows it in, by what the table is doing (`Ruleset.choice_group`); empty: by
    event type."""


class SeatChoices(msgspec.Struct, kw_only=True):
    seat: int
    name: str
    enumerable: bool
    """False where the game cannot list what may happen (the page offers a form built from the schema)."""
    choices: list[Choice]


class Table(msgspec.Struct, kw_only=True):
    """What every seat may report at one state."""

    seats: list[SeatChoices]


class Line(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    text: str
    voided: bool = False


class Choices(msgspec.Struct, kw_only=True):
    """The recording page's data at a version: the picture, the last narration lines, and the tables of
    choices (the first is now; the others are the look-ahead, reached through `Choice.then`)."""

    game_id: str
    version: int
    finished: bool
    picture: str
    told: list[Line]
    tables: list[Table]
    names: dict[str, list[tuple[str, str]]] = msgspec.field(default_factory=dict)
    """Names a field may hold that come from the game's resources (`field_names`), with their words."""
    seat_fields: list[str] = msgspec.field(default_factory=lambda: ["seat"])
    """The event fields that name a seat (the page offers the players, counted from 1, never a number)."""


class More(msgspec.Struct, kw_only=True):
    """What the game may add to a tapped choice (`Ruleset.extensions`), each one tap."""

    choices: list[Choice]


# -- what may happen next -----------------------------------------------------------------------------------
def label_of(ruleset: Ruleset, state: Any, event: Any, words: Words = english) -> tuple[str, Any]:
    """The game's own line for `event` at `state` (its narration, in `words`), and the state after it."""
    after = ruleset.evolve(state, event)
    # The scorekeeper records the whole table: the full record's words name the card a choice names.
    told = ruleset.narrate(state, event, after, Viewer.full())
    return told.in_words(words), after


def told_apart(choices: Sequence[Choice], seat_fields: Sequence[str] = ("seat",)) -> None:
    """Where the game's words are the same for different events (its narration is written as the table
    sees it, so a convoy laid face down reads alike whatever its card), add the fields they differ in (a
    seat counted from 1, as people count them)."""
    alike: dict[str, list[Choice]] = {}
    for choice in choices:
        alike.setdefault(choice.label, []).append(choice)
    for group in alike.values():
        if len(group) < 2:
            continue
        names = [k for k in group[0].event if len({msgspec.json.encode(c.event.get(k)) for c in group}) > 1]
        for choice in group:
            parts = [f"{k.replace('_', ' ')} {_plain(choice.event.get(k), k in seat_fields)}" for k in names]
            choice.label = f"{choice.label} ({', '.join(parts)})"


def _has_null(value: Any) -> bool:
    if isinstance(value, str | int):
        return False
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_null(v) for v in value)
    return False


def as_choice(ruleset: Ruleset, at: Any, event: Any, words: Words) -> tuple[Choice, Any]:
    """A listed event as the page offers it, and the state after it (None for a blank choice, whose null
    parts must be named first: it is told as the table sees it now, and nothing is looked at past it)."""
    shown = msgspec.to_builtins(event)
    if _has_null(shown):
        try:
            ruleset.validate(at, event)
        except RuleError:
            told = ruleset.narrate(at, event, at, Viewer.full())
            label = told.in_words(words)
            return Choice(event=shown, label=label, then=None, blank=True), None
    label, after = label_of(ruleset, at, event, words)
    choice = Choice(event=shown, label=label, then=None)
    if ruleset.extensible is not None and ruleset.extensible(event):
        choice.more = True
    return choice, after


def _plain(value: Any, seat: bool = False) -> str:
    if seat and isinstance(value, int):
        return str(value + 1)
    if value is None:
        return "not named"
    if isinstance(value, list | tuple):
        return " ".join(_plain(v) for v in value) or "none"
    return str(value).replace("_", " ")


class _Described(msgspec.Struct, frozen=True):
    """One seat's choices at one state, as every look-ahead that meets the state shows them: in the order
    shown (`then` left to each look-ahead), and the state after each listed choice, in listing order, with
    the index of its choice among those shown (None after a blank choice). `identities` keeps each after
    state's digest once a look-ahead has needed it (a tap's look-ahead meets the same states as the last
    one: hashed once, not at every tap)."""

    enumerable: bool
    shown: list[Choice]
    afters: list[tuple[int, Any]]
    identities: dict[int, bytes] = msgspec.field(default_factory=dict)

    def identity_after(self, index: int) -> bytes:
        known = self.identities.get(index)
        if known is None:
            known = self.identities[index] = _identity(self.afters[index][1])
        return known


DESCRIBED: Recent[tuple[str, str, str, bytes, int], _Described] = Recent(512)
"""Each state's choices, by the state's digest and seat: a tap lands on a state the last look-ahead described
and looks ahead from it, so each state's choices (the game's narration and fold of each) are worked out once
and shared by the taps, pages and devices that meet it."""


def _language(words: Words) -> str:
    return str(getattr(words, "language", "en"))


def _key(ruleset: Ruleset, identity: bytes, seat: int, words: Words) -> tuple[str, str, str, bytes, int]:
    return (ruleset.name, ruleset.version, _language(words), identity, seat)


def _described(
    ruleset: Ruleset, at: Any, identity: bytes, seat: int, words: Words, listed: Sequence[Any] | None = None
) -> _Described:
    """The choices of `seat` at `at` (remembered, else worked out from `listed`, the legal events when
    the caller has them already)."""
    key = _key(ruleset, identity, seat, words)
    known = DESCRIBED.get(key)
    if known is not None:
        return known
    if listed is None:
        listed = ruleset.legal_events(at, seat)
    choices, afters = [], []
    for event in listed or []:
        choice, after = as_choice(ruleset, at, event, words)
        choices.append(choice)
        afters.append(after)
    told_apart(choices, ruleset.seat_fields)
    shown = grouped(ruleset, at, listed, choices, words) if ruleset.choice_group is not None and listed else choices
    where = {id(choice): index for index, choice in enumerate(shown)}
    known = _Described(
        enumerable=listed is not None,
        shown=shown,
        # In the order shown: the look-ahead's budget goes first to what the table is doing (the game's
        # groups: a naval battle's defence before its attacks), the taps most likely next.
        afters=[(where[id(choice)], after) for choice, after in zip(choices, afters, strict=True)],
    )
    DESCRIBED.put(key, known)
    return known


def _listings(
    ruleset: Ruleset, names: Mapping[int, str], at: Any, identity: bytes, words: Words, room: int | None
) -> dict[int, _Described] | None:
    """Every seat's choices at `at`, or None when they are more than `room` (None: no bound). The choices
    are counted from the legal events before any is narrated: a table past the budget costs its listing,
    not a narration and a fold per choice."""
    known = {seat: DESCRIBED.get(_key(ruleset, identity, seat, words)) for seat in names}
    listed: dict[int, Sequence[Any] | None] = {}
    count = 0
    for seat, described in known.items():
        if described is not None:
            count += len(described.shown)
        else:
            listed[seat] = ruleset.legal_events(at, seat)
            count += len(listed[seat] or ())
    if room is not None and count > room:
        return None
    return {
        seat: described if described is not None else _described(ruleset, at, identity, seat, words, listed[seat])
        for seat, described in known.items()
    }


def choices_now(ruleset: Ruleset, names: Mapping[int, str], state: Any, words: Words = english) -> list[SeatChoices]:
    """Every seat's choices at `state`, with no look-ahead (`then` left unknown): a page that shows them
    and sends each tap as it comes (a line's)."""
    identity = _identity(state)
    seats = []
    for seat, name in sorted(names.items()):
        listed = _described(ruleset, state, identity, seat, words)
        seats.append(SeatChoices(seat=seat, name=name, enumerable=listed.enumerable, choices=list(listed.shown)))
    return seats


def look_ahead(ruleset: Ruleset, names: Mapping[int, str], state: Any, words: Words = english) -> list[Table]:
    """The choices at `state` and, breadth first, after each of them (bounded); a state met twice is
    described once (its encoding is its identity: the fold is deterministic)."""
    tables: list[Table] = []
    seen: dict[bytes, int] = {}
    # Each state waiting: the state, how its digest is found (the description listing it remembers it),
    # the choice that reaches it, and its depth.
    pending: deque[tuple[Any, tuple[_Described, int] | None, Choice | None, int]] = deque([(state, None, None, 0)])
    described = 0
    while pending and len(tables) < LOOK_AHEAD_TABLES and (not tables or described < LOOK_AHEAD_CHOICES):
        at, source, reached_by, depth = pending.popleft()
        identity = source[0].identity_after(source[1]) if source is not None else _identity(at)
        if identity in seen:
            if reached_by is not None:
                reached_by.then = seen[identity]
            continue
        listings = _listings(ruleset, names, at, identity, words, LOOK_AHEAD_CHOICES - described if tables else None)
        if listings is None:
            break  # a table past the budget is not described in part (its taps are checked when sent)
        table = Table(seats=[])
        for seat, name in sorted(names.items()):
            listed = listings[seat]
            choices = [msgspec.structs.replace(choice) for choice in listed.shown]  # `then` is this look-ahead's
            if depth + 1 < LOOK_AHEAD_DEPTH:
                pending.extend(
                    (after, (listed, number), choices[index], depth + 1)
                    for number, (index, after) in enumerate(listed.afters)
                    if after is not None
                )
            table.seats.append(SeatChoices(seat=seat, name=name, enumerable=listed.enumerable, choices=choices))
            described += len(choices)
        seen[identity] = len(tables)
        if reached_by is not None:
            reached_by.then = len(tables)
        tables.append(table)
    return tables


def grouped(ruleset: Ruleset, at: Any, listed: Sequence[Any], choices: list[Choice], words: Words) -> list[Choice]:
    """The choices named by their group, the groups in the game's order (each kept in listing order)."""
    assert ruleset.choice_group is not None
    ranked = []
    for index, (event, choice) in enumerate(zip(listed, choices, strict=True)):
        rank, name = ruleset.choice_group(at, event)
        choice.group = words(name)
        ranked.append((rank, index, choice))
    return [choice for _, _, choice in sorted(ranked, key=lambda r: (r[0], r[1]))]


def _identity(state: Any) -> bytes:
    """A state's identity in the look-ahead: the digest of its encoding (equal states built the same way
    encode alike; a miss only repeats work). MessagePack is fast (a state holds its whole card catalogue);
    pickle for a state it cannot encode."""
    try:
        encoded = msgspec.msgpack.encode(state)
    except (TypeError, msgspec.EncodeError):
        encoded = pickle.dumps(state)
    return hashlib.blake2b(encoded, digest_size=16).digest()


_CHOICES: Recent[tuple[StreamId, int, str], Choices] = of_games(64)
"""The choices at each game's latest versions, per language: computed once per new state, for the tap that
reached it and every page or device that asks next (a version of a stream never changes)."""
_TOLD: Recent[tuple[StreamId, str], tuple[Folded, list[Step]]] = of_games(256)
"""Each game's narration as the scorekeeper reads it (the full record), per language, as far as told, with
the fold it ends on: a tap tells only its new events (`projections.replay.tell`) and folds nothing again."""


def choices_of(game_id: str, folded: Folded, steps: Sequence[Step], words: Words = english) -> Choices:
    """The recording page's data at `folded` (its narration's `steps` so far): the picture, the last lines
    told and the choices with their look-ahead."""
    ruleset = folded.ruleset
    names = {p.seat: p.name for p in folded.setup.players}
    view = ruleset.view(folded.state, Viewer.full())
    return Choices(
        game_id=game_id,
        version=folded.version,
        finished=folded.finished,  # worked out once per fold (the append asked it already)
        picture=str(reads.drawn(ruleset, msgspec.to_builtins(view), [], words)),
        told=[Line(version=s.version, text=s.text, voided=s.voided) for s in steps[-TOLD_LINES:]],
        tables=look_ahead(ruleset, names, folded.state, words),
        names=resource_names(ruleset, folded.state),
        seat_fields=list(ruleset.seat_fields),
    )


def choices_at(records: Records, record: GameRecord, folded: Folded, words: Words = english) -> Choices:
    """The choices at `folded` (remembered, else worked out with the game narrated as the pages read it)."""
    key = (record.stream_id, folded.version, _language(words))
    known = _CHOICES.get(key)
    if known is None:
        told = reads.told_up_to(
            Replays.of(records), folded.ruleset, record.stream_id, folded.version, Viewer.full(), words
        )
        known = choices_of(record.game_id, folded, told.replay.steps, words)
        _CHOICES.put(key, known)
    return known


async def choices_after(records: Records, club_id: str, game_id: str, version: int, words: Words) -> Choices:
    """The choices at `version`, which a tap has just recorded: at most one read of the store (the events
    the narration has not told yet, awaited as the API awaits its append), the narration, picture and
    choices worked out once in a heavy worker thread (a crowded turn's look-ahead is tens of milliseconds)."""
    stream = await records.stream_async(club_id, game_id)  # remembered by the append: no statement
    key = (stream, version, _language(words))
    known = _CHOICES.get(key)
    if known is not None:
        return known
    told = _TOLD.get((stream, key[2]))
    if told is not None and told[0].version > version:
        told = None  # another tap told the game further: this answer is at its own version
    after = told[0].version if told is not None else 0
    stored = await records.events_async(club_id, game_id, after, version - after) if version > after else []
    return await heavy(functools.partial(_told_and_chosen, records, game_id, stream, told, stored, version, words))


def _told_and_chosen(
    records: Records,
    game_id: str,
    stream: StreamId,
    told: tuple[Folded, list[Step]] | None,
    stored: Sequence[StoredEvent],
    version: int,
    words: Words,
) -> Choices:
    """The narration `told` carried on by the events `stored` (from the start when None), remembered, and
    the choices at its end."""
    if told is None:
        ruleset = records.rulesets.get(msgspec.json.decode(stored[0].data, type=GameStarted).ruleset)
        folded, first = opening(ruleset, [decoder(ruleset).decode(stored[0].data)], words=words)
        steps, stored = [first], stored[1:]
    else:
        folded, steps = told[0], list(told[1])  # a copy: another tap may be telling the same game
    read = decoder(folded.ruleset)
    for event in stored:
        folded, _voided = tell(
            folded.ruleset, folded, read.decode(event.data), event.version, steps, Viewer.full(), words=words
        )
    if folded.version != version:  # the stream is shorter than the append said: never expected
        raise VersionConflict(game_id, version, folded.version)
    language = _language(words)
    latest = _TOLD.get((stream, language))
    if latest is None or latest[0].version < folded.version:
        _TOLD.put((stream, language), (folded, steps))
    choices = choices_of(game_id, folded, steps, words)
    _CHOICES.put((stream, version, language), choices)
    return choices


def more_of(ruleset: Ruleset, state: Any, event: Any, words: Words = english) -> More:
    """The choices that add to `event` at `state`, in the game's words."""
    found = ruleset.extensions(state, event) if ruleset.extensions is not None else []
    choices = [as_choice(ruleset, state, extended, words)[0] for extended in found]
    told_apart(choices, ruleset.seat_fields)
    return More(choices=choices)


def resource_names(ruleset: Ruleset, state: Any) -> dict[str, list[tuple[str, str]]]:
    listed = ruleset.field_names(state) if ruleset.field_names is not None else {}
    return {field: list(values) for field, values in listed.items()}


@functools.cache
def event_schema(ruleset: Ruleset) -> str:
    """The ruleset's events as one JSON Schema document (the page builds its small forms from it)."""
    return msgspec.json.encode(ruleset_event_schema(ruleset)).decode()


# -- starting a game ----------------------------------------------------------------------------------------
def option_fields(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The set-up options as form fields (name, kind, default, description, whether only a team table takes
    it), from the options struct's schema."""
    if ruleset.options_type is None:
        return []
    schema = msgspec.json.schema(ruleset.options_type)
    body = next(iter(schema.get("$defs", {}).values()), schema)
    fields = []
    for name, prop in body.get("properties", {}).items():
        kinds = {p.get("type") for p in prop.get("anyOf", [prop])}
        kind = "integer" if "integer" in kinds else "list" if "array" in kinds else "text"
        label, hint = ruleset.option_words.get(name, (name.replace("_", " ").capitalize(), None))
        fields.append(
            {
                "name": name,
                "kind": kind,
                "default": prop.get("default"),
                "label": label,
                "description": hint or prop.get("description", ""),
                "team_table_only": bool(prop.get(TEAM_TABLE_ONLY)),
            }
        )
    return fields


def option_values(ruleset: Ruleset, form: Mapping[str, str]) -> dict[str, Any]:
    """The options filled in (blank ones left to the game's defaults)."""
    options: dict[str, Any] = {}
    for field in option_fields(ruleset):
        raw = form.get(f"option_{field['name']}", "").strip()
        if not raw:
            continue
        if field["kind"] == "integer":
            options[field["name"]] = int(raw) if raw.lstrip("-").isdigit() else raw
        elif field["kind"] == "list":
            options[field["name"]] = [part.strip() for part in raw.split(",") if part.strip()]
        else:
            options[field["name"]] = raw
    return options


def resource_choices(records: Records, club_id: str, ruleset: Ruleset) -> dict[str, list[str]]:
    """Per kind of resource: the club's imported ones, then the ones the project ships."""
    club = [r for r in Clubs.of(records).resources(club_id) if r.ruleset == ruleset.name]
    out: dict[str, list[str]] = {}
    for kind, reader in ruleset.resource_kinds.items():
        ids = sorted({r.resource_id for r in club if r.kind == kind}) + sorted(reader.builtin())
        out[kind] = list(dict.fromkeys(ids))
    return out


def new_game_of(ruleset: Ruleset, form: Mapping[str, str]) -> NewGame:
    seats: list[SeatSpec] = []
    for seat in seat_range(ruleset):
        player = form.get(f"seat_{seat}", "").strip()
        if player:
            team = form.get(f"team_{seat}", "").strip()
            seats.append(SeatSpec(player_id=player, seat=len(seats), team=int(team) if team.isdigit() else None))
    resources = {
        kind: ResourceChoice(resource_id=form[f"resource_{kind}"])
        for kind in ruleset.resource_kinds
        if form.get(f"resource_{kind}", "").strip()
    }
    return NewGame(
        ruleset=ruleset.name,
        players=seats,
        variant=form.get("variant", "standard") or "standard",
        options=option_values(ruleset, form),
        resources=resources,
        title=form.get("title", "").strip(),
    )


def seat_range(ruleset: Ruleset | None) -> range:
    """The seats the start form offers: as many as the game takes at most."""
    return range(max(ruleset.player_counts) if ruleset is not None and ruleset.player_counts else MAX_SEATS)


def problem_words(request: Request[Any, Any, Any], error: Exception) -> dict[str, Any]:
    """The problem details the API would answer for `error` (the same table), for a page to show."""
    for kind in type(error).__mro__:
        handler = PROBLEMS.get(kind)
        if handler is not None:
            return dict(msgspec.to_builtins(handler(request, error).content))
    raise error


def _form_page(
    records: Records, principal: Principal, club_id: str, ruleset: Ruleset | None, **extra: Any
) -> dict[str, Any]:
    return {
        "links": reads_links(club_id),
        "principal": principal,
        "rulesets": records.rulesets,
        "ruleset": ruleset,
        "players": Clubs.of(records).menu(club_id),  # retired and merged ones left out, names told apart
        "seats": seat_range(ruleset),
        "options": option_fields(ruleset) if ruleset else [],
        "resources": resource_choices(records, club_id, ruleset) if ruleset else {},
        "form": {},
        "problem": None,
        **extra,
    }


def reads_links(club_id: str) -> Links:
    return Links(base=f"/club/{club_id}", club_id=club_id)


RECORD = {"needs": "record"}


class RecordPages(Controller):
    """The pages a record key's session opens: a new game's form and a game's recording page."""

    path = "/club/{club_id:str}"
    guards = MEMBER_GUARDS
    include_in_schema = False
    opt = RECORD

    @get("/games/new", sync_to_thread=True)
    def new_game_form(
        self,
        club_id: FromPath[str],
        context: NamedDependency[RequestContext],
        ruleset: FromQuery[str | None] = None,
    ) -> Template:
        chosen = context.records.rulesets.get(ruleset) if ruleset else None
        return Template(
            template_name="new_game.html", context=_form_page(context.records, context.principal, club_id, chosen)
        )

    @post("/games/new", status_code=303)
    async def start_game(
        self,
        club_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        form = {k: str(v) for k, v in (await request.form()).items()}
        ruleset = context.records.rulesets.get(form.get("ruleset", ""))  # an unknown one: the API's 404 problem
        try:
            record, _ = context.records.create_game(club_id, new_game_of(ruleset, form), context.recorder)
        except Exception as error:  # shown as the API's problem details, in words (unknown errors re-raise)
            page = _form_page(context.records, context.principal, club_id, ruleset, form=form)
            page["problem"] = problem_words(request, error)
            return Template(template_name="new_game.html", context=page, status_code=422)
        return Redirect(path=f"/club/{club_id}/games/{record.game_id}/record", status_code=303)

    @get("/games/{game_id:str}/record", sync_to_thread=True)
    def record_page(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> Template:
        record = context.records.game(club_id, game_id)
        folded = context.records.folded(record)
        payload = choices_at(context.records, record, folded, context.words)
        return Template(
            template_name="record.html",
            context={
                "links": reads_links(club_id),
                "principal": context.principal,
                "game": record,
                "ruleset": folded.ruleset,
                "players": sorted(folded.setup.players, key=lambda p: p.seat),
                "payload": script_json(msgspec.json.encode(payload).decode()),
                "schema": script_json(event_schema(folded.ruleset)),
                "picture": Markup(payload.picture),
            },
        )

    @get("/record-sw.js", sync_to_thread=False)
    def service_worker(self, club_id: FromPath[str]) -> Response[bytes]:
        """The recording pages' service worker, served from the club's path so it may keep the club's
        recording pages for offline reloads (a worker's scope is its own directory)."""
        del club_id
        body = (STATIC / "record-sw.js").read_bytes()
        return Response(body, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


class Recorded(msgspec.Struct, frozen=True, kw_only=True):
    """The API's answer to the append, with the choices after it (the page shows them next)."""

    appended: AppendOut
    choices: Choices


class RecordApi(Controller):
    """The recording page's JSON calls (problem details on refusal, like the API's)."""

    path = "/club/{club_id:str}/games/{game_id:str}/record"
    guards = MEMBER_GUARDS
    include_in_schema = False
    opt = RECORD
    exception_handlers = exception_handlers()

    # The choices and their look-ahead are up to tens of milliseconds of CPU on a crowded Mémoire 44 turn
    # (bench.recording): worker threads, so they never hold up the loop's other requests.
    @get("/choices", sync_to_thread=True)
    def choices(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        context: NamedDependency[RequestContext],
    ) -> Choices:
        record = context.records.game(club_id, game_id)
        return choices_at(context.records, record, context.records.folded(record), context.words)

    @post("/check", sync_to_thread=True, status_code=200, dto=AppendDTO, return_dto=None)
    def check(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[AppendBody],
        context: NamedDependency[RequestContext],
    ) -> Choices:
        """Check events the page has not sent yet on top of the game (nothing is stored): a 409 when the
        game moved on from `expected_version`, the rule's refusal as a 422, else the choices after them
        (no look-ahead: the page reads the verdict, and the tap's own answer brings the look-ahead)."""
        record = context.records.game(club_id, game_id)
        folded = context.records.folded(record)
        if folded.version != data.expected_version:
            raise VersionConflict(game_id, data.expected_version, folded.version)
        after = (
            accept_batch(folded, context.records.decode_batch(folded.ruleset, data.events)) if data.events else folded
        )
        payload = choices_at(context.records, record, folded, context.words)
        if after is folded:
            return payload
        names = {p.seat: p.name for p in folded.setup.players}
        # A copy: the choices at the game's version are remembered and shared (`choices_at`).
        now = choices_now(folded.ruleset, names, after.state, context.words)
        return msgspec.structs.replace(payload, tables=[Table(seats=now)])

    @post("/more", sync_to_thread=True, status_code=200, dto=AppendDTO, return_dto=None)
    def more(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[AppendBody],
        context: NamedDependency[RequestContext],
    ) -> More:
        """What the game may add to the last event of `events` (a card to a play), after the others (the
        page's events not sent yet) on top of the game; nothing is stored."""
        record = context.records.game(club_id, game_id)
        folded = context.records.folded(record)
        if folded.version != data.expected_version:
            raise VersionConflict(game_id, data.expected_version, folded.version)
        events = context.records.decode_batch(folded.ruleset, data.events)
        before = accept_batch(folded, events[:-1]) if len(events) > 1 else folded
        return more_of(folded.ruleset, before.state, events[-1], context.words)

    @post("/events", status_code=201, dto=AppendDTO, return_dto=None)
    async def append(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        data: JSONBody[AppendBody],
        context: NamedDependency[RequestContext],
        state: State,
        idempotency_key: Annotated[str | None, HeaderParameter(name="Idempotency-Key", max_length=200)] = None,
    ) -> Recorded:
        """Record a batch through the API's own use case, awaited as the API awaits it, and answer with the
        choices after it: two statements in all (the append, the events the narration has not told)."""
        result = await context.records.append_async(
            club_id, game_id, data.events, data.expected_version, context.recorder, idempotency_key
        )
        bind(appended=len(data.events), version=result.last_version, replayed=result.replayed)
        return Recorded(
            appended=AppendOut.of(state.tokens, club_id, game_id, result),
            choices=await choices_after(context.records, club_id, game_id, result.last_version, context.words),
        )


HANDLERS = [RecordPages, RecordApi]
