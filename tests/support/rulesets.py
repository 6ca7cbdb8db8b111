"""The games the tests serve: the built-in ones and Tally (`testkit.tally`), the test game. Handed
to `create_app`, `GameRecords`, the projections and the command line as a server's composition root
hands them its own."""

from __future__ import annotations

from domain import registry

RULESETS = registry.load(["testkit.tally"])
