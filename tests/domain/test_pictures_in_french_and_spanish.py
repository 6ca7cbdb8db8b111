"""Each game's picture in the reader's language (issue 26): the words it draws (labels, legend, side names,
VP, screen-reader labels) come from the game's catalogue, told with the `words` the narration takes. A French
and a Spanish picture of a recorded game hold their own words and none of the English ones; with no
language the picture is English, as before."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from domain.record import GameStarted, decoder, fold
from domain.ruleset import Viewer
from service.i18n import Translator
from tests.support.rulesets import RULESETS

TESTS = Path(__file__).parent

# (fixture, step, words each language's picture holds, English words none of them holds)
GAMES = {
    "milles-nautiques": (
        TESTS / "milles_nautiques" / "fixtures" / "two_players_to_forty.jsonl",
        40,
        {
            "fr": ["En mer (de bâbord à tribord)", "Au port", "Capturés", "Bea : 6 en main", "ALERTE", "50 pts"],
            "es": ["En puerto", "Bea: 6 en la mano", "ALERTA", "Capturados"],
        },
        ["At sea", "In port", "Captured", "in hand", ">ALERT<", "Round over", "no points yet", "miles"],
    ),
    "atlantic-storm": (
        TESTS / "atlantic_storm" / "fixtures" / "three_players_two_convoys.jsonl",
        12,
        {
            "fr": ["Joueurs", "Pli pour Carl", "6 PV", "Convoi en jeu : HX 229", "main 6 sur 6"],
            "es": ["Jugadores", "Baza para Carl", "6 PV", "Convoy en juego: HX 229", "mano 6 de 6"],
        },
        [
            "Players",
            "Trick to",
            " VP",
            "Convoy at stake",
            "hand 6 of 6",
            "No play yet",
            "convoys won",
            "the Allies win",
        ],
    ),
    "memoire-44": (
        TESTS / "memoire44" / "fixtures" / "hedgerow_lane_axis_medal_victory.jsonl",
        30,
        {
            "fr": ["Légende", "Tour 3", "0 médailles sur 4 · 3 cartes en main", "E4 haies", ">infanterie<", "Axe"],
            "es": ["Leyenda", "Turno 3", "0 de 4 medallas · 3 cartas en mano", "E4 setos", ">infantería<", "Eje"],
        },
        ["Legend", "Turn ", "medals", "in hand", "hedgerow", ">infantry<", "Axis", "medal objective", "playing "],
    ),
}


def _view(name: str) -> object:
    path, step, _own, _english = GAMES[name]
    ruleset = RULESETS.get(name)
    lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    assert msgspec.json.decode(lines[0], type=GameStarted).ruleset == name
    events = [decoder(ruleset).decode(line) for line in lines]
    return ruleset.view(fold(ruleset, events[:step]).state, Viewer.public())


@pytest.mark.parametrize("language", ["fr", "es"])
@pytest.mark.parametrize("name", GAMES)
def test_a_picture_in_french_or_spanish_holds_its_own_words_and_no_english_ones(name: str, language: str) -> None:
    ruleset = RULESETS.get(name)
    assert ruleset.picture is not None
    view = _view(name)
    _path, _step, own, english = GAMES[name]
    drawn = ruleset.picture(view, (), Translator(language))
    assert [word for word in own[language] if word not in drawn] == []
    assert [word for word in english if word in drawn] == []
    # The same view in English (no language given) still says the English words: the list is one to miss.
    assert any(word in ruleset.picture(view, ()) for word in english)


def test_a_french_picture_keeps_the_english_ones_shape_only_its_words_change() -> None:
    ruleset = RULESETS.get("memoire-44")
    assert ruleset.picture is not None
    view = _view("memoire-44")
    english, french = ruleset.picture(view, ()), ruleset.picture(view, (), Translator("fr"))

    def shapes(svg: str) -> list[str]:
        return re.findall(r"<(?:path|rect|circle|polyline)\b[^>]*?(?: d| x| cx| points)=\"[^\"]*\"", svg)

    assert shapes(english) == shapes(french) and english != french
