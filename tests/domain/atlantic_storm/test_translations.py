"""Atlantic Storm in French and Spanish (issue 26): the replay of the recorded fixture and of the rulebook's
five-player example told line by line, refusals naming the same rule in the reader's words, and the cards of
the `documented` catalogue named as each language's rule text prints them (002: the Spanish rulebook; 000:
the French summary, which prints the cards' English names). The lines below are written by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.atlantic_storm import RULESET
from domain.atlantic_storm.catalogue import COLUMNS, CatalogueError, CatalogueKind, parse_catalogue
from domain.atlantic_storm.events import CardsPlayed, ConvoyTurned, ZoneDeclared
from domain.atlantic_storm.series import series_next, series_status, series_told
from domain.atlantic_storm.words import card_name
from domain.record import Correction, decoder, effective_events_of, fold
from domain.ruleset import Player, PlayerResult, Result, RuleError, SeriesGame, Setup, Viewer
from service.i18n import Translator
from tests.domain.atlantic_storm.test_worked_examples import five_player_battle

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "three_players_two_convoys.jsonl"


def _events() -> list[Any]:
    return [decoder(RULESET).decode(line) for line in FIXTURE.read_bytes().splitlines() if line.strip()]


def _told(events: list[Any], viewer: Viewer, language: str) -> dict[int, str]:
    """Each game event's line by its version in the stream (the set-up is 1), told at the record as it stood
    when the event was reported: a voided event too."""
    lines: dict[int, str] = {}
    for version, event in enumerate(events[1:], start=2):
        if isinstance(event, Correction):
            continue
        before = fold(RULESET, [events[0], *(kept for _, kept in effective_events_of(events[: version - 1]))])
        after = before.apply(event)
        narration = RULESET.narrate(before.state, event, after.state, viewer)
        assert narration.message is not None
        lines[version] = Translator(language)(narration.message)
    return lines


FRENCH = {
    2: "Alain coupe QP 11 (C5) ; Bea coupe HX 84 (C3) ; Carl coupe JW 51B (C8). Bea a coupé le plus petit numéro et "
    "donne.",
    3: "Bea distribue six cartes de combat à chaque joueur.",
    4: "Bea retourne SC 42 (1941, Atlantique Nord, cargaison pleine, 7 PV).",
    5: "Bea annonce une bataille sous-marine.",
    6: "Bea joue U-201 avec Wolfpack Radio pour les Allemands.",
    8: "Alain joue Walker pour les Alliés. Les Alliés l'emportent 6 à 3 ; Carl prend le pli (SC 42).",
    9: "Carl pioche Reuben James et une carte face cachée.",
    13: "Carl annonce une bataille de surface.",
    15: "Alain défausse U38.",
    18: "Bea joue U552 pour les Allemands. Destin : la carte Reuben James (à Carl) est détruite et va face cachée "
    "devant Bea. Les Allemands l'emportent 1 à 0 ; Bea prend le pli (HX 229). C'était le dernier convoi : la partie "
    "est terminée.",
}
SPANISH = {
    2: "Alain corta QP 11 (C5); Bea corta HX 84 (C3); Carl corta JW 51B (C8). Bea ha cortado el número más bajo y "
    "reparte.",
    3: "Bea reparte seis cartas de fuerza a cada jugador.",
    4: "Bea descubre SC 42 (1941, Atlántico Norte, carga llena, 7 PV).",
    5: "Bea declara una batalla submarina.",
    6: "Bea juega U-201 con Wolfpack Radio por los Alemanes.",
    8: "Alain juega Walker por los Aliados. Los Aliados ganan 6 a 3; Carl se lleva la baza (SC 42).",
    9: "Carl roba Reuben James y una carta boca abajo.",
    13: "Carl declara una batalla de superficie.",
    15: "Alain descarta U38.",
    18: "Bea juega U552 por los Alemanes. Destino: la carta Reuben James (de Carl) queda destruida y pasa boca abajo "
    "a Bea. Los Alemanes ganan 1 a 0; Bea se lleva la baza (HX 229). Era el último convoy: la partida ha terminado.",
}
# What everyone else reads of the same draws and discards: how many, never which (G-2).
PUBLIC = {
    "fr": {9: "Carl pioche 2 cartes.", 10: "Alain pioche 1 carte.", 15: "Alain défausse une carte."},
    "es": {9: "Carl roba 2 cartas.", 10: "Alain roba 1 carta.", 15: "Alain descarta una carta."},
}


@pytest.mark.parametrize(("language", "expected"), [("fr", FRENCH), ("es", SPANISH)])
def test_the_recorded_game_is_told_in_french_and_spanish_word_for_word(language: str, expected: dict[int, str]) -> None:
    told = _told(_events(), Viewer.full(), language)
    assert {version: told[version] for version in expected} == expected


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_public_reads_how_many_cards_were_drawn_or_discarded_in_its_language(language: str) -> None:
    told = _told(_events(), Viewer.public(), language)
    assert {version: told[version] for version in PUBLIC[language]} == PUBLIC[language]


def test_the_storm_and_the_dice_of_the_five_player_example_are_told_in_french_and_spanish() -> None:
    events = five_player_battle("basic").events
    french, spanish = _told(events, Viewer.full(), "fr"), _told(events, Viewer.full(), "es")
    assert [french[v] for v in (6, 7, 8, 13)] == [
        "A joue Markgraf pour les Allemands. SC 42 est la victime du destin de ce coup : la valeur de la carte Destin "
        "double.",
        "B joue Sunderland avec Metric ASV Radar et Atlantic Storm pour les Alliés.",
        "B fait 1 au dé de la tempête : elle peut annuler un coup ou faire passer son tour à un joueur.",
        "E lance les dés pour Escort Group 36 : 4. Les Alliés l'emportent 8 à 7 ; B prend le pli (SC 42).",
    ]
    assert french[9] == "La tempête jouée par B annule le coup joué par A (Markgraf)."
    assert [spanish[v] for v in (8, 9, 13)] == [
        "B saca un 1 para la tormenta: puede anular una jugada o hacer que un jugador salte su turno.",
        "La tormenta de B anula la jugada de A (Markgraf).",
        "E tira los dados por Escort Group 36: 4. Los Aliados ganan 8 a 7; B se lleva la baza (SC 42).",
    ]


def _refused(events: list[Any], event: Any) -> RuleError:
    with pytest.raises(RuleError) as refused:
        RULESET.validate(fold(RULESET, events).state, event)
    return refused.value


@pytest.mark.parametrize(
    ("upto", "event", "rule", "french", "spanish"),
    [
        (
            5,  # Bea has declared the submarine battle: she plays first
            CardsPlayed(seat=2, normals=("A1",)),
            ("AS-3", "not_your_turn"),
            "À Bea de jouer.",
            "Es el turno de Bea.",
        ),
        (
            3,  # the cards are dealt: the leader turns a convoy, nobody declares a zone yet
            ZoneDeclared(seat=1, zone="air"),
            ("AS-3", "out_of_turn"),
            "Ce n'est pas possible maintenant : la partie en est à l'étape « retournement du convoi ».",
            "Eso no puede ocurrir ahora: la mesa está en la fase «descubrir el convoy».",
        ),
        (
            3,
            ConvoyTurned(seat=1, convoy="C1", discarded="C2"),
            ("AS-3", "basic_one_convoy"),
            "Dans le jeu de base, le premier joueur retourne un seul convoi.",
            "En el juego básico, el jugador que dirige descubre un solo convoy.",
        ),
    ],
)
def test_a_refusal_told_in_french_or_spanish_names_the_same_rule(
    upto: int, event: Any, rule: tuple[str, str], french: str, spanish: str
) -> None:
    error = _refused(_events()[:upto], event)
    assert (error.rule_id, error.code) == rule
    assert (Translator("fr")(error.said), Translator("es")(error.said)) == (french, spanish)
    assert Translator("en")(error.said) == error.message


def test_a_series_refuses_a_game_with_another_variant_in_french() -> None:
    started = _events()[0]
    first = SeriesGame(setup=started.setup, result=Result(finished=True, score_unit="vp", players=()))
    advanced = msgspec.structs.replace(started.setup, variant="advanced")
    with pytest.raises(RuleError) as refused:
        series_next([first], advanced)
    assert (refused.value.rule_id, refused.value.code) == ("AS-16", "different_rules")
    assert Translator("fr")(refused.value.said) == (
        "Chaque partie d'une série se joue avec la même variante que la première (basic, et non advanced)."
    )


def test_a_documented_card_is_named_as_the_spanish_rulebook_prints_it_and_a_clubs_card_as_the_club_wrote_it() -> None:
    documented = {card.name: card for card in parse_catalogue(CatalogueKind().builtin()["documented"]).cards}
    tovey, storm = card_name(documented["Admiral Tovey"]), card_name(documented["Atlantic Storm"])
    assert [Translator(language)(tovey) for language in ("en", "fr", "es")] == [
        "Admiral Tovey",
        "Admiral Tovey",
        "Almirante Tovey",
    ]
    assert Translator("es")(storm) == "Tormenta Atlántica"
    clubs = msgspec.structs.replace(documented["Atlantic Storm"], number="S1", source="our club's deck")
    assert Translator("es")(card_name(clubs)) == "Atlantic Storm"


def test_a_bad_catalogue_row_is_told_in_french_beside_the_english_the_api_sends() -> None:
    data = "\n".join(
        [
            ",".join(COLUMNS),
            "C1,SC 42,,,,,,,,1941,north_atlantic,7,,,,full,test",
            "G1,Markgraf,german,,submarine,wolfpack,0,1,?,1941,any,3,,SC 42,,,test",  # SC 42 not marked victim=yes
        ]
    )
    with pytest.raises(CatalogueError) as refused:
        parse_catalogue(data.encode())
    assert refused.value.errors == [
        {"row": 3, "field": "fate_victim", "message": "'SC 42' is a fate victim: mark its row victim=yes."}
    ]
    french = Translator("fr")
    assert [french(said) for said in refused.value.rows_said] == [
        "'SC 42' est une victime du destin : marquez sa ligne victim=yes."
    ]
    assert french(refused.value.said) == "Le catalogue a 1 erreur(s)."


def _series_game(scores: dict[str, int]) -> SeriesGame:
    players = tuple(Player(player_id=pid, name=pid.title(), seat=i) for i, pid in enumerate(scores))
    results = tuple(PlayerResult(seat=i, score=score) for i, score in enumerate(scores.values()))
    return SeriesGame(setup=Setup(players=players), result=Result(finished=True, score_unit="vp", players=results))


def test_the_series_note_is_told_in_french_and_spanish_with_the_english_unchanged() -> None:
    tied = [_series_game({"ann": 40, "bob": 38}), _series_game({"ann": 40, "bob": 42})]
    assert series_status(tied).note == series_told(tied).english()
    assert [Translator(language)(series_told(tied)) for language in ("fr", "es")] == [
        "Ann et Bob sont à égalité avec 80 PV : une autre partie décide de la série. Ann a le plus haut total (80 PV) "
        "et donne la partie suivante.",
        "Ann y Bob empatan a 80 PV: otra partida decide la serie. Ann tiene el total más alto (80 PV) y reparte la "
        "siguiente partida.",
    ]
    won = [_series_game({"ann": 80, "bob": 38}), _series_game({"ann": 1, "bob": 42})]
    assert Translator("fr")(series_told(won)) == (
        "Ann remporte la série avec 80 PV après la partie 1. Les parties jouées ensuite (1) ne comptent pas."
    )
