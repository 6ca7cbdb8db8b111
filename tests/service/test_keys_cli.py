"""`tablelog key create | list | revoke`: scopes, expiry and revocation from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.cli import main
from service.store import open_store
from service.usecases.access import authenticate


def test_keys_are_created_with_a_scope_listed_without_their_tokens_and_revoked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    assert main(["club", "create", "brest", "Club de Brest", "--database-url", url]) == 0
    assert (
        main(
            [
                "key",
                "create",
                "brest",
                "--name",
                "door tablet",
                "--scope",
                "spectate",
                "--expires",
                "2099-01-01",
                "--database-url",
                url,
            ]
        )
        == 0
    )
    token = capsys.readouterr().out.strip().splitlines()[-1]
    key_id = token.split("_")[1]
    assert main(["key", "list", "brest", "--database-url", url]) == 0
    listing = capsys.readouterr().out
    row = next(line for line in listing.splitlines() if line.startswith(key_id))
    assert "spectate" in row and "2099-01-01 00:00 UTC" in row and row.endswith("door tablet")
    assert token.split("_", 2)[2] not in listing
    store = open_store(url)
    principal = authenticate(store, token, None)
    assert principal is not None and principal.scope == "spectate" and not principal.sees_hidden
    assert main(["key", "revoke", key_id, "--database-url", url]) == 0
    assert f"key {key_id} (door tablet, club brest) revoked at" in capsys.readouterr().out
    assert authenticate(store, token, None) is None
    assert main(["key", "list", "brest", "--database-url", url]) == 0
    assert "UTC door tablet" in capsys.readouterr().out  # the revoked column is filled
    assert main(["key", "revoke", "nope", "--database-url", url]) == 2
    assert "no key 'nope'" in capsys.readouterr().err
    store.close()
