"""The club's administration pages (issue 27), for a `record` key's session (a `read` or `spectate`
session is refused them, and is shown no link to them): leagues, campaigns and tournaments made from a
form with every option the API takes; the games a league or campaign counts, added, left out with a
reason and put back; the club's catalogues and scenarios uploaded; `read` and `spectate` keys made and
revoked; a game's settings. Every form goes through the use cases the API calls: a bad value comes back
beside its field in a person's words, with the values typed kept, and nothing is stored."""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import anyio
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State, UploadFile
from litestar.di import NamedDependency
from litestar.params import FromPath
from litestar.response import Redirect, Template

from domain.i18n import Catalogue, Message
from domain.registry import UnknownRuleset
from domain.ruleset import ResourceError, Ruleset
from projections.campaigns import Campaign
from projections.errors import ProjectionError
from projections.standings import CRITERIA, League, Scoring
from projections.tournaments import System
from service.http.dependencies import RequestContext
from service.limits import TooLarge
from service.memory import one_import
from service.pages.controllers import MEMBER_GUARDS
from service.pages.forms import Errors, Form, form_page, id_of, many_of, read_form, text_of
from service.pages.naming import game_choices, result_words
from service.pages.recording import MAX_SEATS, RECORD, problem_words
from service.usecases.clubs import Clubs
from service.usecases.collections import Action, ClubCollections
from service.usecases.games import NotFound, Records
from service.usecases.keys import Keys
from service.usecases.spectators import Spectators
from service.usecases.tournaments import Tournaments
from service.usecases.types import AlreadyExists, CollectionKind, GameFilter, Scope

_ = Catalogue("service.pages")

TIE_BREAK_SLOTS = 4
SYSTEMS: tuple[System, ...] = ("round_robin", "swiss", "tables")
PAGE_SCOPES: tuple[Scope, ...] = ("read", "spectate")
"""The keys a record key's session makes (a record key is the operator's to make, as over the API)."""
COLLECTION_KINDS: tuple[CollectionKind, ...] = ("league", "campaign")
ACTIONS: dict[str, Action] = {"removal": "removed", "restoration": "restored"}
CRITERION_WORDS = {
    "points": _("league points"),
    "wins": _("wins"),
    "score": _("score (points, VP or medals scored)"),
    "score_difference": _("score difference against each opponent"),
    "head_to_head": _("head-to-head between the players still tied"),
    "sonneborn_berger": _("Sonneborn–Berger (opponents' points, by result against them)"),
    "buchholz": _("Buchholz (opponents' points)"),
    "games_played": _("games played, fewer first"),
}
assert set(CRITERION_WORDS) == set(CRITERIA), "every criterion a league may chain, in words"
SYSTEM_WORDS = {
    "round_robin": _("Round robin: everyone plays everyone (two-player games)"),
    "swiss": _("Swiss: each round pairs players on equal points (two-player games)"),
    "tables": _("Tables: each round seats players at tables of several (multiplayer games)"),
}

# What a refusal of the use cases is, as a field of the form and a person's words. A refusal not listed
# here is shown above the form as the API's problem, in words.
REFUSALS: dict[str, tuple[str, Message]] = {
    "no_criteria": ("tie_breaks", _("Choose at least one way to rank the players.")),
    "unknown_criterion": ("tie_breaks", _("Choose the ranking criteria from the list.")),
    "duplicate_criterion": ("tie_breaks", _("Each criterion may be chosen once.")),
    "no_scoring": (
        "scoring",
        _("Say how a game gives points: per placement, for a win, draw and loss, or the score itself."),
    ),
    "bad_period": ("ends", _("The league must end on or after the day it starts.")),
    "duplicate_member": ("members", _("A member is chosen twice.")),
    "unknown_member": ("members", _("Choose the members among the club's players.")),
    "bad_players": ("players", _("Choose the players among the club's players, each once.")),
    "player_count": ("players", _("This game is not played with that many players.")),
    "bad_table_sizes": ("table_sizes", _("Tables run from a smaller to a larger size, 2 or more.")),
    "table_size_unplayable": ("table_sizes", _("The game is not played at tables of every one of these sizes.")),
    "not_two_player": ("system", _("This pairing is for two-player games: choose tables.")),
    "round_robin": ("system", _("This pairing is for two-player games: choose tables.")),
}


def _ruleset(records: Records, form: Form, errors: Errors) -> Ruleset | None:
    try:
        return records.rulesets.get(text_of(form, "ruleset"))
    except UnknownRuleset:
        errors["ruleset"] = _("Choose a game from the list.")
        return None


def _day(form: Form, name: str, errors: Errors) -> date | None:
    try:
        return date.fromisoformat(text_of(form, name))
    except ValueError:
        errors[name] = _("Give a date (day, month and year).")
        return None


def _whole(form: Form, name: str, errors: Errors, *, low: int = 0, default: int | None = None) -> int | None:
    raw = text_of(form, name)
    if not raw:
        return default
    if not raw.lstrip("-").isdigit() or int(raw) < low:
        errors[name] = _("Give a whole number, {low} or more.", low=low)
        return default
    return int(raw)


def _scoring(form: Form, errors: Errors) -> Scoring:
    """Points per placement ("5, 3, 1": first 5, second 3, third 1), for a win, draw and loss, and the
    score itself, as the form gives them."""
    placement: dict[int, int] = {}
    raw = text_of(form, "placement_points")
    if raw:
        parts = [p for p in re.split(r"[,;\s]+", raw) if p]
        if all(p.isdigit() for p in parts):
            placement = {place: int(p) for place, p in enumerate(parts, start=1)}
        else:
            errors["placement_points"] = _("Give whole numbers, first place's first: 5, 3, 1.")
    wdl = [_whole(form, name, errors) for name in ("win", "draw", "loss")]
    given = [v for v in wdl if v is not None]
    win_draw_loss: tuple[int, int, int] | None = None
    if len(given) == 3:
        win_draw_loss = (given[0], given[1], given[2])
    elif given and not any(n in errors for n in ("win", "draw", "loss")):
        errors["win"] = _("Give the points of a win, a draw and a loss, or none of them.")
    return Scoring(
        placement_points=placement,
        win_draw_loss=win_draw_loss,
        score_as_points=bool(form.get("score_as_points")),
    )


def _tie_breaks(form: Form) -> tuple[str, ...]:
    return tuple(c for i in range(TIE_BREAK_SLOTS) if (c := text_of(form, f"tie_break_{i}")))


def _refused(error: Exception, errors: Errors) -> bool:
    """Put a known refusal beside its field; False when it is not one."""
    code = getattr(error, "code", None)
    if isinstance(error, ProjectionError) and code in REFUSALS:
        field, words = REFUSALS[code]
        errors[field] = words
        return True
    return False


def _options_context(records: Records, club_id: str) -> dict[str, Any]:
    return {
        "rulesets": records.rulesets,
        "players": Clubs.of(records).players(club_id),
        "criteria": CRITERION_WORDS,
        "slots": range(TIE_BREAK_SLOTS),
        "seats": range(MAX_SEATS),
        "systems": SYSTEM_WORDS,
    }


def _new_form(template: str, context: RequestContext, club_id: str) -> Template:
    """A new league's, campaign's or tournament's form, with this year as the period and points first."""
    year = date.today().year
    form = {"starts": f"{year}-01-01", "ends": f"{year}-12-31", "tie_break_0": "points"}
    return form_page(template, context.principal, club_id, form=form, **_options_context(context.records, club_id))


def _collection_kind(request: Request[Any, Any, Any]) -> CollectionKind:
    """`league` or `campaign`, from the path (/club/{club}/leagues/... or /club/{club}/campaigns/...)."""
    return "league" if request.url.path.split("/")[3] == "leagues" else "campaign"


class AdminPages(Controller):
    """Leagues, campaigns, tournaments, resources and keys, made and changed from the club's pages."""

    path = "/club/{club_id:str}"
    guards = MEMBER_GUARDS
    include_in_schema = False
    opt = RECORD

    # -- the overview ---------------------------------------------------------------------------------
    @get("/admin", sync_to_thread=True)
    def overview(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> Template:
        collections = ClubCollections.of(context.records)
        return form_page(
            "admin.html",
            context.principal,
            club_id,
            leagues=collections.leagues(club_id),
            campaigns=collections.campaigns(club_id),
            tournaments=Tournaments.of(context.records).listed(club_id),
            titles={r.name: r.title for r in context.records.rulesets},
        )

    # -- leagues, campaigns, tournaments -----------------------------------------------------------------
    # One handler per path: litestar runs a handler given several paths in a thread once per path.
    @get("/leagues/new", sync_to_thread=True)
    def new_league(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> Template:
        return _new_form("new_league.html", context, club_id)

    @get("/campaigns/new", sync_to_thread=True)
    def new_campaign(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> Template:
        return _new_form("new_campaign.html", context, club_id)

    @get("/tournaments/new", sync_to_thread=True)
    def new_tournament(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> Template:
        return _new_form("new_tournament.html", context, club_id)

    @post("/leagues/new", status_code=303)
    async def create_league(
        self, club_id: FromPath[str], request: Request[Any, Any, Any], context: NamedDependency[RequestContext]
    ) -> Response[Any]:
        form = await read_form(request)
        errors: Errors = {}
        league_id = id_of(form, "league_id", errors)
        ruleset = _ruleset(context.records, form, errors)
        starts, ends = _day(form, "starts", errors), _day(form, "ends", errors)
        scoring = _scoring(form, errors)
        members = many_of(form, "members")
        if not members:
            errors["members"] = _("Choose the league's members.")

        def create() -> None:
            assert ruleset is not None and starts is not None and ends is not None
            league = League(
                league_id=league_id,
                ruleset=ruleset.name,
                members=members,
                starts=starts,
                ends=ends,
                scoring=scoring,
                tie_breaks=_tie_breaks(form),
                automatic=bool(form.get("automatic")),
            )
            ClubCollections.of(context.records).create(club_id, league)

        return self._made(request, context, club_id, "new_league.html", form, errors, create, "league_id")

    @post("/campaigns/new", status_code=303)
    async def create_campaign(
        self, club_id: FromPath[str], request: Request[Any, Any, Any], context: NamedDependency[RequestContext]
    ) -> Response[Any]:
        form = await read_form(request)
        errors: Errors = {}
        campaign_id = id_of(form, "campaign_id", errors)
        ruleset = _ruleset(context.records, form, errors)
        players = tuple(p for i in range(MAX_SEATS) if (p := text_of(form, f"player_{i}")))
        if not players:
            errors["players"] = _("Choose the campaign's players, in seat order.")

        def create() -> None:
            assert ruleset is not None
            campaign = Campaign(
                campaign_id=campaign_id, ruleset=ruleset.name, players=players, automatic=bool(form.get("automatic"))
            )
            ClubCollections.of(context.records).create(club_id, campaign)

        return self._made(request, context, club_id, "new_campaign.html", form, errors, create, "campaign_id")

    @post("/tournaments/new", status_code=303)
    async def create_tournament(
        self, club_id: FromPath[str], request: Request[Any, Any, Any], context: NamedDependency[RequestContext]
    ) -> Response[Any]:
        form = await read_form(request)
        errors: Errors = {}
        tournament_id = id_of(form, "tournament_id", errors)
        ruleset = _ruleset(context.records, form, errors)
        system = next((s for s in SYSTEMS if s == text_of(form, "system")), None)
        if system is None:
            errors["system"] = _("Choose how rounds are paired.")
        title = text_of(form, "title")
        if len(title) > 200:
            errors["title"] = _("A title of 200 characters at most.")
        scoring = _scoring(form, errors)
        low = _whole(form, "table_low", errors, low=2, default=3)
        high = _whole(form, "table_high", errors, low=2, default=5)
        seed = _whole(form, "seed", errors, default=0)
        bye = _whole(form, "bye_points", errors)
        for name in ("table_low", "table_high"):
            if name in errors:
                errors["table_sizes"] = errors.pop(name)

        def create() -> None:
            assert ruleset is not None and system is not None
            assert low is not None and high is not None and seed is not None
            Tournaments.of(context.records).create(
                context.recorder,
                tournament_id=tournament_id,
                ruleset=ruleset.name,
                system=system,
                title=title,
                scoring=scoring,
                tie_breaks=_tie_breaks(form),
                table_sizes=(low, high),
                seed=seed,
                bye_points=bye,
            )

        return self._made(request, context, club_id, "new_tournament.html", form, errors, create, "tournament_id")

    def _made(
        self,
        request: Request[Any, Any, Any],
        context: RequestContext,
        club_id: str,
        template: str,
        form: Form,
        errors: Errors,
        create: Callable[[], None],
        id_field: str,
    ) -> Response[Any]:
        """Make it when the form reads well and the use case takes it; else the form again, each
        problem beside its field (or above the form), the values kept."""
        problem = None
        if not errors:
            try:
                create()
            except (AlreadyExists, ProjectionError, NotFound, UnknownRuleset) as error:
                if isinstance(error, AlreadyExists) or getattr(error, "code", None) == "already_created":
                    errors[id_field] = _("The club already has one of that name: choose another.")
                elif not _refused(error, errors):
                    problem = problem_words(request, error)
        if errors or problem:
            return form_page(
                template,
                context.principal,
                club_id,
                status=422,
                form=form,
                errors=errors,
                problem=problem,
                **_options_context(context.records, club_id),
            )
        return Redirect(path=f"/club/{club_id}/admin", status_code=303)

    # -- the games a league or campaign counts -------------------------------------------------------------
    @get("/leagues/{collection_id:str}/games", sync_to_thread=True)
    def league_games(
        self, club_id: FromPath[str], collection_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> Template:
        return self._games_page(context, club_id, "league", collection_id, {}, {})

    @get("/campaigns/{collection_id:str}/games", sync_to_thread=True)
    def campaign_games(
        self, club_id: FromPath[str], collection_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> Template:
        return self._games_page(context, club_id, "campaign", collection_id, {}, {})

    def _games_page(
        self,
        context: RequestContext,
        club_id: str,
        kind: CollectionKind,
        collection_id: str,
        form: Form,
        errors: Errors,
        status: int = 200,
    ) -> Template:
        collections = ClubCollections.of(context.records)
        definition, game_ids = collections.found(kind, club_id, collection_id)
        counted, removals = collections.counted(kind, club_id, collection_id, game_ids)
        reasons = {r.game_id: r.reason for r in removals if r.action == "removed"}
        games = {g.game_id: g for g in Clubs.of(context.records).games(club_id, GameFilter(limit=500))}
        inside = game_choices(context.records, club_id, [games[g] for g in game_ids if g in games])
        outside = [
            g
            for g in games.values()
            if g.game_id not in game_ids and g.ruleset == definition.ruleset and (kind == "campaign" or g.finished)
        ]
        return form_page(
            "collection_games.html",
            context.principal,
            club_id,
            status=status,
            kind=kind,
            collection_id=collection_id,
            definition=definition,
            automatic=isinstance(definition, League | Campaign) and definition.automatic,
            games=inside,
            counted=set(counted),
            reasons=reasons,
            removals=removals,
            choices=game_choices(context.records, club_id, outside),
            form=form,
            errors=errors,
        )

    @post(["/leagues/{collection_id:str}/games", "/campaigns/{collection_id:str}/games"], status_code=303)
    async def add_game(
        self,
        club_id: FromPath[str],
        collection_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        form = await read_form(request)
        kind = _collection_kind(request)
        errors: Errors = {}
        game_id = text_of(form, "game_id")
        try:
            ClubCollections.of(context.records).assign(kind, club_id, collection_id, game_id)
        except (ProjectionError, NotFound, AlreadyExists) as error:
            code = getattr(error, "code", None)
            errors["game_id"] = (
                _("Choose a game from the list.")
                if isinstance(error, NotFound)
                else _("This game is in already.")
                if isinstance(error, AlreadyExists)
                else _("Only a finished game counts in a league.")
                if code == "game_not_finished"
                else _("That game is of another kind than this one's.")
                if code == "wrong_ruleset"
                else _("This game cannot come next in the campaign: {why}", why=problem_words(request, error)["detail"])
            )
            return self._games_page(context, club_id, kind, collection_id, form, errors, status=422)
        return Redirect(path=f"/club/{club_id}/{kind}s/{collection_id}/games", status_code=303)

    @post(
        [
            "/leagues/{collection_id:str}/games/{game_id:str}/{change:str}",
            "/campaigns/{collection_id:str}/games/{game_id:str}/{change:str}",
        ],
        status_code=303,
    )
    async def change_game(
        self,
        club_id: FromPath[str],
        collection_id: FromPath[str],
        game_id: FromPath[str],
        change: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        """Leave a game out (`removal`) or count it again (`restoration`), with the reason given."""
        form = await read_form(request)
        kind = _collection_kind(request)
        action = ACTIONS.get(change)
        if action is None:
            raise NotFound("change (removal or restoration)", change)
        reason = text_of(form, "reason")
        field = f"reason_{game_id}"
        errors: Errors = {}
        if not reason:
            errors[field] = _("Say why, for the club's record.")
        elif len(reason) > 500:
            errors[field] = _("A reason of 500 characters at most.")
        else:
            try:
                ClubCollections.of(context.records).change(
                    context.recorder, kind, collection_id, game_id, action, reason
                )
            except ProjectionError:
                errors[field] = _("It is so already.")
        if errors:
            return self._games_page(context, club_id, kind, collection_id, {field: reason}, errors, status=422)
        return Redirect(path=f"/club/{club_id}/{kind}s/{collection_id}/games", status_code=303)

    # -- resources --------------------------------------------------------------------------------------
    def _resources_page(
        self, context: RequestContext, club_id: str, form: Form, errors: Errors, status: int = 200, **extra: Any
    ) -> Template:
        kinds = [(ruleset, kind) for ruleset in context.records.rulesets for kind in sorted(ruleset.resource_kinds)]
        shipped = [
            (ruleset.title, kind, resource_id)
            for ruleset, kind in kinds
            for resource_id in sorted(ruleset.resource_kinds[kind].builtin())
        ]
        club = sorted(
            Clubs.of(context.records).resources(club_id),
            key=lambda r: (r.ruleset, r.kind, r.resource_id, -r.version),
        )
        return form_page(
            "resources.html",
            context.principal,
            club_id,
            status=status,
            kinds=kinds,
            shipped=shipped,
            club_resources=club,
            titles={r.name: r.title for r in context.records.rulesets},
            form=form,
            errors=errors,
            **extra,
        )

    @get("/resources", sync_to_thread=True)
    def resources(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> Template:
        return self._resources_page(context, club_id, {}, {})

    @post("/resources", status_code=303)
    async def upload_resource(
        self, club_id: FromPath[str], request: Request[Any, Any, Any], context: NamedDependency[RequestContext]
    ) -> Response[Any]:
        data = await request.form()
        form: Form = {k: v for k, v in data.items() if isinstance(v, str)}
        errors: Errors = {}
        ruleset_name, _sep, kind = text_of(form, "what").partition("/")
        resource_id = id_of(form, "resource_id", errors)
        upload = data.get("file")
        content = await upload.read() if isinstance(upload, UploadFile) else b""
        if not content:
            errors["file"] = _("Choose the file to upload.")
        if not kind:
            errors["what"] = _("Choose what the file is.")
        problem = None
        if not errors:
            # Off the event loop, as the API's import (`service.http.clubs`): a 5 MB file's parse would hold
            # every request of this worker.
            async with one_import(request.app.state.imports):
                try:
                    await anyio.to_thread.run_sync(
                        context.records.import_resource, club_id, ruleset_name, kind, resource_id, content
                    )
                except (ResourceError, TooLarge, NotFound, UnknownRuleset, ProjectionError) as error:
                    problem = problem_words(request, error)
                    if isinstance(error, ResourceError):
                        problem["rows"] = _row_words(error, context.words)
                    traceback.clear_frames(error.__traceback__)  # caught here: `one_import` never sees it
                finally:
                    del content, data, upload
        if errors or problem:
            return self._resources_page(context, club_id, form, errors, status=422, problem=problem)
        return Redirect(path=f"/club/{club_id}/resources", status_code=303)

    # -- keys -------------------------------------------------------------------------------------------
    def _keys_page(self, context: RequestContext, club_id: str, status: int = 200, **extra: Any) -> Template:
        keys = sorted(Keys.of(context.records).keys(club_id), key=lambda k: k.created_at, reverse=True)
        return form_page("keys.html", context.principal, club_id, status=status, keys=keys, **extra)

    @get("/keys", sync_to_thread=True)
    def keys(self, club_id: FromPath[str], context: NamedDependency[RequestContext]) -> Template:
        return self._keys_page(context, club_id)

    @post("/keys", status_code=200)
    async def make_key(
        self, club_id: FromPath[str], request: Request[Any, Any, Any], context: NamedDependency[RequestContext]
    ) -> Template:
        form = await read_form(request)
        errors: Errors = {}
        name = text_of(form, "name")
        scope = next((s for s in PAGE_SCOPES if s == text_of(form, "scope")), None)
        if not name:
            errors["name"] = _("Name the key, to know it again in this list.")
        elif len(name) > 200:
            errors["name"] = _("A name of 200 characters at most.")
        if scope is None:
            errors["scope"] = _("Choose what the key may do.")
        expires = None
        if text_of(form, "expires"):
            day = _day(form, "expires", errors)
            if day is not None:
                expires = datetime(day.year, day.month, day.day, tzinfo=UTC)
                if expires <= datetime.now(UTC):
                    errors["expires"] = _("Give a day after today.")
        if errors:
            return self._keys_page(context, club_id, status=422, form=form, errors=errors)
        assert scope is not None
        key, token = Keys.of(context.records).create_key(club_id, name, scope, expires)
        return self._keys_page(context, club_id, made=key, token=token)

    @get("/keys/{key_id:str}/revoke", sync_to_thread=True)
    def confirm_revoke(
        self, club_id: FromPath[str], key_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> Template:
        """Revoking asks first: this page says what it ends, and its button revokes."""
        key = Keys.of(context.records).key(club_id, key_id)
        return form_page("key_revoke.html", context.principal, club_id, key=key)

    @post("/keys/{key_id:str}/revoke", sync_to_thread=True, status_code=303)
    def revoke_key(
        self, club_id: FromPath[str], key_id: FromPath[str], context: NamedDependency[RequestContext], state: State
    ) -> Redirect:
        keys = Keys.of(context.records)
        key = keys.key(club_id, key_id)
        if key.scope == "record" or key.key_id == context.principal.key_id:
            # A record key is the operator's to revoke (as over the API); this session's own key too.
            raise NotFound("key", key_id)
        keys.revoke_key(club_id, key_id)
        state.authenticator.settle()
        return Redirect(path=f"/club/{club_id}/keys", status_code=303)

    # -- a game's settings -------------------------------------------------------------------------------
    def _settings_page(
        self, context: RequestContext, club_id: str, game_id: str, form: Form, errors: Errors, status: int = 200
    ) -> Template:
        record = context.records.game(club_id, game_id)
        delay = Spectators.of(context.records).delay(record.stream_id)
        collections = ClubCollections.of(context.records)
        member_of = collections.of_game(club_id, game_id)
        joinable = [
            (kind, d.league_id if isinstance(d, League) else d.campaign_id)
            for kind in ("league", "campaign")
            for d, _ids in collections.listed(kind, club_id)
            if d.ruleset == record.ruleset
        ]
        summary = collections.summaries(club_id, [game_id]).get(game_id)
        return form_page(
            "game_settings.html",
            context.principal,
            club_id,
            status=status,
            game=record,
            result=result_words(summary),
            form={"title": record.title, "events": str(delay.events), "seconds": str(delay.seconds), **form},
            errors=errors,
            member_of=member_of,
            joinable=[j for j in joinable if j not in member_of],
        )

    @get("/games/{game_id:str}/settings", sync_to_thread=True)
    def game_settings(
        self, club_id: FromPath[str], game_id: FromPath[str], context: NamedDependency[RequestContext]
    ) -> Template:
        return self._settings_page(context, club_id, game_id, {}, {})

    @post("/games/{game_id:str}/settings", status_code=303)
    async def change_settings(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Response[Any]:
        form = await read_form(request)
        errors: Errors = {}
        title = text_of(form, "title")
        if len(title) > 200:
            errors["title"] = _("A title of 200 characters at most.")
        events = _whole(form, "events", errors, default=0)
        seconds = _whole(form, "seconds", errors, default=0)
        if errors:
            return self._settings_page(context, club_id, game_id, form, errors, status=422)
        assert events is not None and seconds is not None
        record = context.records.game(club_id, game_id)
        if title != record.title:
            context.records.set_title(club_id, game_id, title)
        Spectators.of(context.records).set_delay(record.stream_id, events, seconds)
        state.hub.appended(record.stream_id, None)  # this process's live streams look again now
        return Redirect(path=f"/club/{club_id}/games/{game_id}/settings", status_code=303)

    @post("/games/{game_id:str}/settings/collections", status_code=303)
    async def join_collection(
        self,
        club_id: FromPath[str],
        game_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
    ) -> Response[Any]:
        form = await read_form(request)
        named, _sep, collection_id = text_of(form, "collection").partition(":")
        kind = next((k for k in COLLECTION_KINDS if k == named), None)
        errors: Errors = {}
        if kind is None:
            errors["collection"] = _("Choose a league or campaign from the list.")
        else:
            try:
                ClubCollections.of(context.records).assign(kind, club_id, collection_id, game_id)
            except (ProjectionError, NotFound, AlreadyExists) as error:
                code = getattr(error, "code", None)
                errors["collection"] = (
                    _("Only a finished game counts in a league.")
                    if code == "game_not_finished"
                    else _(
                        "This game cannot come next in the campaign: {why}", why=problem_words(request, error)["detail"]
                    )
                    if isinstance(error, ProjectionError)
                    else _("Choose a league or campaign from the list.")
                )
        if errors:
            return self._settings_page(context, club_id, game_id, form, errors, status=422)
        return Redirect(path=f"/club/{club_id}/games/{game_id}/settings", status_code=303)


def _row_words(error: ResourceError, words: Any) -> list[str]:
    """A file's row errors as lines a person reads: "Row 4, vp: not a whole number"."""
    lines = []
    for row, said in zip(error.errors, error.rows_said, strict=False):
        message = words(said)
        where = []
        if row.get("row") is not None:
            where.append(words(_("Row {row}", row=row["row"])))
        if row.get("hexagon") is not None:  # a scenario's hexagons, by their place in the file's list
            where.append(words(_("Hexagon {hexagon}", hexagon=row["hexagon"])))
        if row.get("field"):
            where.append(str(row["field"]).replace("_", " "))
        lines.append(f"{', '.join(where)}: {message}" if where else message)
    return lines


HANDLERS = [AdminPages]
