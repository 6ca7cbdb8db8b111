"""Mémoire 44 in French and Spanish (issue 26): the replay of a recorded game told line by line and a refusal
naming the same rule in the reader's words, compared word for word with lines written by hand here. The French
names are those the French cards and crib sheet print (seed 003: Infanterie, Blindés, Axe, Alliés, Grenade,
Drapeau, Étoile); the Spanish ones are our own translation. Hexes are shown as they are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.memoire44 import RULESET
from domain.memoire44.catalogue import CARDS
from domain.memoire44.events import CardDrawn
from domain.memoire44.series import series_next, series_status, series_told
from domain.memoire44.words import CARD_NAMES
from domain.record import Folded, decoder, fold
from domain.ruleset import Narration, PlayerResult, Result, RuleError, SeriesGame, Viewer
from service.i18n import ENGLISH, Translator
from tests.domain.memoire44.harness import setup_for

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "hedgerow_lane_axis_medal_victory.jsonl"

FRENCH = {
    1: "Bea (Alliés) pioche une carte.",
    9: "Alain (Axe) joue Assaut au centre, donnant un ordre à toutes les unités de la section centre.",
    10: "Alain (Axe) donne un ordre à 4 unités : unité d'infanterie en E3, unité d'infanterie en E4, "
    "unité blindée en G4, unité d'infanterie en H4.",
    11: "Alain (Axe) déplace l'unité blindée en G4 → H5 → H6 → I7.",
    12: "Alain (Axe) combat avec l'unité d'infanterie en H4 contre l'unité d'infanterie alliée en J6 : 1 dé, "
    "Grenade. 1 figurine perdue.",
    14: "Alain (Axe) combat avec l'unité blindée en I7 contre l'unité blindée alliée en I6 : 3 dés, Infanterie, "
    "Drapeau, Étoile. Elle doit reculer de 1 hexagone.",
    15: "L'unité blindée alliée en I6 recule en J7.",
    16: "Alain (Axe) fait une prise de terrain : l'unité blindée en I7 avance en I6.",
    17: "Alain (Axe) combat avec l'unité blindée en I6 (percée de blindés) contre l'unité blindée alliée en J7 : "
    "3 dés, Grenade, Drapeau, Blindés. 2 figurines perdues. Elle doit reculer de 1 hexagone.",
    22: "Bea (Alliés) joue Attaque sur l'aile gauche, donnant un ordre à 3 unités.",
    39: "Bea (Alliés) garde une carte et défausse Assaut au centre.",
    90: "Alain (Axe) combat avec l'unité d'infanterie en H5 contre l'unité d'infanterie alliée en I5 : 2 dés, "
    "Infanterie, Infanterie. L'unité d'infanterie alliée est éliminée. Axe : 4 médailles désormais. "
    "Fin de la partie : objectif de 4 médailles atteint (Axe) ; vainqueur : Axe.",
}
SPANISH = {
    1: "Bea (Aliados) roba una carta.",
    9: "Alain (Eje) juega Asalto en el centro, dando orden a todas las unidades de la sección centro.",
    10: "Alain (Eje) da orden a 4 unidades: unidad de infantería en E3, unidad de infantería en E4, "
    "unidad blindada en G4, unidad de infantería en H4.",
    11: "Alain (Eje) mueve la unidad blindada en G4 → H5 → H6 → I7.",
    12: "Alain (Eje) combate con la unidad de infantería en H4 contra la unidad de infantería aliada en J6: 1 dado, "
    "Granada. 1 figura perdida.",
    14: "Alain (Eje) combate con la unidad blindada en I7 contra la unidad blindada aliada en I6: 3 dados, "
    "Infantería, Bandera, Estrella. Debe retirarse 1 hexágono.",
    15: "La unidad blindada aliada en I6 se retira a J7.",
    16: "Alain (Eje) conquista terreno: la unidad blindada en I7 avanza a I6.",
    22: "Bea (Aliados) juega Ataque en el flanco izquierdo, dando orden a 3 unidades.",
    39: "Bea (Aliados) se queda una carta y descarta Asalto en el centro.",
    61: "Alain (Eje) combate con la unidad blindada en K8 contra la unidad blindada aliada en J8: 3 dados, "
    "Blindados, Infantería, Bandera. La unidad blindada aliada es eliminada. Eje: ahora 1 medalla.",
    90: "Alain (Eje) combate con la unidad de infantería en H5 contra la unidad de infantería aliada en I5: "
    "2 dados, Infantería, Infantería. La unidad de infantería aliada es eliminada. Eje: ahora 4 medallas. "
    "Fin de la partida: objetivo de 4 medallas alcanzado (Eje); vencedor: Eje.",
}


def _events() -> list[Any]:
    return [decoder(RULESET).decode(line) for line in FIXTURE.read_bytes().splitlines() if line.strip()]


def _public_lines(steps: set[int]) -> dict[int, Narration]:
    """The public replay line of each of `steps` (1 = the event after the set-up) of the recorded game."""
    events = _events()
    folded: Folded = fold(RULESET, events[:1])
    told = {}
    for step, event in enumerate(events[1:], start=1):
        after = folded.accept(event)
        if step in steps:
            told[step] = RULESET.narrate(folded.state, event, after.state, Viewer.public())
        folded = after
    return told


@pytest.mark.parametrize(("language", "expected"), [("fr", FRENCH), ("es", SPANISH)])
def test_the_recorded_game_is_told_in_french_and_spanish_word_for_word(language: str, expected: dict[int, str]) -> None:
    translator = Translator(language)
    told = _public_lines(set(expected))
    assert sorted(told) == sorted(expected)
    for step, narration in told.items():
        assert narration.message is not None
        assert ENGLISH(narration.message) == narration.text  # English is the line as the other tests know it
        assert translator(narration.message) == expected[step], f"step {step}"


def test_a_card_drawn_after_the_game_is_over_is_refused_in_french_and_spanish_by_the_same_rule() -> None:
    over = fold(RULESET, _events()).state
    with pytest.raises(RuleError) as refused:
        RULESET.validate(over, CardDrawn(seat=0, card=None))
    error = refused.value
    assert (error.rule_id, error.code, error.message) == ("M44-6", "game_over", "The game is over.")
    assert Translator("fr")(error.said) == "La partie est terminée."
    assert Translator("es")(error.said) == "La partida ha terminado."


def test_an_event_before_a_due_retreat_is_refused_in_french_and_spanish_naming_the_hex() -> None:
    state = fold(RULESET, _events()[:15]).state  # step 14: the Allied armour at I6 must retreat 1 hex
    with pytest.raises(RuleError) as refused:
        RULESET.validate(state, CardDrawn(seat=0, card=None))
    error = refused.value
    assert (error.rule_id, error.code, error.message) == (
        "M44-3",
        "retreat_pending",
        "The unit at I6 must retreat first.",
    )
    assert Translator("fr")(error.said) == "L'unité en I6 doit d'abord reculer."
    assert Translator("es")(error.said) == "La unidad en I6 debe retirarse primero."


def test_every_command_card_has_a_name_to_translate() -> None:
    assert set(CARD_NAMES) == set(CARDS)
    assert {card: ENGLISH(name) for card, name in CARD_NAMES.items()} == {c: spec.name for c, spec in CARDS.items()}
    assert Translator("fr")(CARD_NAMES["attack_centre"]) == "Attaque au centre"
    assert Translator("es")(CARD_NAMES["air_power"]) == "Poder aéreo"


def _scored(sides: tuple[str, str], alain: int, bea: int) -> SeriesGame:
    players = (PlayerResult(seat=0, score=alain), PlayerResult(seat=1, score=bea))
    return SeriesGame(
        setup=setup_for("hedgerow_lane", sides=sides), result=Result(finished=True, score_unit="medal", players=players)
    )


def test_the_match_note_is_told_in_french_and_spanish_with_the_english_unchanged() -> None:
    drawn = [_scored(("AXIS", "ALLIES"), 4, 2), _scored(("AXIS", "ALLIES"), 2, 4)]
    told = series_told(drawn)
    assert told is not None and series_status(drawn).note == told.english()
    assert [Translator(language)(told) for language in ("fr", "es")] == [
        "la deuxième partie n'a pas été jouée camps inversés ; match nul",
        "la segunda partida no se jugó con los bandos intercambiados; enfrentamiento empatado",
    ]
    assert series_told([_scored(("AXIS", "ALLIES"), 4, 2), _scored(("ALLIES", "AXIS"), 1, 4)]) is None


def test_a_third_game_of_a_match_is_refused_in_french_by_the_match_rule() -> None:
    games = [_scored(("AXIS", "ALLIES"), 4, 2), _scored(("ALLIES", "AXIS"), 1, 4)]
    with pytest.raises(RuleError) as refused:
        series_next(games, games[0].setup)
    assert (refused.value.rule_id, refused.value.code) == ("M44-MT-1", "match_over")
    assert Translator("fr")(refused.value.said) == "Un match se joue en 2 parties."
