"""The club's settings page (record key): today its default language, the one its pages and the API's
texts speak to a reader who chose none and whose browser asks for none of ours (issue 26)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.enums import RequestEncodingType
from litestar.exceptions import ValidationException
from litestar.params import Body, FromPath
from litestar.response import Redirect, Template

from service.http.language import club_languages
from service.i18n import LANGUAGES, language_names
from service.pages.controllers import MEMBER_GUARDS, Links
from service.pages.recording import RECORD
from service.usecases.access import Principal
from service.usecases.clubs import Clubs


class SettingsForm(msgspec.Struct, frozen=True, kw_only=True):
    language: str = ""


class ClubSettingsPage(Controller):
    path = "/club/{club_id:str}/settings"
    guards = MEMBER_GUARDS
    include_in_schema = False
    opt = RECORD

    @get("/", sync_to_thread=True)
    def settings(self, club_id: FromPath[str], principal: NamedDependency[Principal], state: State) -> Template:
        club = Clubs.of(state.records).club(club_id)
        return Template(
            template_name="settings.html",
            context={
                "links": Links(base=f"/club/{club_id}", club_id=club_id),
                "principal": principal,
                "club": club,
                "languages": language_names(LANGUAGES),
            },
        )

    @post("/", sync_to_thread=True, status_code=303)
    def change(
        self,
        club_id: FromPath[str],
        state: State,
        data: Annotated[SettingsForm, Body(media_type=RequestEncodingType.URL_ENCODED)],
    ) -> Redirect:
        language = data.language or None
        if language is not None and language not in LANGUAGES:
            raise ValidationException(detail=f"{language!r} is not a language tablelog speaks.")
        club = Clubs.of(state.records).set_language(club_id, language)
        club_languages(state).changed(club_id, club.language)
        return Redirect(path=f"/club/{club_id}/settings", status_code=303)
