"""The club's webhook pages (issue 30), for a `record` key's session: register an endpoint (its address,
the kinds of message it takes, a Discord body or the signed JSON one), its signing secret shown once;
each endpoint's delivery log, a message of it sent again, the endpoint turned off, on, or removed. Every
form calls the webhooks use case the API calls: a bad value comes back beside its field in words (an
address the server will not call says why), the values typed kept, and nothing is stored."""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import FromPath
from litestar.response import Redirect, Template

from domain.i18n import Catalogue
from service.http.dependencies import RequestContext
from service.pages.controllers import MEMBER_GUARDS
from service.pages.forms import Errors, Form, form_page, id_of, many_of, read_form, text_of
from service.pages.recording import RECORD
from service.usecases.types import AlreadyExists, WebhookFormat
from service.usecases.webhooks import KINDS, Kind, RefusedWebhook, Webhooks

_ = Catalogue("service.pages")

KIND_WORDS = {
    "game.finished": _("A game finished, with its result"),
    "game.corrected": _("A game corrected, with its result after it"),
    "standings.changed": _("A league's or campaign's standings changed"),
    "campaign.decided": _("A campaign decided"),
    "round.published": _("A tournament round published"),
    "tournament.event": _("Everything that happens in a tournament"),
    "game.event": _("Every move of every game"),
}
assert set(KIND_WORDS) == set(KINDS), "every kind of message, in words"
FORMAT_WORDS = {
    "standard": _("Signed JSON, for a site or a program"),
    "discord": _("One line of text in the club's language, for a Discord channel"),
}
LOG_LENGTH = 100
"""The latest deliveries an endpoint's page lists."""


def _webhooks(context: RequestContext, state: State) -> Webhooks:
    return Webhooks.of(context.records, refuse_private=state.settings.webhook_refuse_private_addresses)


class WebhookPages(Controller):
    """A club's webhooks: registered, listed with their delivery logs, sent again, turned off or removed."""

    path = "/club/{club_id:str}/webhooks"
    guards = MEMBER_GUARDS
    include_in_schema = False
    opt = RECORD

    def _list_page(
        self, context: RequestContext, state: State, club_id: str, status: int = 200, **extra: Any
    ) -> Template:
        return form_page(
            "webhooks.html",
            context.principal,
            club_id,
            status=status,
            webhooks=_webhooks(context, state).of_club(club_id),
            kinds=KIND_WORDS,
            formats=FORMAT_WORDS,
            **extra,
        )

    @get("/", sync_to_thread=True)
    def listed(self, club_id: FromPath[str], context: NamedDependency[RequestContext], state: State) -> Template:
        return self._list_page(context, state, club_id, form={"kinds": ["game.finished"], "format": "standard"})

    @post("/", status_code=200)
    async def register(
        self,
        club_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Template:
        """Shown again with the secret, this once, when registered; else with each problem by its field."""
        form: Form = await read_form(request)
        form["kinds"] = many_of(form, "kinds")
        errors: Errors = {}
        webhook_id = id_of(form, "webhook_id", errors)
        url = text_of(form, "url")
        if not url:
            errors["url"] = _("Give the address to send the messages to: https://…")
        elif len(url) > 2000:
            errors["url"] = _("An address of 2000 characters at most.")
        kinds: list[Kind] = [k for k in KINDS if k in form["kinds"]]
        if not kinds or len(kinds) != len(form["kinds"]):
            errors["kinds"] = _("Choose at least one kind of message from the list.")
        body: WebhookFormat = "discord" if text_of(form, "format") == "discord" else "standard"
        if not errors:
            try:
                made = await anyio.to_thread.run_sync(  # the use case may ask the resolver: not on the loop
                    lambda: _webhooks(context, state).create(club_id, webhook_id, url, kinds, None, body)
                )
            except AlreadyExists:
                errors["webhook_id"] = _("The club already has one of that name: choose another.")
            except RefusedWebhook as error:
                errors[str(error.details.get("field", "url"))] = error.said
            else:
                return self._list_page(context, state, club_id, made=made, form={"kinds": ["game.finished"]})
        return self._list_page(context, state, club_id, status=422, form=form, errors=errors)

    def _endpoint_page(self, context: RequestContext, state: State, club_id: str, webhook_id: str) -> Template:
        webhooks = _webhooks(context, state)
        return form_page(
            "webhook.html",
            context.principal,
            club_id,
            webhook=webhooks.get(club_id, webhook_id),
            deliveries=webhooks.deliveries(club_id, webhook_id, LOG_LENGTH),
            kinds=KIND_WORDS,
            formats=FORMAT_WORDS,
        )

    @get("/{webhook_id:str}", sync_to_thread=True)
    def endpoint(
        self, club_id: FromPath[str], webhook_id: FromPath[str], context: NamedDependency[RequestContext], state: State
    ) -> Template:
        return self._endpoint_page(context, state, club_id, webhook_id)

    @post("/{webhook_id:str}/resend", status_code=303)
    async def resend(
        self,
        club_id: FromPath[str],
        webhook_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Response[Any]:
        """The message of the log and every one after it sent again (NotFound for one not in the log)."""
        delivery_id = text_of(await read_form(request), "delivery_id")
        _webhooks(context, state).resend_from(club_id, webhook_id, delivery_id)
        return Redirect(path=f"/club/{club_id}/webhooks/{webhook_id}", status_code=303)

    @post("/{webhook_id:str}/enabled", status_code=303)
    async def enable(
        self,
        club_id: FromPath[str],
        webhook_id: FromPath[str],
        request: Request[Any, Any, Any],
        context: NamedDependency[RequestContext],
        state: State,
    ) -> Response[Any]:
        """Turned on (`enabled=1`: its failures forgotten, tried again at once) or off."""
        enabled = text_of(await read_form(request), "enabled") == "1"
        _webhooks(context, state).enable(club_id, webhook_id, enabled)
        return Redirect(path=f"/club/{club_id}/webhooks/{webhook_id}", status_code=303)

    @post("/{webhook_id:str}/removal", sync_to_thread=True, status_code=303)
    def remove(
        self, club_id: FromPath[str], webhook_id: FromPath[str], context: NamedDependency[RequestContext], state: State
    ) -> Response[Any]:
        _webhooks(context, state).delete(club_id, webhook_id)
        return Redirect(path=f"/club/{club_id}/webhooks", status_code=303)


HANDLERS = [WebhookPages]
