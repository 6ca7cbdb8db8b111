"""The words the projections tell people (tie-break explanations, campaign notes, replay lines), as
`domain.i18n.Message`s of this package's catalogue (`projections/locale/`).

A projection that returns text takes `words` (default: English), the function that turns its messages
into the text its structs carry: the service passes its `service.i18n.Translator` for the reader's
language, so the structs (and the wire) keep their shape whatever the language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.i18n import Arg, Catalogue, Message

_ = Catalogue("projections")

Teller = Callable[[str | Message], str]
"""How a reader's language tells a message (`domain.i18n.english`, or the service's translator)."""


def listed(names: Sequence[Arg]) -> Arg:
    """Names one after the other: "Alain", "Alain and Bea", "Alain, Bea and Cleo"."""
    if len(names) <= 1:
        return names[0] if names else ""
    said = names[0]
    for name in names[1:-1]:
        said = _("{first}, {then}", first=said, then=name)
    return _("{first} and {last}", first=said, last=names[-1])
