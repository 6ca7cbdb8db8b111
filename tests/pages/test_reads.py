"""A step page reads only the set-up and the events after the snapshot it seeks from, and still shows
what the API's replay shows, across snapshots and after a correction that refolds from the start."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.pages.render import change_lines
from service.settings import Settings
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import append, correction, roll
from tests.support.rulesets import RULESETS


@pytest.fixture
def member(tmp_path: Any) -> Iterator[tuple[Api, str]]:
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 't.db'}",
            operator_key=OPERATOR,
            log_format="json",
            run_projector=False,
            snapshot_every=10,
        ),
        rulesets=RULESETS,
    )
    with TestClient(app) as client:
        api = Api(client)
        token = api.club("c1")
        form = client.get("/sign-in").text
        csrf = re.search(r'name="_csrf_token" value="([^"]+)"', form)
        assert csrf is not None
        signed = client.post("/sign-in", data={"key": token, "_csrf_token": csrf.group(1)}, follow_redirects=False)
        assert signed.status_code == 303
        yield api, token


def test_step_pages_past_snapshots_and_a_correction_show_what_the_api_replay_shows(member: tuple[Api, str]) -> None:
    api, token = member
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token, options={"target": 1000})
    append(api, token, game_id, [roll(n % 2, n % 6 + 1) for n in range(30)])
    append(api, token, game_id, [correction(25, "scores misread from step 7 on")])  # voids versions 7 to 31
    append(api, token, game_id, [roll(1, 2), roll(0, 5)])
    replay = api.client.get(f"/clubs/c1/games/{game_id}/replay", headers=api.auth(token)).json()
    for step in (2, 11, 21, 31, 32, 33, 34):
        page = api.client.get(f"/club/c1/games/{game_id}/replay/{step}?view=full")
        assert page.status_code == 200, page.text
        assert "<dt>turn</dt>" in page.text  # a record key's full view
        shown = api.client.get(f"/clubs/c1/games/{game_id}/replay/{step}?view=full", headers=api.auth(token)).json()
        expected = change_lines(shown["view"], [(c["path"], c["op"], c["old"], c["new"]) for c in shown["changes"]])
        listed = re.findall(r"<ul class=\"changes\">(.*?)</ul>", page.text, re.S)
        assert [
            re.sub(r"<.*?>", "", li).replace("&gt;", ">") for li in re.findall(r"<li>(.*?)</li>", listed[0])
        ] == expected, step
        assert 'aria-current="step"' in page.text and replay["steps"][step - 1]["text"] in page.text
    struck = api.client.get(f"/club/c1/games/{game_id}/replay/32").text
    assert "<s>Seat 1 rolls a 6</s>" in struck and "correction at step 32" in struck


def test_a_spectate_session_sees_the_replay_only_as_far_as_the_spectator_delay_and_only_in_public(
    member: tuple[Api, str],
) -> None:
    api, token = member
    api.players("c1", token, "alain", "bea")
    game_id = api.tally_game("c1", token, options={"target": 1000})
    append(api, token, game_id, [roll(n % 2, 3) for n in range(6)])  # versions 2 to 7
    delayed = api.client.put(f"/clubs/c1/games/{game_id}/spectator-delay", json={"events": 2}, headers=api.auth(token))
    assert delayed.status_code == 200
    spectate = api.client.post(
        "/clubs/c1/keys", json={"name": "door", "scope": "spectate"}, headers=api.auth(OPERATOR)
    ).json()["token"]
    api.client.post("/sign-out", data={"_csrf_token": _csrf(api)})
    form = api.client.get("/sign-in").text
    signed = api.client.post("/sign-in", data={"key": spectate, "_csrf_token": _token_in(form)}, follow_redirects=False)
    assert signed.status_code == 303
    latest = api.client.get(f"/club/c1/games/{game_id}")
    assert latest.status_code == 200 and 'data-step="5"' in latest.text  # 7 recorded, 2 held back
    assert api.client.get(f"/club/c1/games/{game_id}/replay/6").status_code == 404
    full = api.client.get(f"/club/c1/games/{game_id}/replay/5?view=full").text
    assert "<dt>turn</dt>" not in full and "Everything (the record)" not in full  # the public view only
    assert api.client.get("/club/c1/shares").status_code == 403  # shares are for record keys


def _token_in(page: str) -> str:
    found = re.search(r'name="_csrf_token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def _csrf(api: Api) -> str:
    return _token_in(api.client.get("/club/c1").text)


def test_a_rule_id_on_a_page_links_its_entry_and_shows_its_words_on_hover() -> None:
    # Issue 17 part 1 / issue 11: a refusal's rule id reads as a link to the rules reference, with the
    # rule's title and first paragraph as its tooltip; the campaign page draws one for a refused game.
    from types import SimpleNamespace

    from jinja2 import Environment, FileSystemLoader

    from domain import rules_reference
    from service.pages import TEMPLATES, i18n
    from service.pages.reads import rule_hint

    ruleset = RULESETS.get("milles-nautiques")
    hint = rule_hint(ruleset, "MN-17")
    entry = rules_reference.entry_for(ruleset, "MN-17")
    assert entry is not None and hint.url == "/rulesets/milles-nautiques/rules/MN-17"
    assert hint.hint.startswith(f"MN-17: {entry.title}. ") and len(hint.hint) <= 400
    totals = SimpleNamespace(totals={}, finished=False, next_dealer=None, note="", target=None)
    refused = SimpleNamespace(
        game_id="g2", counted=False, note="refused by rule MN-17: not the same players", rule_id="MN-17", status=totals
    )
    html = (
        i18n.prepare(Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True))
        .get_template("campaign.html")
        .render(
            campaign=SimpleNamespace(campaign_id="winter"),
            title="Milles Nautiques",
            names={},
            status=SimpleNamespace(status=totals, steps=[refused]),
            rules={"MN-17": hint},
            decisive=None,
            plot="",
            points=lambda total, unit: total,
            unit="",
            unit_word="",
            links=SimpleNamespace(game=lambda game_id: None, home=lambda: "/club/c1"),
            principal=None,
        )
    )
    link = re.search(r'<a class="rule" href="([^"]+)" title="([^"]+)"><abbr[^>]*>MN-17</abbr></a>', html)
    assert link is not None and link.group(1) == hint.url
    assert link.group(2).startswith("MN-17: ") and entry.title in link.group(2)
