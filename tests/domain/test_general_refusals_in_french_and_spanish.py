"""The general rules' refusals (G-3, G-5) are messages: the same rule id and code in every language,
the sentence in the reader's (issue 26), compared with sentences written here by hand."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.i18n import Message
from domain.record import Correction, GameStarted, fold, start
from domain.ruleset import Player, RuleError, Setup
from service.i18n import Translator
from testkit.tally import RULESET, Rolled

SETUP = Setup(players=(Player(player_id="p1", name="Alain", seat=0), Player(player_id="p2", name="Bea", seat=1)))
STARTED = GameStarted(ruleset="tally", ruleset_version="1.0.0", setup=SETUP)


def _refusal(attempt: Callable[[], object]) -> RuleError:
    with pytest.raises(RuleError) as error:
        attempt()
    assert isinstance(error.value.said, Message)
    return error.value


def test_a_correction_longer_than_the_events_in_effect_is_refused_in_french_and_spanish() -> None:
    folded = fold(RULESET, [STARTED, Rolled(seat=0, face=3), Rolled(seat=1, face=5)])
    refusal = _refusal(lambda: folded.check(Correction(voids=3)))
    assert (refusal.rule_id, refusal.code) == ("G-3", "correction_too_long")
    assert refusal.message == "A correction can void at most the 2 events still in effect."
    assert Translator("fr")(refusal.said) == "Une correction peut annuler au plus les 2 événements encore en vigueur."
    assert Translator("es")(refusal.said) == "Una corrección puede anular como mucho los 2 eventos aún en vigor."
    # English has always said "the 1 events"; French and Spanish say the one event as one.
    single = _refusal(lambda: fold(RULESET, [STARTED, Rolled(seat=0, face=3)]).check(Correction(voids=2)))
    assert single.message == "A correction can void at most the 1 events still in effect."
    assert Translator("fr")(single.said) == "Une correction peut annuler au plus le seul événement encore en vigueur."
    assert Translator("es")(single.said) == "Una corrección puede anular como mucho el único evento aún en vigor."


def test_an_empty_correction_and_a_second_start_are_refused_in_french_and_spanish() -> None:
    folded = fold(RULESET, [STARTED])
    empty = _refusal(lambda: folded.check(Correction(voids=0)))
    assert (empty.rule_id, empty.code) == ("G-3", "empty_correction")
    assert Translator("fr")(empty.said) == "Une correction doit annuler au moins un événement."
    again = _refusal(lambda: folded.check(STARTED))
    assert (again.rule_id, again.code, again.message) == ("G-5", "already_started", "This game has already started.")
    assert Translator("fr")(again.said) == "Cette partie a déjà commencé."
    assert Translator("es")(again.said) == "Esta partida ya ha empezado."


def test_a_record_of_another_game_or_without_its_set_up_is_refused_in_french_and_spanish() -> None:
    other = _refusal(lambda: start(RULESET, GameStarted(ruleset="chess", ruleset_version="1", setup=SETUP)))
    assert (other.rule_id, other.code, other.message) == ("G-5", "wrong_ruleset", "This record is of chess, not tally.")
    assert Translator("fr")(other.said) == "Cet enregistrement suit les règles chess, pas tally."
    assert Translator("es")(other.said) == "Este registro sigue las reglas chess, no tally."
    missing = _refusal(lambda: fold(RULESET, [Rolled(seat=0, face=3)]))
    assert (missing.rule_id, missing.code) == ("G-5", "missing_start")
    assert Translator("es")(missing.said) == "El registro de una partida debe empezar por su preparación."
