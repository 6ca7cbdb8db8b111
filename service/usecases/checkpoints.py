"""Signed checkpoints of every game's head (issue 25, part 6): the record's links show a changed event only
to someone who cannot recompute them, and anyone who can write rows can. A checkpoint is each game's last
version and link signed with an Ed25519 key the operator keeps outside the database (`tablelog checkpoint`,
by hand or on a schedule, appends them to a file kept apart); `tablelog verify` then finds a game cut short,
removed, or rewritten with links recomputed, against the last checkpoint whose signature holds."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from service.store.base import GameRecord
from service.usecases.games import ChainBreak, GameRecords


class Checkpoint(msgspec.Struct, frozen=True, kw_only=True):
    """A game's head as it stood when signed."""

    club_id: str
    game_id: str
    version: int
    link: str
    signed_at: datetime
    signature: str = ""
    """Ed25519 over `signed_bytes`, base64."""

    def signed_bytes(self) -> bytes:
        return msgspec.json.encode(msgspec.structs.replace(self, signature=""), order="sorted")


class CheckpointError(Exception):
    """A key or a checkpoint file that cannot be read (the CLI prints it in one line)."""


def new_signing_key(path: Path) -> str:
    """Write a new private key to `path` (readable by its owner only; refused if the file exists) and
    return its public key, PEM, to keep where `verify` runs."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise CheckpointError(f"{path} exists: a signing key is never overwritten") from None
    with os.fdopen(descriptor, "wb") as file:
        file.write(pem)
    return public_pem(key.public_key())


def public_pem(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def signing_key(path: Path) -> Ed25519PrivateKey:
    key = _read_key(path)
    if not isinstance(key, Ed25519PrivateKey):
        raise CheckpointError(f"{path} holds no Ed25519 private key")
    return key


def verifying_key(path: Path) -> Ed25519PublicKey:
    """The public key in `path` (or the public half of a private key there)."""
    key = _read_key(path)
    if isinstance(key, Ed25519PrivateKey):
        return key.public_key()
    if not isinstance(key, Ed25519PublicKey):
        raise CheckpointError(f"{path} holds no Ed25519 key")
    return key


def _read_key(path: Path) -> object:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CheckpointError(f"cannot read {path}: {error.strerror}") from None
    try:
        return serialization.load_pem_private_key(data, None)
    except (ValueError, TypeError):
        pass
    try:
        return serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        raise CheckpointError(f"{path} holds no PEM key") from None


def heads(records: GameRecords) -> Iterator[tuple[GameRecord, int, str]]:
    """Every game's last version and link."""
    for game in records.every_game():
        if game.version:
            yield game, game.version, records.link_at(game, game.version)


def take(records: GameRecords, key: Ed25519PrivateKey, now: datetime | None = None) -> list[Checkpoint]:
    """A signed checkpoint of every game's head."""
    moment = now or datetime.now(UTC)
    out = []
    for game, version, link in heads(records):
        unsigned = Checkpoint(club_id=game.club_id, game_id=game.game_id, version=version, link=link, signed_at=moment)
        signature = base64.b64encode(key.sign(unsigned.signed_bytes())).decode()
        out.append(msgspec.structs.replace(unsigned, signature=signature))
    return out


def append_to(path: Path, checkpoints: Iterable[Checkpoint]) -> int:
    """Add checkpoints to the file kept apart (JSON Lines); the number written."""
    lines = [msgspec.json.encode(c) + b"\n" for c in checkpoints]
    with path.open("ab") as file:
        file.writelines(lines)
        file.flush()
        os.fsync(file.fileno())
    return len(lines)


def read_from(path: Path) -> list[Checkpoint]:
    try:
        lines = path.read_bytes().splitlines()
    except OSError as error:
        raise CheckpointError(f"cannot read {path}: {error.strerror}") from None
    try:
        return [msgspec.json.decode(line, type=Checkpoint) for line in lines if line.strip()]
    except msgspec.DecodeError as error:
        raise CheckpointError(f"{path} is not a checkpoint file: {error}") from None


def check(records: GameRecords, checkpoints: Sequence[Checkpoint], key: Ed25519PublicKey) -> Iterator[ChainBreak]:
    """The record against the last checkpoint of each game whose signature holds: a game removed, events
    removed from its end, or an event whose link differs from the one signed (the record rewritten, its links
    recomputed). A checkpoint whose signature does not hold is reported and not used."""
    latest: dict[tuple[str, str], Checkpoint] = {}
    for checkpoint in checkpoints:
        try:
            key.verify(base64.b64decode(checkpoint.signature), checkpoint.signed_bytes())
        except (InvalidSignature, ValueError):
            yield _break(checkpoint, "a checkpoint of it is not signed by the key given: it was forged or changed")
            continue
        known = latest.get((checkpoint.club_id, checkpoint.game_id))
        if known is None or (checkpoint.signed_at, checkpoint.version) >= (known.signed_at, known.version):
            latest[(checkpoint.club_id, checkpoint.game_id)] = checkpoint
    for (club_id, game_id), checkpoint in sorted(latest.items()):
        game = records.listing(club_id, game_id)
        if game is None:
            yield _break(
                checkpoint, f"the game was removed since its checkpoint of {checkpoint.signed_at:%Y-%m-%d %H:%M}"
            )
            continue
        if not records.stored(game, after_version=checkpoint.version - 1, limit=1):
            remaining = len(records.stored(game))
            yield _break(
                checkpoint,
                f"events up to {checkpoint.version} were signed on {checkpoint.signed_at:%Y-%m-%d %H:%M}; "
                f"only {remaining} remain",
            )
        elif records.link_at(game, checkpoint.version) != checkpoint.link:
            yield _break(checkpoint, "its link differs from the one signed: the game was rewritten since")


def _break(checkpoint: Checkpoint, reason: str) -> ChainBreak:
    return ChainBreak(
        club_id=checkpoint.club_id,
        game_id=checkpoint.game_id,
        version=checkpoint.version,
        type="checkpoint",
        reason=reason,
    )
