"""The catalogue resource kind: the documented format, row-by-row errors, the shipped catalogues."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.atlantic_storm import RULESET
from domain.atlantic_storm.catalogue import COLUMNS, MAX_FIELDS, file_lines, load
from domain.ruleset import MAX_RESOURCE_ERRORS, ResourceError

KIND = RULESET.resource_kinds["catalogue"]
CATALOGUES = Path(__file__).resolve().parents[3] / "domain" / "atlantic_storm" / "catalogues"
HEADER = ",".join(COLUMNS)


def test_the_documented_catalogue_parses_and_states_what_the_rule_texts_say():
    content = KIND.parse(KIND.builtin()["documented"])
    cards = {card.name: card for card in load(content).cards}
    sc42 = cards["SC 42"]
    assert (sc42.years, sc42.ocean, sc42.cargo, sc42.vp, sc42.victim) == ((1941,), "north_atlantic", "full", 7, True)
    ons5 = cards["ONS 5"]
    assert (ons5.years, ons5.ocean, ons5.cargo, ons5.vp) == ((1943,), "north_atlantic", "empty", 4)
    assert cards["Markgraf"].fate_victim == "SC 42"
    assert (cards["Minefield"].number, cards["Minefield"].special) == ("A51", "standalone")
    assert cards["Sunderland"].submarine == "3" and cards["Metric ASV Radar"].submarine == "+1"
    # Nothing unstated is filled in: Steinbrink's VP and U38's values are not in the texts.
    assert cards["Steinbrink"].vp is None and cards["U38"].submarine == ""
    assert all(card.source for card in cards.values())


def test_the_blank_template_lists_the_whole_deck_and_does_not_import_until_filled_in():
    data = (CATALOGUES / "template.csv").read_bytes()
    lines = data.decode().splitlines()
    numbers = [line.split(",")[0] for line in lines if line and not line.startswith(("#", "number"))]
    assert len(numbers) == 40 + 112
    with pytest.raises(ResourceError) as error:
        KIND.parse(data)
    assert {e["field"] for e in error.value.errors} == {"name"}


def test_every_bad_row_is_reported_with_its_line_and_field():
    data = "\n".join(
        [
            "# written for this test",
            HEADER,
            "C1,Good Convoy,,,,,,,,1941,north_atlantic,5,,,,full,test",
            "C2,Bad Year,,,,,,,,1939,north_atlantic,5,,,,full,test",
            "A1,Bad Value,allied,,air,aircraft,7,0,0,1941,any,2,,,,,test",
            "G1,Wrong Side,allied,,air,aircraft,1,0,0,1941,any,2,,,,,test",
            "A2,Fated,allied,,air,aircraft,1,0,0,1941,any,2,,Nobody,,,test",
            "X9,Bad Number,allied,,air,aircraft,1,0,0,1941,any,2,,,,,test",
            "C1,Good Convoy,,,,,,,,1941,north_atlantic,5,,,,full,test",
        ]
    ).encode()
    with pytest.raises(ResourceError) as error:
        KIND.parse(data)
    found = {(e["row"], e["field"]) for e in error.value.errors}
    assert found == {
        (4, "years"),
        (5, "air"),
        (6, "side"),
        (7, "fate_victim"),
        (8, "number"),
        (9, "number"),
        (9, "name"),
    }
    assert all(e["message"] for e in error.value.errors)


def test_a_header_without_every_column_is_refused():
    with pytest.raises(ResourceError) as error:
        KIND.parse(b"number,name\nC1,SC 42\n")
    assert "cargo" in {e["field"] for e in error.value.errors}


def test_a_fate_victim_must_be_marked_in_red():
    data = "\n".join(
        [
            HEADER,
            "C1,SC 42,,,,,,,,1941,north_atlantic,7,,,,full,test",
            "G1,Markgraf,german,,submarine,wolfpack,0,1,?,1941,any,3,,SC 42,,,test",
        ]
    ).encode()
    with pytest.raises(ResourceError) as error:
        KIND.parse(data)
    assert error.value.errors == [
        {"row": 3, "field": "fate_victim", "message": "'SC 42' is a fate victim: mark its row victim=yes."}
    ]


def test_the_parsed_content_is_json_and_reads_back_as_the_same_catalogue():
    import msgspec

    content = KIND.parse(KIND.builtin()["documented"])
    assert load(msgspec.json.decode(msgspec.json.encode(content))) == load(content)


def test_a_catalogue_of_100000_bad_rows_keeps_the_first_errors_and_counts_the_rest():
    data = (HEADER + "\n" + "1,bad\n" * 100_000).encode()
    with pytest.raises(ResourceError) as error:
        KIND.parse(data)
    assert len(error.value.errors) == MAX_RESOURCE_ERRORS
    assert error.value.omitted == 100_000 - MAX_RESOURCE_ERRORS
    assert "100000 error(s)" in error.value.message


def test_a_line_of_a_million_commas_is_refused_naming_the_line_before_it_is_split():
    with pytest.raises(ResourceError) as error:
        KIND.parse((HEADER + "\n" + "," * 1_000_000).encode())
    assert error.value.errors == [
        {"row": 2, "field": "", "message": f"The line has 1000000 commas; a catalogue line has at most {MAX_FIELDS}."}
    ]


def test_a_field_past_the_csv_readers_limit_is_a_row_error_not_a_crash():
    with pytest.raises(ResourceError) as error:
        KIND.parse((HEADER + "\n" + "x" * 131_073).encode())
    assert error.value.errors[0]["row"] == 2 and "field larger than field limit" in error.value.errors[0]["message"]


LINE_ENDS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(LINE_ENDS), st.sampled_from(["a", "é", "#", " ", ","]))), st.booleans())
def test_a_file_is_read_line_by_line_as_its_whole_text_splits_into_lines(parts: list[str], bom: bool) -> None:
    text = "".join(parts)
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    assert list(file_lines(data)) == data.decode("utf-8-sig").splitlines()


def test_a_file_that_is_not_utf8_is_refused_even_where_its_bad_byte_comes_late() -> None:
    data = (HEADER + "\n" + "1,bad\n" * 20_000).encode() + b"\xff\n"
    with pytest.raises(ResourceError) as error:
        KIND.parse(data)
    assert error.value.message == "The catalogue is not UTF-8 text." and error.value.errors == []


def test_rows_are_numbered_as_their_editor_numbers_them_whatever_ends_their_lines() -> None:
    rows = ["# a note", HEADER, "", "C2,Bad Year,,,,,,,,1939,north_atlantic,5,,,,full,test"]
    for end in ("\n", "\r\n", "\r"):
        with pytest.raises(ResourceError) as error:
            KIND.parse(b"\xef\xbb\xbf" + end.join(rows).encode())
        assert [(e["row"], e["field"]) for e in error.value.errors] == [(4, "years")]
