"""The words Mémoire 44 gives its own things (sides, unit kinds, units on the board, command cards) as
messages told in the reader's language.

Ids and hexes never change ("ALLIES", "infantry", "attack_centre", "H7" in every language); these are only
the words a person reads. The French names are those the French cards and crib sheet print (seed 003:
*Infanterie*, *Blindés*, *Artillerie*, *Axe*, *Alliés*, *Attaque aérienne*, *Tir de barrage*, *Embuscade*,
*Contre-attaque*, *Combat rapproché*, *Action héroïque*, *Sortie aérienne*, *Reconnaissance 1*); the Spanish
ones are our own
translation. A unit on the board is told as "l'unité d'infanterie", "la unidad blindada": one feminine
singular noun in both languages, so that every sentence agrees whatever the kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.i18n import Arg, Catalogue, Message

_ = Catalogue("domain.memoire44")

SIDES: dict[str, Message] = {"ALLIES": _.pgettext("side", "Allies"), "AXIS": _.pgettext("side", "Axis")}
"""A side's name as a line opens with it ("Allies (Bea)")."""

_SIDE_OF_UNIT: dict[str, Message] = {
    "ALLIES": _.pgettext("unit side", "Allies"),
    "AXIS": _.pgettext("unit side", "Axis"),
}
"""A side as it qualifies a unit ("l'unité d'infanterie alliée", "de l'Axe")."""

KINDS: dict[str, Message] = {
    "infantry": _.pgettext("unit kind", "infantry"),
    "armour": _.pgettext("unit kind", "armour"),
    "artillery": _.pgettext("unit kind", "artillery"),
}
"""A unit kind as the cards print it (Infanterie, Blindés, Artillerie)."""

_UNITS: dict[str, Message] = {
    "infantry": _.pgettext("unit", "infantry"),
    "armour": _.pgettext("unit", "armour"),
    "artillery": _.pgettext("unit", "artillery"),
}
"""A unit of a kind ("unité d'infanterie", "unidad blindada")."""

CARD_NAMES: dict[str, Message] = {
    "recon_1_left": _.pgettext("card", "Recon 1 Left"),
    "recon_1_centre": _.pgettext("card", "Recon 1 Centre"),
    "recon_1_right": _.pgettext("card", "Recon 1 Right"),
    "probe_left": _.pgettext("card", "Probe Left"),
    "probe_centre": _.pgettext("card", "Probe Centre"),
    "probe_right": _.pgettext("card", "Probe Right"),
    "attack_left": _.pgettext("card", "Attack Left"),
    "attack_centre": _.pgettext("card", "Attack Centre"),
    "attack_right": _.pgettext("card", "Attack Right"),
    "assault_left": _.pgettext("card", "Assault Left"),
    "assault_centre": _.pgettext("card", "Assault Centre"),
    "assault_right": _.pgettext("card", "Assault Right"),
    "general_advance": _.pgettext("card", "General Advance"),
    "pincer_move": _.pgettext("card", "Pincer Move"),
    "recon_in_force": _.pgettext("card", "Recon in Force"),
    "air_power": _.pgettext("card", "Air Power"),
    "ambush": _.pgettext("card", "Ambush"),
    "armor_assault": _.pgettext("card", "Armor Assault"),
    "artillery_bombard": _.pgettext("card", "Artillery Bombard"),
    "barrage": _.pgettext("card", "Barrage"),
    "behind_enemy_lines": _.pgettext("card", "Behind Enemy Lines"),
    "close_assault": _.pgettext("card", "Close Assault"),
    "counter_attack": _.pgettext("card", "Counter-Attack"),
    "dig_in": _.pgettext("card", "Dig In"),
    "direct_from_hq": _.pgettext("card", "Direct from HQ"),
    "firefight": _.pgettext("card", "Firefight"),
    "infantry_assault": _.pgettext("card", "Infantry Assault"),
    "medics_and_mechanics": _.pgettext("card", "Medics & Mechanics"),
    "move_out": _.pgettext("card", "Move Out!"),
    "their_finest_hour": _.pgettext("card", "Their Finest Hour"),
    "air_sortie": _.pgettext("card", "Air Sortie"),
}
"""Each command card's printed name, by its id (`catalogue.CARDS`)."""

SECTIONS: dict[str, Message] = {
    "left": _.pgettext("section", "left"),
    "centre": _.pgettext("section", "centre"),
    "right": _.pgettext("section", "right"),
}


INITIATIVE_NAME = _.pgettext("card", "Initiative")
"""What a general acting on the Overlord initiative table plays in place of a card (M44-OV-7)."""


def card(card_id: str) -> Arg:
    """A command card's name as the reader's cards print it (its id if the deck has no such card)."""
    return INITIATIVE_NAME if card_id == "initiative" else CARD_NAMES.get(card_id, card_id)


def section(name: str) -> Arg:
    """A board section ("left") as the reader says it."""
    return SECTIONS.get(name, name)


def sections(names: Sequence[str]) -> Arg:
    """Sections one or the other: "left or centre"."""
    return alternatives([section(s) for s in names])


TERRAIN_NAMES: dict[str, Message] = {
    "countryside": _.pgettext("terrain", "countryside"),
    "forest": _.pgettext("terrain", "forest"),
    "town": _.pgettext("terrain", "town"),
    "church": _.pgettext("terrain", "church"),
    "hedgerow": _.pgettext("terrain", "hedgerow"),
    "hill": _.pgettext("terrain", "hill"),
    "river": _.pgettext("terrain", "river"),
    "pond": _.pgettext("terrain", "pond"),
    "ocean": _.pgettext("terrain", "ocean"),
    "beach": _.pgettext("terrain", "beach"),
    "road": _.pgettext("terrain", "road"),
    "sandbags": _.pgettext("terrain", "sandbags"),
    "wire": _.pgettext("terrain", "wire"),
    "bunker": _.pgettext("terrain", "bunker"),
    "hedgehog": _.pgettext("terrain", "hedgehog"),
}
"""Terrain and obstacles by the names the rules read them with (`catalogue.TERRAINS`, `OBSTACLES`), as the
French terrain tiles print them (Forêts, Villes et villages, Haies, Collines, Rivières, Plages, Barbelés,
Sacs de sable, Hérissons tchèques)."""


def terrain(name: str) -> Arg:
    """A terrain or obstacle as the reader says it; one the game does not name, as the scenario spells it."""
    return TERRAIN_NAMES.get(name, name)


def alternatives(items: Sequence[Arg]) -> Arg:
    """ "A or B or C": one of several things."""
    line = items[0] if items else ""
    for item in items[1:]:
        line = _("{first} or {then}", first=line, then=item)
    return line


def side(name: str) -> Arg:
    """A side ("ALLIES") as a line names it; a side the game does not know, as the scenario spells it."""
    return SIDES.get(name, name.title())


def kind(name: str) -> Arg:
    return KINDS.get(name, name)


FACES: dict[str, Message] = {
    "infantry": _.pgettext("die face", "infantry"),
    "armour": _.pgettext("die face", "armour"),
    "grenade": _.pgettext("die face", "grenade"),
    "star": _.pgettext("die face", "star"),
    "flag": _.pgettext("die face", "flag"),
}
"""A battle die's faces (M44-3) as the French crib sheet prints them (Grenade, Etoile, Drapeau)."""


def faces(rolled: tuple[str, ...] | list[str]) -> Arg:
    """Dice faces one after the other: "infantry, grenade, flag"; none yet (an attack listed before its
    dice, on the recording page's button) in words, never an empty list before a full stop."""
    if not rolled:
        return _("dice to roll")
    return listed([FACES.get(face, face) for face in rolled])


def unit(
    kind_id: str, hex_name: str | None, side_id: str | None = None, starts: bool = False, article: bool = True
) -> Arg:
    """A unit on the board: "the infantry at H7" (its own side's line), "the Allies armour at C3" (with
    `side_id`); `starts`: it opens the sentence ("The ..."); `article=False`: in a list ("infantry at H7")."""
    one = _UNITS.get(kind_id, kind_id)
    if not article:
        return one if hex_name is None else _.pgettext("listed", "{unit} at {hex}", unit=one, hex=hex_name)
    if side_id is None:
        if hex_name is None:
            return _("the {unit}", unit=one)
        return _("the {unit} at {hex}", unit=one, hex=hex_name)
    of = _SIDE_OF_UNIT.get(side_id, side_id.title())
    if starts:
        if hex_name is None:
            return _.pgettext("sentence start", "The {side} {unit}", side=of, unit=one)
        return _.pgettext("sentence start", "The {side} {unit} at {hex}", side=of, unit=one, hex=hex_name)
    if hex_name is None:
        return _("the {side} {unit}", side=of, unit=one)
    return _("the {side} {unit} at {hex}", side=of, unit=one, hex=hex_name)


def listed(items: Sequence[Arg], *, sep: str = ", ") -> Arg:
    """ "A, B, C" (or "A and B" with `sep=" and "`, "A; B" with `sep="; "`): names one after the other."""
    line = items[0] if items else ""
    for item in items[1:]:
        if sep == ", ":
            line = _("{first}, {then}", first=line, then=item)
        elif sep == "; ":
            line = _("{first}; {then}", first=line, then=item)
        else:
            line = _("{first} and {then}", first=line, then=item)
    return line


WEATHERS: dict[str, Message] = {
    "snow": _.pgettext("weather", "snow"),
    "fog": _.pgettext("weather", "fog"),
    "rain": _.pgettext("weather", "rain"),
    "darkness": _.pgettext("weather", "darkness"),
}
"""The reduced-visibility weathers (M44-WX-2) as the crib sheet names them (Chute de neige, Brouillard,
Pluie battante, Obscurité)."""


def weather(name: str) -> Arg:
    return WEATHERS.get(name, name)


PHASES: dict[str, Message] = {
    "deal": _.pgettext("phase", "the deal"),
    "card": _.pgettext("phase", "the card"),
    "order": _.pgettext("phase", "the orders"),
    "roll": _.pgettext("phase", "the tactic card's roll"),
    "plays": _.pgettext("phase", "the generals' cards"),
    "move": _.pgettext("phase", "the moves"),
    "battle": _.pgettext("phase", "the battles"),
    "recon": _.pgettext("phase", "the Recon draw"),
    "draw": _.pgettext("phase", "the draw"),
    "over": _.pgettext("phase", "the game's end"),
}
"""The steps of a turn (M44-6) as a refusal tells where the game stands."""


def phase(name: str) -> Arg:
    return PHASES.get(name, name)


COMBAT_CARDS: dict[str, Message] = {
    "tenacity": _.pgettext("combat card", "Tenacity"),
    "street_fighting": _.pgettext("combat card", "Street Fighting"),
}
"""The combat cards a rule names by their effect (M44-CC-3), as the crib sheet prints them (Ténacité,
Combat de rue); a club's combat deck names its own cards as it wrote them."""
