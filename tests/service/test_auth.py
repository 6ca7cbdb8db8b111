"""API keys: tokens are checked against the stored hash, and remembered for a short while."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from service.store import open_store
from service.store.base import Store
from service.usecases.access import Authenticator, hash_secret, new_key, new_session


def _club_with_key(tmp_path: Path) -> tuple[Store, str, str, str]:
    """A migrated SQLite store with club c1 and one scorer key: the store, the key id, token and hash."""
    store = open_store(f"sqlite:///{tmp_path / 'k.db'}")
    store.migrate()
    store.create_club("c1", "Club")
    key_id, token, secret_hash = new_key()
    store.create_api_key(key_id, "c1", "scorer", secret_hash)
    return store, key_id, token, secret_hash


def test_a_key_is_looked_up_once_within_the_ttl_and_again_after_it(tmp_path: Path) -> None:
    store, key_id, token, _secret_hash = _club_with_key(tmp_path)
    lookups: list[str] = []
    real = store.get_api_key

    def counting(key: str):  # type: ignore[no-untyped-def]
        lookups.append(key)
        return real(key)

    store.get_api_key = counting  # type: ignore[method-assign]
    remembering = Authenticator(store, operator_key="op", ttl=60)
    first, second = remembering(token), remembering(token)
    assert first == second and first is not None and (first.club_id, first.key_id) == ("c1", key_id)
    assert lookups == [key_id]
    forgetting = Authenticator(store, operator_key="op", ttl=0)
    forgetting(token), forgetting(token)
    assert lookups == [key_id, key_id, key_id]
    store.close()


def test_a_wrong_secret_the_operator_key_and_no_token_are_told_apart(tmp_path: Path) -> None:
    store, key_id, token, secret_hash = _club_with_key(tmp_path)
    check = Authenticator(store, operator_key="op")
    assert check(f"tl_{key_id}_not-the-secret") is None
    assert check(None) is None and check("") is None
    operator = check("op")
    assert operator is not None and operator.operator and operator.club_id is None
    assert secret_hash == hash_secret(token.split("_", 2)[2]) and secret_hash not in token
    store.close()


def test_a_key_is_known_without_the_database_only_while_revocations_are_heard(tmp_path: Path) -> None:
    from service.notify import Hub

    store, key_id, token, _secret_hash = _club_with_key(tmp_path)
    hub = Hub()
    check = Authenticator(store, operator_key="op", hub=hub)
    operator = check.remembered("op")
    assert operator is not None and operator.operator
    assert check.remembered(None) is None and check.remembered(token) is None  # never read yet
    hub.access_changed(listening=True)
    assert check(token) is not None
    known = check.remembered(token)
    assert known is not None and known.key_id == key_id
    hub.access_changed(1)  # a revocation heard anywhere: forget, read again
    assert check.remembered(token) is None
    assert check(token) is not None and check.remembered(token) is not None
    hub.access_changed(listening=False)  # deaf: a revocation could be missed, so always read
    assert check.remembered(token) is None
    store.close()


def test_a_page_session_is_known_without_the_database_only_while_revocations_are_heard(tmp_path: Path) -> None:
    from service.notify import Hub

    store = open_store(f"sqlite:///{tmp_path / 's.db'}")
    store.migrate()
    store.create_club("c1", "Club")
    key_id, _token, secret_hash = new_key()
    store.create_api_key(key_id, "c1", "scorer", secret_hash)
    session_id, cookie, session_hash = new_session()
    store.create_page_session(session_id, key_id, session_hash, datetime.now(UTC) + timedelta(hours=1))
    hub = Hub()
    check = Authenticator(store, operator_key="op", hub=hub)
    hub.access_changed(listening=True)
    assert check.remembered(cookie, "session") is None  # never read yet
    read = check.session(cookie)
    assert read is not None and read.session_id == session_id and read.key_id == key_id
    assert check.remembered(cookie, "session") == read
    assert check.remembered(cookie) is None  # a cookie is never taken for a key
    assert check.remembered("op", "session") is None  # nor the operator key for a session
    hub.access_changed(1)  # a revocation heard: forget, read again
    assert check.remembered(cookie, "session") is None
    store.close()


def test_a_revocation_made_here_is_refused_here_at_once_even_before_it_is_heard(tmp_path: Path) -> None:
    """The revoking process's own next request must not wait on the notification coming back: `settle`
    forgets here at once, and waits (boundedly) for what the other processes hear."""
    from service.notify import Hub

    store, key_id, token, _secret_hash = _club_with_key(tmp_path)
    hub = Hub()
    check = Authenticator(store, operator_key="op", hub=hub)
    hub.access_changed(listening=True)
    assert check(token) is not None and check.remembered(token) is not None
    store.revoke_api_key(key_id)
    assert check.remembered(token) is not None  # not heard yet (and it never will be here): remembered
    check.settle()  # waits its bound (2 s) for the notification, and forgets here whatever comes
    assert check.remembered(token) is None and check(token) is None
    store.close()
