"""The club's ratings page (issue 27): for one game, the ladder with each player's rating and its
uncertainty, and a player's rating over time drawn as the campaign plot is (`service.pages.outcomes`)."""

from __future__ import annotations

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import FromPath, FromQuery
from litestar.response import Template

from service.http.dependencies import RequestContext
from service.pages import outcomes
from service.pages.controllers import MEMBER_GUARDS, club_links, page_template


class RatingsPages(Controller):
    path = "/club/{club_id:str}/ratings"
    guards = MEMBER_GUARDS
    include_in_schema = False

    @get("/{ruleset:str}", sync_to_thread=True)
    def ratings(
        self,
        club_id: FromPath[str],
        ruleset: FromPath[str],
        context: NamedDependency[RequestContext],
        player: FromQuery[str | None] = None,
    ) -> Template:
        page = outcomes.ratings_page(context.records, club_id, ruleset, player, context.words)
        return page_template("ratings.html", context.principal, club_links(club_id), **page)


HANDLERS = [RatingsPages]
