"""`tablelog report` end to end on SQLite (issue 31): a game's replay written as one HTML file in the view
and language asked, with every step and the notes of that view only; and each bad ask told in one line."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from markupsafe import Markup

from domain.ruleset import Viewer
from service.cli import main
from service.pages.report import Shared
from service.store import open_store
from service.store.base import Recorder
from service.usecases.access import Principal
from service.usecases.games import NewGame, Records, SeatSpec
from service.usecases.notes import NewNote, Notes
from service.usecases.replays import Replays
from tests.service.api_support import club_store
from tests.service.test_cli_errors import refused
from tests.service.test_projector_support import roll
from tests.support.rulesets import RULESETS

NOTES = {"club": "for the club", "public": "for everyone", "seat-0": "only alain's", "seat-1": "only bea's"}


@pytest.fixture
def url(tmp_path: Path) -> str:
    """Club c1 with friday-1 (four events) and its notes of each visibility; club c2 with a game of its own."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with club_store(url) as store:
        records = Records(store, RULESETS)
        seats = [SeatSpec(player_id="alain"), SeatSpec(player_id="bea")]
        records.create_game("c1", NewGame(ruleset="tally", players=seats, game_id="friday-1"), Recorder(club_id="c1"))
        records.append("c1", "friday-1", [roll(0, 3), roll(1, 4), roll(0, 2)], 1, Recorder(club_id="c1"))
        notes, operator = Notes.of(records), Principal(operator=True)
        for key, text in NOTES.items():
            visibility, _, seat = key.partition("-")
            note = NewNote(step=3, text=text, visibility=visibility, seat=int(seat) if seat else None)  # type: ignore[arg-type]
            notes.write(operator, "c1", "friday-1", note)
        store.create_club("c2", "Other club")
        for player in ("alain", "bea"):
            store.create_player("c2", player, player.capitalize())
        records.create_game("c2", NewGame(ruleset="tally", players=seats, game_id="theirs"), Recorder(club_id="c2"))
    return url


def narration(url: str, viewer: Viewer) -> list[str]:
    """The replay's narration for `viewer`, as the API tells it."""
    store = open_store(url)
    try:
        replay = Replays.of(Records(store, RULESETS)).replay(Principal(operator=True), "c1", "friday-1", viewer)
        return [s.text for s in replay.steps]
    finally:
        store.close()


def told(html: str) -> list[str]:
    return [unescape(line) for line in re.findall(r'<p class="told">(.*?)</p>', html)]


def test_a_report_is_written_in_the_view_and_language_asked_with_that_views_notes_only(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "friday.html"
    db = ("--database-url", url)
    assert (
        main(["report", "friday-1", "--club", "c1", "--view", "seat", "--seat", "0", "-o", str(out), *db], RULESETS)
        == 0
    )
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "<script" not in html and 'rel="stylesheet"' not in html
    assert html.count('<article class="step') == 4 and told(html) == narration(url, Viewer.of_seat(0))
    text = unescape(html)
    assert all(NOTES[k] in text for k in ("club", "public", "seat-0")) and NOTES["seat-1"] not in text
    assert re.findall(r'href="([^"#][^"]*)"', html) == []  # no link out of the file, only its own anchors

    assert main(["report", "friday-1", "--club", "c1", "--view", "public", "--language", "fr", *db], RULESETS) == 0
    french = unescape(capsys.readouterr().out)
    assert '<html lang="fr">' in french and "Étape 4" in french and "Chapitres" in french
    assert NOTES["club"] in french and NOTES["seat-0"] not in french and NOTES["seat-1"] not in french

    assert main(["report", "friday-1", "--club", "c1", "--view", "full", *db], RULESETS) == 0
    full = unescape(capsys.readouterr().out)
    assert all(text in full for text in NOTES.values()) and told(full) == narration(url, Viewer.full())


def test_each_bad_ask_is_one_line(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    db = ("--database-url", url)
    assert refused(capsys, 2, "report", "nope", "--club", "c1", *db) == "No game 'nope'."
    assert refused(capsys, 2, "report", "theirs", "--club", "c1", *db) == "No game 'theirs'."  # c2's game
    assert refused(capsys, 1, "report", "friday-1", "--club", "c1", "--view", "seat", *db) == (
        "A seat's report needs the seat it is for."
    )
    assert refused(capsys, 2, "report", "friday-1", "--club", "c1", "--view", "seat", "--seat", "5", *db) == (
        "Seat 5 is not at this table: its seats are 0 to 1."
    )
    assert refused(capsys, 1, "report", "friday-1", "--club", "c1", "--seat", "0", *db) == (
        "Only the seat view names a seat."
    )


def test_a_part_of_a_picture_an_earlier_step_drew_the_same_is_kept_once() -> None:
    board = '<g role="group" aria-label="Board">' + "<path d='M0 0'/>" * 40 + "</g>"
    side = '<g role="group" aria-label="Side"><g><text>Alain</text></g>' + "<rect/>" * 50 + "</g>"
    first = Markup(f'<svg viewBox="0 0 9 9"><title>1</title>{board}{side}<g>small</g></svg>')
    later = Markup(f'<svg viewBox="0 0 9 9"><title>2</title>{board}{side.replace("Alain", "Bea")}<g/></svg>')
    shared = Shared()
    assert str(shared.drawn(first)) == str(first).replace("<g role", '<g id="part-1" role', 1).replace(
        '<g role="group" aria-label="Side">', '<g id="part-2" role="group" aria-label="Side">'
    )
    drawn = shared.drawn(later)  # the board kept once, the side that changed drawn again
    assert drawn.startswith('<svg viewBox="0 0 9 9"><title>2</title><use href="#part-1"/><g id="part-3" role')
    assert drawn.endswith("</g><g/></svg>") and "Bea" in drawn and drawn.count("<path") == 0
    assert shared.drawn(Markup("<dl><dt>score</dt></dl>")) == "<dl><dt>score</dt></dl>"  # not a picture
