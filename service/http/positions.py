"""Read-your-writes tokens (issue 13 part 10): what an append answers instead of global positions.

A global position numbers every event of every club, so the positions a club's appends got, and their
gaps, told that club how much the other clubs wrote. An append now answers with a token: the last position
it wrote, sealed with AES-GCM under a key every node of the deployment shares (the `position_key`
setting, else a secret made once in the database), with the club as associated data. A fresh random nonce
per token makes two tokens of one position differ, and every token has the same length, so neither a
token's value nor the difference of two says anything; a token opens only for the club it was given to,
and a forged or altered one is refused. Only the operator sees global figures (`/ready`, the CLI)."""

from __future__ import annotations

import base64
import binascii
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

SECRET_NAME = "read_your_writes"
"""The name of the database-made secret (`Store.server_secret`) when no `position_key` is set."""
MIN_SECRET_LENGTH = 32

_NONCE = 12
_POSITION = 8  # positions are PostgreSQL bigints
TOKEN_LENGTH = len(base64.urlsafe_b64encode(bytes(_NONCE + _POSITION + 16)).rstrip(b"="))
"""Every token has this many characters (nonce, sealed position and tag, base64url without padding)."""


class BadToken(ValueError):
    """A token this deployment did not give to this club (an old client's number, a forged or altered
    token, another club's, or one sealed under another key)."""


class PositionTokens:
    """Seals a club's global position into an opaque token, and opens it again."""

    def __init__(self, secret: str) -> None:
        if len(secret) < MIN_SECRET_LENGTH:
            raise ValueError(f"the position key needs at least {MIN_SECRET_LENGTH} characters")
        # The secret is any string (an operator's setting or the database's hex): HKDF makes it an AES key.
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"tablelog read-your-writes").derive(
            secret.encode()
        )
        self._aead = AESGCM(key)

    def seal(self, club_id: str, position: int) -> str:
        nonce = os.urandom(_NONCE)
        sealed = self._aead.encrypt(nonce, position.to_bytes(_POSITION, "big"), club_id.encode())
        return base64.urlsafe_b64encode(nonce + sealed).rstrip(b"=").decode()

    def open(self, club_id: str, token: str) -> int:
        """The position sealed in `token` for `club_id` (BadToken if it is not such a token)."""
        if len(token) != TOKEN_LENGTH:
            raise BadToken(token)
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            plain = self._aead.decrypt(raw[:_NONCE], raw[_NONCE:], club_id.encode())
        except (binascii.Error, ValueError, InvalidTag) as error:
            raise BadToken(token) from error
        return int.from_bytes(plain, "big")
