"""The notes beside the replay viewer: those of the whole game the reader may see (a list), those at the
current step, and what the note form offers (markers, visibilities). Read through the notes use case
(`service.usecases.notes`), as the API does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.i18n import Catalogue, Message
from domain.ruleset import Player, Viewer
from projections.notes import MARKERS, MAX_TEXT, Note
from projections.replay import Step
from service.usecases.access import Principal
from service.usecases.games import Records
from service.usecases.notes import Notes, may_change, with_voided
from service.usecases.types import GameRecord

_ = Catalogue("service.pages")

MARKER_WORDS: dict[str, Message] = {
    "!": _("good move"),
    "?": _("mistake"),
    "!!": _("brilliant move"),
    "??": _("blunder"),
    "!?": _("interesting move"),
    "?!": _("dubious move"),
}


def visibility_label(note: Note, players: Sequence[Player]) -> Message:
    if note.visibility == "public":
        return _("everyone")
    if note.visibility == "seat":
        name = next((p.name for p in players if p.seat == note.seat), str(note.seat))
        return _("only {player}'s view", player=name)
    return _("the club")


def visibilities(players: Sequence[Player]) -> list[tuple[str, Message]]:
    """The form's choices: the club, everyone (after the delay), or one seat's view."""
    return [
        ("club", _("The club")),
        ("public", _("Everyone (spectators once the delay has passed)")),
        *((f"seat-{p.seat}", _("Only {player}'s view", player=p.name)) for p in players),
    ]


def at_step(
    records: Records,
    principal: Principal,
    record: GameRecord,
    viewer: Viewer,
    steps: Sequence[Step],
    horizon: int | None,
    at: int,
    players: Sequence[Player],
) -> dict[str, Any]:
    """The replay page's notes context at step `at` (`steps`: the replay as the reader sees it)."""
    notes = with_voided(Notes.of(records).readable(principal, record, viewer, horizon), steps)
    return {
        "notes": notes,
        "notes_here": [n for n in notes if n.step == at],
        "noted": {n.step for n in notes},
        "may_note": principal.sees_hidden and principal.share is None,
        "may_change": lambda note: may_change(principal, note),
        "note_markers": [(m, MARKER_WORDS[m]) for m in MARKERS],
        "note_visibilities": visibilities(players),
        "visibility_label": lambda note: visibility_label(note, players),
        "marker_word": lambda note: MARKER_WORDS.get(note.marker or "", ""),
        "note_max": MAX_TEXT,
    }
