"""Atlantic Storm's cards, as data: the catalogue format, its parser and the shipped catalogues.

No public list of the 40 convoy and 112 force cards exists, so a club imports its own catalogue (a CSV
file documented in `catalogues/README.md`). `documented.csv` holds only what the rule texts state
(the complete Spanish rulebook and the French summary of the rules); an unstated value stays blank and a
card with a blank value the game needs cannot be played (the rules core says so).
"""

from __future__ import annotations

import codecs
import csv
import re
from collections.abc import Callable, Iterator, Mapping
from importlib import resources
from typing import Any

import msgspec

from domain.i18n import Catalogue as Messages
from domain.i18n import Message
from domain.ruleset import ResourceError, ResourceErrors

_ = Messages("domain.atlantic_storm")

COLUMNS: tuple[str, ...] = (
    "number",
    "name",
    "side",
    "nationality",
    "type",
    "unit",
    "air",
    "surface",
    "submarine",
    "years",
    "ocean",
    "vp",
    "special",
    "fate_victim",
    "victim",
    "cargo",
    "source",
)
SIDES = ("allied", "german", "either")
TYPES = ("air", "surface", "submarine", "any")
UNITS = ("aircraft", "ship", "carrier", "escort_group", "submarine", "wolfpack", "weapon", "event")
OCEANS = ("north_atlantic", "arctic", "any")
SPECIALS = (
    "admiral",
    "raid",
    "happy_time",
    "storm",
    "intelligence",
    "supply",
    "milk_cow",
    "standalone",
    "black_gap",
)
CARGOES = ("full", "half", "empty")
YEARS = (1940, 1941, 1942, 1943)
ZONES = ("air", "surface", "submarine")

_NUMBER = re.compile(r"^([CAGS]?)(\d+|\?)$")
_VALUE = re.compile(r"^(?:[0-6]|\?|\?\?|\+[0-6])$")
_SPECIAL_CATEGORY = {
    "admiral": "special",
    "raid": "special",
    "happy_time": "special",
    "storm": "special",
    "intelligence": "special",
    "supply": "supply",
    "milk_cow": "supply",
    "standalone": "bonus",
}


class Card(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One catalogue row. Blank strings (and `vp` None, `years` empty) mean "not stated".

    `category` is derived from the number and the VP column: convoy, normal, bonus, special, supply,
    or "" when the row does not say."""

    number: str
    name: str
    category: str
    side: str = ""
    nationality: str = ""
    type: str = ""
    unit: str = ""
    air: str = ""
    surface: str = ""
    submarine: str = ""
    years: tuple[int, ...] = ()
    ocean: str = ""
    vp: int | None = None
    special: str = ""
    fate_victim: str = ""
    victim: bool = False
    cargo: str = ""
    source: str = ""

    @property
    def numbered(self) -> bool:
        """Whether the row states the card's number (only numbered cards can be recorded in a game)."""
        return not self.number.endswith("?")

    def value(self, zone: str) -> str:
        """The printed value in one zone (air, surface, submarine)."""
        return self.air if zone == "air" else self.surface if zone == "surface" else self.submarine


class Catalogue(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The parsed catalogue: rows in file order."""

    cards: tuple[Card, ...]

    def convoys(self) -> tuple[Card, ...]:
        """The convoy cards."""
        return tuple(card for card in self.cards if card.category == "convoy")

    def forces(self) -> tuple[Card, ...]:
        """The force cards (everything that is not a convoy)."""
        return tuple(card for card in self.cards if card.category != "convoy")


class CatalogueError(ResourceError):
    """A catalogue file that does not parse: a `ResourceError` whose sentence and row messages are
    messages (`said`, `rows_said`) the service tells in the reader's language."""


Bad = Callable[[str, Message], None]
"""Records one error of the row being read: the field and what is wrong with it."""


def _row_errors(line: int, row: dict[str, str], errors: list[dict[str, Any]]) -> Card | None:
    """Validate one row; append its errors (each message a `Message`); return the card when the row is
    clean."""
    before = len(errors)

    def bad(field: str, message: Message) -> None:
        errors.append({"row": line, "field": field, "message": message})

    number = row["number"]
    match = _NUMBER.match(number)
    if match is None or (match.group(1) == "" and number != "?"):
        bad(
            "number",
            _(
                "{number} is not a card number: C1-C40, A1.., G1.., S1.. (C?, A?, G?, S? or ? when the rule "
                "texts do not state it).",
                number=repr(number),
            ),
        )
        return None
    prefix = match.group(1)
    if not row["name"]:
        bad("name", _("Every card needs its name."))
    years = _years(row, bad)
    ocean = row["ocean"]
    if ocean and ocean not in OCEANS:
        bad("ocean", _("{ocean} is not an ocean: north_atlantic, arctic or any.", ocean=repr(ocean)))
    if prefix == "C":
        category, vp = _convoy_errors(row, years, bad)
    else:
        category, vp = _force_errors(row, prefix, bad)
    victim = row["victim"].lower()
    if victim not in ("", "yes", "no"):
        bad("victim", _("{victim}: write yes or no (red name) or leave blank.", victim=repr(row["victim"])))
    if len(errors) > before:
        return None
    return _card(row, category, years, vp, victim == "yes")


def _years(row: dict[str, str], bad: Bad) -> tuple[int, ...]:
    """The row's years (none when blank or wrong, then told to `bad`)."""
    if not row["years"]:
        return ()
    parsed = _parse_years(row["years"])
    if isinstance(parsed, Message):
        bad("years", parsed)
        return ()
    return parsed


def _convoy_errors(row: dict[str, str], years: tuple[int, ...], bad: Bad) -> tuple[str, int | None]:
    """A convoy row's own checks; its category and VP."""
    vp_text = row["vp"].upper()
    vp: int | None = None
    if vp_text:
        if not vp_text.isdigit() or not 1 <= int(vp_text) <= 7:
            bad("vp", _("A convoy is worth 1 to 7 VP, not {vp}.", vp=repr(row["vp"])))
        else:
            vp = int(vp_text)
    if row["cargo"] and row["cargo"] not in CARGOES:
        bad("cargo", _("{cargo} is not a cargo icon: full, half or empty.", cargo=repr(row["cargo"])))
    if len(years) > 1:
        bad("years", _("A convoy sails in one year."))
    if row["ocean"] == "any":
        bad("ocean", _("A convoy sails in the North Atlantic or the Arctic, not 'any'."))
    for field in ("side", "type", "unit", "air", "surface", "submarine", "special", "fate_victim"):
        if row[field]:
            bad(field, _("A convoy card has no {field}.", field=field))
    return "convoy", vp


def _force_errors(row: dict[str, str], prefix: str, bad: Bad) -> tuple[str, int | None]:
    """A force row's own checks (side, VP place, frame, unit, values, special); its category and VP."""
    number, side = row["number"], row["side"]
    if side and side not in SIDES:
        bad("side", _("{side} is not a side: allied, german or either.", side=repr(side)))
    expected = {"A": "allied", "G": "german", "S": "either", "": side}[prefix]
    if side and side != expected:
        bad(
            "side",
            _("Card {number} is numbered as {expected}, not {side}.", number=number, expected=expected, side=side),
        )
    category, vp = _force_vp(row, bad)
    if row["type"] and row["type"] not in TYPES:
        bad("type", _("{frame} is not a frame: air, surface, submarine or any.", frame=repr(row["type"])))
    if row["unit"] and row["unit"] not in UNITS:
        bad("unit", _("{unit} is not a unit: {units}.", unit=repr(row["unit"]), units=", ".join(UNITS)))
    _value_errors(row, category, bad)
    _special_errors(row, category, bad)
    if row["cargo"]:
        bad("cargo", _("Only a convoy has a cargo icon."))
    if row["special"] == "storm" and side and side != "either":
        bad("side", _("A storm is played by either side."))
    return category, vp


def _force_vp(row: dict[str, str], bad: Bad) -> tuple[str, int | None]:
    """A force card's VP place: a number (a normal card) or BONUS, SPECIAL or SUPPLY."""
    vp_text = row["vp"].upper()
    if vp_text in ("BONUS", "SPECIAL", "SUPPLY"):
        return vp_text.lower(), None
    if not vp_text:
        return "", None
    if not vp_text.isdigit() or not 0 <= int(vp_text) <= 5:
        bad(
            "vp",
            _("A force card is worth 0 to 5 VP, or BONUS, SPECIAL or SUPPLY, not {vp}.", vp=repr(row["vp"])),
        )
        return "", None
    return "normal", int(vp_text)


def _value_errors(row: dict[str, str], category: str, bad: Bad) -> None:
    """A force card's combat values, one per zone (+N on a bonus card only)."""
    for zone in ZONES:
        value = row[zone]
        if value and not _VALUE.match(value):
            bad(zone, _("{value} is not a combat value: 0-6, ?, ?? or +N.", value=repr(value)))
        elif value.startswith("+") and category not in ("bonus", ""):
            bad(zone, _("Only a bonus card has a +N value."))
        elif value and not value.startswith("+") and value != "0" and category == "bonus":
            bad(zone, _("A bonus card's values are +N (or 0)."))


def _special_errors(row: dict[str, str], category: str, bad: Bad) -> None:
    """A force card's special behaviour, matching its VP place."""
    special = row["special"]
    if special and special not in SPECIALS:
        bad(
            "special",
            _(
                "{special} is not a special behaviour: {specials}.",
                special=repr(special),
                specials=", ".join(SPECIALS),
            ),
        )
    elif special in _SPECIAL_CATEGORY and category and category != _SPECIAL_CATEGORY[special]:
        bad(
            "vp",
            _(
                "A {special} card is marked {category} in its VP place.",
                special=special,
                category=_SPECIAL_CATEGORY[special].upper(),
            ),
        )
    if category == "special" and not special:
        bad("special", _("A SPECIAL card must say which special it is."))
    if category == "supply" and special not in ("supply", "milk_cow"):
        bad("special", _("A SUPPLY card is a supply ship (supply) or the milk cow (milk_cow)."))


def _card(row: dict[str, str], category: str, years: tuple[int, ...], vp: int | None, victim: bool) -> Card:
    """The card of a clean row."""
    return Card(
        number=row["number"],
        name=row["name"],
        category=category,
        side=row["side"],
        nationality=row["nationality"],
        type=row["type"],
        unit=row["unit"],
        air=row["air"],
        surface=row["surface"],
        submarine=row["submarine"],
        years=years,
        ocean=row["ocean"],
        vp=vp,
        special=row["special"],
        fate_victim=row["fate_victim"],
        victim=victim,
        cargo=row["cargo"],
        source=row["source"],
    )


def _parse_years(text: str) -> tuple[int, ...] | Message:
    """`1941`, `1941-1943` or `1940;1942`, within 1940-1943; or what is wrong with the text."""
    years: set[int] = set()
    for part in text.replace(" ", "").split(";"):
        low, high = part.partition("-")[::2]
        if not low.isdigit() or (high and not high.isdigit()):
            return _("{years} is not a year list: write 1941, 1941-1943 or 1940;1942.", years=repr(text))
        first, last = int(low), int(high or low)
        if first > last or first not in YEARS or last not in YEARS:
            return _("{years}: the game's years are 1940 to 1943.", years=repr(text))
        years.update(range(first, last + 1))
    return tuple(sorted(years))


def parse_catalogue(data: bytes) -> Catalogue:
    """Parse and validate a catalogue file; raise ResourceError listing every bad row."""
    if not _is_utf8(data):
        raise CatalogueError(_("The catalogue is not UTF-8 text."))
    # One line at a time: the whole text and its list of lines would each be as large as the file.
    numbered = (
        (n, line)
        for n, line in enumerate(file_lines(data), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    )
    first = next(numbered, None)
    if first is None:
        raise CatalogueError(_("The catalogue is empty: it needs the header line."))
    header_line, header_text = first
    header = [h.strip() for h in _fields(header_line, header_text)]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise CatalogueError(
            _("The catalogue's header lacks columns."),
            [
                {"row": header_line, "field": c, "message": _("Column {column} is missing.", column=repr(c))}
                for c in missing
            ],
        )
    errors = ResourceErrors()
    rows: list[tuple[int, Card]] = []
    for line, raw in numbered:
        try:
            values = _fields(line, raw)
        except CatalogueError as error:
            errors.extend({**row, "message": said} for row, said in zip(error.errors, error.rows_said, strict=True))
            continue
        if len(values) != len(header):
            errors.append(
                {
                    "row": line,
                    "field": "",
                    "message": _(
                        "The row has {fields} fields; the header has {columns}.",
                        fields=len(values),
                        columns=len(header),
                    ),
                }
            )
            continue
        row = {key: value.strip() for key, value in zip(header, values, strict=True)}
        card = _row_errors(line, row, errors)
        if card is not None:
            rows.append((line, card))
    seen_numbers: dict[str, int] = {}
    seen_names: dict[str, int] = {}
    for line, card in rows:
        if card.numbered and card.number in seen_numbers:
            errors.append(
                {
                    "row": line,
                    "field": "number",
                    "message": _(
                        "{number} is already on row {row}.", number=card.number, row=str(seen_numbers[card.number])
                    ),
                }
            )
        seen_numbers.setdefault(card.number, line)
        if card.name in seen_names:
            errors.append(
                {
                    "row": line,
                    "field": "name",
                    "message": _(
                        "{name} is already on row {row}.", name=repr(card.name), row=str(seen_names[card.name])
                    ),
                }
            )
        seen_names.setdefault(card.name, line)
    by_name = {card.name: card for _, card in rows}
    for line, card in rows:
        if not card.fate_victim:
            continue
        target = by_name.get(card.fate_victim)
        if target is None:
            errors.append(
                {
                    "row": line,
                    "field": "fate_victim",
                    "message": _("No card named {name} in this catalogue.", name=repr(card.fate_victim)),
                }
            )
        elif not target.victim:
            errors.append(
                {
                    "row": line,
                    "field": "fate_victim",
                    "message": _("{name} is a fate victim: mark its row victim=yes.", name=repr(card.fate_victim)),
                }
            )
    if errors:
        errors.sort(key=lambda e: (e["row"], e["field"]))
        raise CatalogueError(_("The catalogue has {count} error(s).", count=errors.total), errors)
    return Catalogue(cards=tuple(card for _, card in rows))


_BOM = b"\xef\xbb\xbf"
_BREAK = re.compile(rb"\r\n|\r|\n")
_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""What ends a line for `str.splitlines` besides carriage returns and line feeds."""
_CHECKED = 1 << 16


def _is_utf8(data: bytes) -> bool:
    """Whether the file is UTF-8, checked a piece at a time (its decoded text is never held whole)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for start in range(0, len(view), _CHECKED):
            decoder.decode(view[start : start + _CHECKED])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def file_lines(data: bytes) -> Iterator[str]:
    """The lines of a UTF-8 file, one at a time, as `data.decode("utf-8-sig").splitlines()` lists them."""
    start = len(_BOM) if data.startswith(_BOM) else 0
    view = memoryview(data)
    for match in _BREAK.finditer(data, start):
        # A CR or LF byte is never inside a UTF-8 character: each piece between them decodes alone. The
        # piece's own breaks (form feed, U+2028...) split it further; one at its end ends a line before
        # the blank one the CR or LF ends.
        piece = str(view[start : match.start()], "utf-8")
        yield from piece.splitlines()
        if not piece or piece[-1] in _OTHER_BREAKS:
            yield ""
        start = match.end()
    if start < len(data):
        yield from str(view[start:], "utf-8").splitlines()


MAX_FIELDS = 64
"""Most commas a catalogue line may hold (a catalogue has under twenty columns): a line of a million commas is
refused before it is split into a million fields."""


def _fields(line: int, raw: str) -> list[str]:
    """The fields of one catalogue line, or a CatalogueError naming the line if it has too many or the CSV
    reader refuses it (a field over its 131,072 characters, a stray quote)."""
    if raw.count(",") > MAX_FIELDS:
        problem = _(
            "The line has {commas} commas; a catalogue line has at most {limit}.",
            commas=raw.count(","),
            limit=MAX_FIELDS,
        )
    else:
        try:
            return next(csv.reader([raw]))
        except csv.Error as error:
            problem = _("The line is not CSV: {error}.", error=str(error))
    raise CatalogueError(_("Line {line} cannot be read.", line=line), [{"row": line, "field": "", "message": problem}])


class CatalogueKind:
    """The `catalogue` resource kind: a club's card list for Atlantic Storm."""

    name = "catalogue"
    media_types: tuple[str, ...] = ("text/csv",)

    def parse(self, data: bytes) -> Any:
        """Parse and validate a catalogue file; JSON-able content or ResourceError."""
        return msgspec.to_builtins(parse_catalogue(data))

    def builtin(self) -> Mapping[str, bytes]:
        """The shipped catalogues by id: only `documented` (the cards the rule texts describe)."""
        return {"documented": _shipped("documented.csv")}


def _shipped(filename: str) -> bytes:
    return resources.files("domain.atlantic_storm").joinpath("catalogues", filename).read_bytes()


def load(content: Any) -> Catalogue:
    """A catalogue from the content embedded in a game's set-up (what `parse` returned)."""
    return msgspec.convert(content, Catalogue)
