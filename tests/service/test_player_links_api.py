"""Players take part from their phones (issue 28 part 4) over HTTP on both backends: the organiser makes a
player link per entry (a share link of kind `player`, listed per tournament, replaced and revoked); by it a
player checks in, sees their published pairing, reports their table's result and confirms or disputes the
other's; two matching reports close the table with its result-only game, a mismatch waits for the
organiser's decision; each step an event of the tournament naming the player. The bad input of a player is
refused with nothing stored, and a player link reaches its own routes only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from service.http.ratelimit import SESSION_COOKIE
from testkit.waiting import wait_until
from tests.service.api_support import OPERATOR, Api
from tests.service.test_projector_support import append, projection_api, roll
from tests.service.test_tournament_evening_api import PLAYERS, club, get, points, post, settled, stored


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    with projection_api(database_url) as client:
        yield client


def links(api: Api, token: str) -> dict[str, str]:
    """A player link for each entry: the player's bearer token by player."""
    out = {}
    for player in PLAYERS:
        made = post(api, token, "/links", {"player_id": player})
        assert made["link"]["kind"] == "player" and made["link"]["player_id"] == player, made
        assert made["path"] == f"/share/{made['token']}" and made["replaced"] == []
        out[player] = made["token"]
    return out


def me(api: Api, link: str, path: str = "", body: dict[str, Any] | None = None, status: int = 201) -> Any:
    """A player's own route (`/me...`) by their link: GET without a body, else POST."""
    url = f"/clubs/c1/tournaments/open/me{path}"
    if body is None and not path:
        response = api.client.get(url, headers=api.auth(link))
        status = 200 if status == 201 else status
    else:
        response = api.client.post(url, json=body or {}, headers=api.auth(link))
    assert response.status_code == status, response.text
    return response.json()


def name(player_id: str) -> str:
    """An entrant's name (`Api.players` names each player after their id)."""
    return player_id.capitalize()


def scores(table: dict[str, Any], first: int, second: int) -> list[dict[str, Any]]:
    return [{"player_id": table["seats"][0], "score": first}, {"player_id": table["seats"][1], "score": second}]


def test_two_players_report_alike_and_close_their_table_and_a_dispute_is_decided(api: Api) -> None:
    token = club(api)
    link = links(api, token)
    listed = get(api, token, "/links")
    assert sorted(row["player_id"] for row in listed) == sorted(PLAYERS) and all("token" not in r for r in listed)

    # Check-in for round 1, recorded with who did it (the player and their link).
    seen = me(api, link["alain"])
    assert (seen["name"], seen["check_in_round"], seen["checked_in"], seen["round"]) == ("Alain", 1, False, None)
    assert me(api, link["alain"], "/check-in")["checked_in"] is True
    again = me(api, link["alain"], "/check-in", status=422)
    assert again["code"] == "already_checked_in"
    for player in ("bea", "cleo"):
        me(api, link[player], "/check-in")
    evening = get(api, token, "/evening")
    assert [s["player_id"] for s in evening["checked_in"]] == ["alain", "bea", "cleo"]
    assert [s["player_id"] for s in evening["not_checked_in"]] == ["dan"] and evening["disputes"] == []
    events = get(api, token, "/events")["events"]
    checked = [e for e in events if e["event"]["type"] == "tournament.player_checked_in"]
    assert checked[0]["event"]["player_id"] == "alain" and checked[0]["event"]["link"]
    assert checked[0]["key_id"] is not None  # under the organiser's key that made the link

    # A draft is not seen; the published round is, with the table and who sits at it.
    post(api, token, "/rounds", draft="true")
    assert me(api, link["bea"])["round"] is None
    first = post(api, token, "/rounds/1/publication")["tournament"]["rounds"][0]
    one, two = first["tables"]
    mine = me(api, link[one["seats"][0]])
    assert (mine["round"], mine["table"], mine["status"]) == (1, one["table"], "open")
    assert [s["player_id"] for s in mine["seats"]] == one["seats"]

    # Table one: a report, then the other player confirms it: closed with its result-only game.
    a, b = (link[p] for p in one["seats"])
    reported = me(api, a, "/report", {"round": 1, "table": one["table"], "scores": scores(one, 12, 4)})
    assert reported["status"] == "reported" and reported["game_id"] is None
    assert me(api, b)["status"] == "to_confirm" and me(api, b)["reports"][0]["player_id"] == one["seats"][0]
    closed = me(api, b, "/confirmation", {"round": 1, "table": one["table"]})
    assert closed["status"] == "closed" and closed["game_id"]
    game = api.client.get(f"/clubs/c1/games/{closed['game_id']}", headers=api.auth(token)).json()
    assert game["result_only"] and game["finished"]

    # Table two: the reports differ, a dispute the organiser decides by choosing one.
    c, d = (link[p] for p in two["seats"])
    me(api, c, "/report", {"round": 1, "table": two["table"], "scores": scores(two, 11, 5)})
    assert me(api, d, "/report", {"round": 1, "table": two["table"], "scores": scores(two, 5, 11)})["status"] == (
        "disputed"
    )
    disputes = get(api, token, "/evening")["disputes"]
    assert [(x["round"], x["table"], len(x["reports"])) for x in disputes] == [(1, two["table"], 2)]
    refused = post(api, token, f"/rounds/1/tables/{one['table']}/decision", {"chosen": one["seats"][0]}, status=422)
    assert refused["code"] == "table_closed"
    neither = post(api, token, f"/rounds/1/tables/{two['table']}/decision", {}, status=422)
    assert neither["code"] == "choose_or_enter"
    # A report nobody at the table made: the refusal names that player.
    path = f"/rounds/1/tables/{two['table']}/decision"
    stranger = post(api, token, path, {"chosen": one["seats"][0]}, status=422)
    assert stranger["code"] == "no_such_report"
    assert stranger["detail"] == f"{name(one['seats'][0])} made no report of table {two['table']}."
    decided = post(api, token, path, {"chosen": two["seats"][1]})
    assert decided["tournament"]["rounds"][0]["tables"][1]["game_id"]
    assert get(api, token, "/evening")["disputes"] == []
    settled(api, token, {one["seats"][0]: 2, one["seats"][1]: 0, two["seats"][1]: 2, two["seats"][0]: 0})
    kinds = [e["event"]["type"] for e in get(api, token, "/events")["events"]]
    assert kinds[-2:] == ["tournament.dispute_decided", "tournament.game_attached"]
    assert kinds.count("tournament.table_reported") == 4 and kinds.count("tournament.game_attached") == 2


def test_a_player_dispute_and_the_bad_input_of_a_player_are_refused_with_nothing_stored(api: Api) -> None:
    token = club(api)
    link = links(api, token)
    first = post(api, token, "/rounds")["tournament"]["rounds"][0]
    one, two = first["tables"]
    a, b = (link[p] for p in one["seats"])
    c = link[two["seats"][0]]
    me(api, a, "/report", {"round": 1, "table": one["table"], "scores": scores(one, 12, 4)})
    before = stored(api, token)

    # A result for a table one is not at, and a report naming a player not at the table.
    problem = me(api, c, "/report", {"round": 1, "table": one["table"], "scores": scores(one, 4, 12)}, status=422)
    assert problem["code"] == "not_at_table" and problem["details"]["players"] == [two["seats"][0]]
    # The player is named as the evening names them (the entrant's name, not the player id).
    assert problem["detail"] == f"{name(two['seats'][0])} is not at table {one['table']} of round 1."
    stranger = [{"player_id": one["seats"][0], "score": 3}, {"player_id": two["seats"][1], "score": 9}]
    problem = me(api, b, "/report", {"round": 1, "table": one["table"], "scores": stranger}, status=422)
    assert problem["code"] == "not_at_table"
    # A second report by the same player.
    problem = me(api, a, "/report", {"round": 1, "table": one["table"], "scores": scores(one, 12, 5)}, status=422)
    assert problem["code"] == "already_reported"
    assert problem["detail"] == f"{name(one['seats'][0])} has reported on table {one['table']} of round 1 already."
    # A result the game's rules refuse (G-6), checked at once: places that do not follow the scores.
    wrong = [
        {"player_id": one["seats"][0], "score": 12, "placement": 2},
        {"player_id": one["seats"][1], "score": 4, "placement": 1},
    ]
    problem = me(api, b, "/report", {"round": 1, "table": one["table"], "scores": wrong}, status=422)
    assert problem["code"] == "placements_inconsistent"
    # Nothing to confirm yet at table two.
    assert me(api, c, "/confirmation", {"round": 1, "table": two["table"]}, status=422)["code"] == "no_report"
    assert stored(api, token) == before

    # A dispute of the report: the organiser enters the result instead (the existing result entry).
    disputed = me(api, b, "/dispute", {"round": 1, "table": one["table"], "reason": "I won"})
    assert disputed["status"] == "disputed"
    entered = [{"player_id": one["seats"][0], "score": 4}, {"player_id": one["seats"][1], "score": 12}]
    decided = post(api, token, f"/rounds/1/tables/{one['table']}/decision", {"scores": entered})
    assert decided["tournament"]["rounds"][0]["tables"][0]["game_id"]
    # A report on a closed table, and on a forfeited one.
    problem = me(api, b, "/report", {"round": 1, "table": one["table"], "scores": entered}, status=422)
    assert problem["code"] == "table_closed"
    post(api, token, f"/rounds/1/tables/{two['table']}/forfeit", {"absent": [two["seats"][1]]})
    problem = me(api, c, "/report", {"round": 1, "table": two["table"], "scores": scores(two, 1, 0)}, status=422)
    assert problem["code"] == "table_closed"
    # A check-in by a withdrawn player.
    post(api, token, f"/players/{two['seats'][1]}/withdrawal", {"reason": "gone home"})
    after = stored(api, token)
    assert me(api, link[two["seats"][1]], "/check-in", status=422)["code"] == "withdrawn"
    assert stored(api, token) == after


def test_a_player_link_reaches_its_own_tournament_only_and_stops_when_revoked_or_replaced(api: Api) -> None:
    token = club(api)
    link = links(api, token)
    body = {
        "tournament_id": "other",
        "ruleset": "tally",
        "system": "swiss",
        "scoring": {"win_draw_loss": [2, 1, 0]},
    }
    assert api.client.post("/clubs/c1/tournaments", json=body, headers=api.auth(token)).status_code == 201
    alain = link["alain"]
    # Another tournament's player routes, another club's, and every other route: refused.
    refused = api.client.get("/clubs/c1/tournaments/other/me", headers=api.auth(alain))
    assert refused.status_code == 403 and "another tournament" in refused.json()["detail"]
    api.club("c2")
    assert api.client.get("/clubs/c2/tournaments/open/me", headers=api.auth(alain)).status_code == 403
    for path in ("/clubs/c1/tournaments/open", "/clubs/c1/games", "/clubs/c1/tournaments/open/evening"):
        assert api.client.get(path, headers=api.auth(alain)).status_code == 401, path
    game = api.tally_game("c1", token)
    for path in (f"/clubs/c1/games/{game}/events", "/clubs/c1/tournaments/open/rounds/1/tables/1/result"):
        answer = api.client.post(path, json={}, headers=api.auth(alain))
        assert answer.status_code == 401, (path, answer.text)
    # A key, the operator's or the club's, and a game's share link are no player link.
    for bearer in (token, OPERATOR):
        answer = api.client.get("/clubs/c1/tournaments/open/me", headers=api.auth(bearer))
        assert answer.status_code == 403 and "player's own link" in answer.json()["detail"], answer.text
    shared = api.client.post("/clubs/c1/shares", json={"kind": "game", "target_id": game}, headers=api.auth(token))
    answer = api.client.get("/clubs/c1/tournaments/open/me", headers=api.auth(shared.json()["token"]))
    assert answer.status_code == 403
    assert api.client.get("/clubs/c1/tournaments/open/me").status_code == 401

    # A new link for Alain replaces the old one; the other is revoked by the organiser.
    renewed = post(api, token, "/links", {"player_id": "alain"})
    assert [r["player_id"] for r in renewed["replaced"]] == ["alain"] and renewed["replaced"][0]["revoked_at"]
    assert api.client.get("/clubs/c1/tournaments/open/me", headers=api.auth(alain)).status_code == 401
    assert me(api, renewed["token"])["player_id"] == "alain"
    bea = next(r for r in get(api, token, "/links") if r["player_id"] == "bea")
    assert post(api, token, f"/links/{bea['share_id']}/revoke", status=200)["revoked_at"]
    assert api.client.get("/clubs/c1/tournaments/open/me", headers=api.auth(link["bea"])).status_code == 401
    # A link for a player without an entry, and a revocation of a link that is not the tournament's.
    assert post(api, token, "/links", {"player_id": "eve"}, status=422)["code"] == "not_entered"
    problem = api.client.post(
        f"/clubs/c1/tournaments/other/links/{bea['share_id']}/revoke", json={}, headers=api.auth(token)
    )
    assert problem.status_code == 404


def test_a_players_report_revoked_is_undone_and_they_may_report_again(api: Api) -> None:
    token = club(api)
    link = links(api, token)
    one = post(api, token, "/rounds")["tournament"]["rounds"][0]["tables"][0]
    a = link[one["seats"][0]]
    me(api, a, "/report", {"round": 1, "table": one["table"], "scores": scores(one, 12, 4)})
    version = get(api, token, "/events")["events"][-1]["version"]
    post(api, token, "/revocations", {"version": version, "reason": "wrong table"})
    assert me(api, a)["status"] == "open" and me(api, a)["reports"] == []
    assert me(api, a, "/report", {"round": 1, "table": one["table"], "scores": scores(one, 3, 12)})["status"] == (
        "reported"
    )
    assert points(api, token) == {p: 0 for p in PLAYERS}


PLAYER_ROUTES = {
    ("GET", "/clubs/{club_id}/tournaments/{tournament_id}/me"),
    ("POST", "/clubs/{club_id}/tournaments/{tournament_id}/me/check-in"),
    ("POST", "/clubs/{club_id}/tournaments/{tournament_id}/me/report"),
    ("POST", "/clubs/{club_id}/tournaments/{tournament_id}/me/confirmation"),
    ("POST", "/clubs/{club_id}/tournaments/{tournament_id}/me/dispute"),
}
"""The API's routes a player link may call: its entry's own."""
PLAYER_PAGES = {"/share/{token}", "/share/{token}/me", "/share/{token}/check-in", "/share/{token}/report"}
PLAYER_PAGES |= {"/share/{token}/confirm", "/share/{token}/dispute"}
"""The pages a player link opens: its entry's page and forms (the link's root leads to it)."""


def _routes(app: Any, prefix: str = "") -> list[tuple[str, str, Any]]:
    """(method, path format, handler) of every route of the app under `prefix`, HEAD and OPTIONS aside."""
    found = []
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            if route.path_format.startswith(prefix):
                for method in sorted((handler.http_methods or set()) - {"HEAD", "OPTIONS"}):
                    found.append((method, route.path_format, handler))
    return found


def test_a_player_link_reaches_no_route_of_the_api_or_the_pages_but_its_entrys_own(api: Api) -> None:
    """The auth matrix's player-link caller: every route the API guard stands before, walked with a player
    link as the bearer token, is a 401 (a share link's token is no key) but its entry's own routes; every
    page under a share link other than the entry's is not found; a club's pages take no share link as a
    session, and the sign-in form takes none as a key."""
    from service.http.guards import authorize

    token = club(api)
    alain = links(api, token)["alain"]
    guarded = [(m, p, h) for m, p, h in _routes(api.app) if authorize in h.resolve_guards()]
    assert len(guarded) >= 60  # every controller's routes, not a few
    walked = set()
    for method, path, _handler in guarded:
        url = path.replace("{club_id}", "c1").replace("{tournament_id}", "open")
        url = re.sub(r"\{[a-z_]+(:[a-z]+)?\}", "1", url)
        answer = api.client.request(method, url, headers=api.auth(alain), json={})
        if (method, path) in PLAYER_ROUTES:
            assert answer.status_code not in (401, 403), (method, path, answer.text)
            walked.add((method, path))
        else:
            assert answer.status_code == 401, (method, path, answer.status_code, answer.text)
    assert walked == PLAYER_ROUTES

    pages = {(m, p) for m, p, _h in _routes(api.app, "/share/")}
    assert {p for _m, p in pages} >= PLAYER_PAGES
    for method, path in sorted(pages):
        if path in PLAYER_PAGES:
            continue
        url = re.sub(r"\{[a-z_]+(:[a-z]+)?\}", "1", path.replace("{token}", alain))
        answer = api.client.request(method, url, follow_redirects=True, params={"step": 1})
        assert answer.status_code in (403, 404), (method, path, answer.status_code)
        assert "Alain" not in answer.text
    for method, path, _handler in _routes(api.app, "/club/"):
        url = re.sub(r"\{[a-z_]+(:[a-z]+)?\}", "1", path.replace("{club_id}", "c1"))
        api.client.cookies.set(SESSION_COOKIE, alain)
        answer = api.client.request(method, url, follow_redirects=False)
        api.client.cookies.clear()
        # A page sends the browser to sign in (the recording page's JSON answers 401); a form post without
        # the page's CSRF token is refused first.
        assert answer.status_code in (302, 303, 401, 403), (method, path, answer.status_code)
        if answer.status_code in (302, 303):
            assert answer.headers["location"].startswith("/sign-in"), (method, path)
    signed = api.client.post("/sign-in", data={"key": alain}, follow_redirects=False)
    assert signed.status_code in (401, 403) and SESSION_COOKIE not in signed.cookies


def test_ratings_count_the_evenings_games_reported_or_recorded_and_never_a_forfeit(api: Api) -> None:
    """Issue 28 part 5: a table closed by its players' matching reports (a result-only game) and a game
    recorded move by move and attached are rated; a forfeit is not a game and moves nobody's rating."""
    token = club(api)
    link = links(api, token)
    one, two = post(api, token, "/rounds")["tournament"]["rounds"][0]["tables"]
    for player, first, second in ((one["seats"][0], 12, 4), (one["seats"][1], 12, 4)):
        me(api, link[player], "/report", {"round": 1, "table": one["table"], "scores": scores(one, first, second)})
    game = api.tally_game("c1", token, players=two["seats"])
    append(api, token, game, [roll(0, 6), roll(1, 2), roll(0, 6)])
    post(api, token, f"/rounds/1/tables/{two['table']}/game", {"game_id": game})
    settled(api, token, {one["seats"][0]: 2, two["seats"][0]: 2, one["seats"][1]: 0, two["seats"][1]: 0})
    three, four = post(api, token, "/rounds")["tournament"]["rounds"][1]["tables"]
    post(api, token, f"/rounds/2/tables/{three['table']}/forfeit", {"absent": [three["seats"][1]]})
    me(api, link[four["seats"][0]], "/report", {"round": 2, "table": four["table"], "scores": scores(four, 9, 3)})
    closed = me(api, link[four["seats"][1]], "/confirmation", {"round": 2, "table": four["table"]})
    assert closed["status"] == "closed"
    expected = {p: 2 for p in four["seats"]} | {p: 1 for p in three["seats"]}

    def rated() -> dict[str, int]:
        players = api.client.get("/clubs/c1/ratings/tally", headers=api.auth(token)).json()["players"]
        return {r["player_id"]: r["games"] for r in players}

    wait_until(lambda: rated() == expected, "the evening's games rated, the forfeit not")
    absent = three["seats"][1]
    history = api.client.get(f"/clubs/c1/ratings/tally/{absent}", headers=api.auth(token)).json()["history"]
    played = next(t["game_id"] for t in get(api, token)["tournament"]["rounds"][0]["tables"] if absent in t["seats"])
    assert [point["game_id"] for point in history] == [played]
