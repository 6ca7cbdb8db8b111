"""Which expansion rules a scenario turns on (M44-SC-1), read from the `.m44` file's `game_info.options`.

The scenario editor's own option names are kept (`blitz_rules`, `italy_high_command`,
`italy_royal_army`, `british_commonwealth`, `night_visibility_rules`, `russian_commissar_rule`, ...);
the project adds `weather` (`snow`, `fog`, `rain`, `darkness`). Options the format knows but the rules
core does not record yet (none at present) are refused by name, so a club never
records a game under rules it silently ignores; an option nobody knows is refused as unknown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from domain.i18n import Catalogue, Message

_ = Catalogue("domain.memoire44")

# Weather that reduces visibility (M44-WX-2); snow also slows moves (M44-WX-1).
WEATHERS: tuple[str, ...] = ("snow", "fog", "rain", "darkness")

# Option name -> what it turns on, for the error a club reads.
SUPPORTED: dict[str, str] = {
    "blitz_rules": "Blitz rules (M44-BL-1, M44-BL-2)",
    "italy_high_command": "Italian High Command (M44-IT-1)",
    "italy_royal_army": "Italian Royal Army retreats (M44-IT-2)",
    "british_commonwealth": "British Commonwealth battle back (M44-GB-1)",
    "night_visibility_rules": "night attacks (M44-NT-1, M44-NT-2)",
    "north_african_desert_rules": "North Africa armour overrun (M44-NA-1)",
    "weather": "weather (M44-WX-1, M44-WX-2)",
    "russian_commissar_rule": "the Russian commissar (M44-RU-1, M44-RU-2)",
    "air_superiority": "D-Day air superiority (M44-DD-4)",
    "off_board_artillery": "D-Day off-board artillery (M44-DD-5)",
    "gung_ho": "the US Marines at an Overlord team table (M44-OV-9)",
    "combat_cards": "the combat cards (M44-CC-1 to M44-CC-3), with the combat deck imported as a resource",
    "air_rules": "the Air Pack rules (M44-AIR-1 to M44-AIR-17), with the air pack imported as a resource",
    "air_theatre": "the theatre and date the air pack's superiority table is read at (M44-AIR-1)",
    "air_planes_on_ground": "planes standing on the ground at the start, by plane id: [row, col] (M44-AIR-13)",
    "air_sorties": "the Air Sortie cards each side holds apart from its command cards, by side: a number (M44-AIR-15)",
    "dday_rules": "the D-Day Landings reinforcements (M44-DD-6 to M44-DD-9), with the reinforcement table "
    "imported as a resource and the scenario's `game_info.dday` reserve, entry tokens and landing craft",
}
# Options whose value names a side; `true` means the Allies.
SIDE_OPTIONS: dict[str, str] = {
    "russian_commissar_rule": "commissar",
    "air_superiority": "air_superiority",
    "off_board_artillery": "off_board_artillery",
    "gung_ho": "marines",
}
MAX_SORTIES = 9  # a sanity bound on the Air Sortie cards a scenario deals a side (M44-AIR-15)
NOT_YET: dict[str, str] = {  # none at present
}


class Expansions(msgspec.Struct, frozen=True, kw_only=True):
    """The expansion rules a scenario plays with; all off by default (the base game)."""

    blitz: bool = False
    italy_high_command: bool = False
    italy_royal_army: bool = False
    british_commonwealth: bool = False
    night: bool = False
    north_africa: bool = False
    weather: str = ""
    commissar: str = ""  # the side under the commissar rule, "" if none
    air_superiority: str = ""  # the side rolling 2 dice per hex with Air Power ("": the Allies, as in the base game)
    off_board_artillery: str = ""  # the side whose Recon 1 cards may be played as Barrage
    marines: str = ""  # the side under the US Marines command rule (M44-OV-9)
    combat_cards: bool = False  # M44-CC-1
    air: bool = False  # M44-AIR-1
    air_theatre: str = ""  # the key of the air pack's superiority table (M44-AIR-1)
    planes_on_ground: tuple[tuple[str, int, int], ...] = ()  # (plane id, row, col), M44-AIR-13
    # (side, Air Sortie cards), M44-AIR-15; left out of the scenario's JSON form when not set, so the scenarios of
    # games recorded before the setting existed read back the same.
    air_sorties: tuple[tuple[str, int], ...] | UnsetType = UNSET
    dday: bool = False  # D-Day reinforcements (M44-DD-6 to M44-DD-9)

    @property
    def sorties(self) -> dict[str, int] | None:
        """The Air Sortie cards the scenario deals each side, or None when it deals none (M44-AIR-15)."""
        return None if isinstance(self.air_sorties, UnsetType) else dict(self.air_sorties)

    @property
    def snow(self) -> bool:
        return self.weather == "snow"

    @property
    def reduced_visibility(self) -> bool:
        return self.weather in WEATHERS


BASE = Expansions()


def parse_options(options: Any) -> tuple[Expansions, list[tuple[str, Message]]]:
    """The expansions `game_info.options` turns on, and (field, message) for each option refused."""
    if options in (None, {}, []):
        return BASE, []
    if not isinstance(options, Mapping):
        return BASE, [("game_info.options", _("must be an object of option names"))]
    errors: list[tuple[str, Message]] = []
    flags: dict[str, Any] = {}
    for name, value in options.items():
        field = f"game_info.options.{name}"
        if name in NOT_YET:
            if value not in (False, None, "", 0):
                errors.append((field, _("{rules} are not recorded by tablelog yet (M44-SC-1)", rules=NOT_YET[name])))
            continue
        if name not in SUPPORTED:
            known = str(sorted(SUPPORTED) + sorted(NOT_YET))
            errors.append((field, _("unknown option {name}; known: {known}", name=repr(name), known=known)))
            continue
        if name == "weather":
            if value not in ("", None, *WEATHERS):
                weathers = str(list(WEATHERS))
                errors.append(
                    (field, _("weather must be one of {weathers}, not {value}", weathers=weathers, value=repr(value)))
                )
                continue
            flags["weather"] = value or ""
            continue
        if name == "air_planes_on_ground":
            try:
                spots = msgspec.convert(value, dict[str, tuple[int, int]])
            except msgspec.ValidationError:
                errors.append((field, _("must map plane ids to a hex [row, col]")))
                continue
            flags["planes_on_ground"] = tuple((plane, row, col) for plane, (row, col) in sorted(spots.items()))
            continue
        if name == "air_sorties":
            try:
                sorties = msgspec.convert(value, dict[str, int])
            except msgspec.ValidationError:
                errors.append((field, _("must map sides (ALLIES, AXIS) to a number of Air Sortie cards")))
                continue
            if set(sorties) - {"ALLIES", "AXIS"} or not all(0 <= n <= MAX_SORTIES for n in sorties.values()):
                errors.append(
                    (field, _("must map sides (ALLIES, AXIS) to 0 to {most} Air Sortie cards", most=MAX_SORTIES))
                )
                continue
            flags["air_sorties"] = tuple(sorted(sorties.items()))
            continue
        if name == "air_theatre":
            if not isinstance(value, str):
                errors.append(
                    (
                        field,
                        _("must name a theatre of the air pack's superiority table, not {value}", value=repr(value)),
                    )
                )
                continue
            flags["air_theatre"] = value
            continue
        if name in SIDE_OPTIONS:
            # The editor names the side; `true` means the Allies (the Russians', the D-Day landings' side).
            side = "ALLIES" if value is True else "" if value in (False, None) else value
            if side not in ("", "ALLIES", "AXIS"):
                errors.append(
                    (field, _("must name a side (ALLIES or AXIS) or be true or false, not {value}", value=repr(value)))
                )
                continue
            flags[SIDE_OPTIONS[name]] = side
            continue
        if not isinstance(value, bool):
            errors.append((field, _("must be true or false, not {value}", value=repr(value))))
            continue
        flags[name] = value
    return (
        Expansions(
            blitz=flags.get("blitz_rules", False),
            italy_high_command=flags.get("italy_high_command", False),
            italy_royal_army=flags.get("italy_royal_army", False),
            british_commonwealth=flags.get("british_commonwealth", False),
            night=flags.get("night_visibility_rules", False),
            north_africa=flags.get("north_african_desert_rules", False),
            weather=flags.get("weather", ""),
            commissar=flags.get("commissar", ""),
            air_superiority=flags.get("air_superiority", ""),
            off_board_artillery=flags.get("off_board_artillery", ""),
            marines=flags.get("marines", ""),
            combat_cards=flags.get("combat_cards", False),
            air=flags.get("air_rules", False),
            air_theatre=flags.get("air_theatre", ""),
            planes_on_ground=flags.get("planes_on_ground", ()),
            air_sorties=flags.get("air_sorties", UNSET),
            dday=flags.get("dday_rules", False),
        ),
        errors,
    )
