"""Sealing a server-dealt game record, so a client can hold it but neither read nor forge its hidden cards.

The seal is the whole record (every hand, the stock, the seed), compressed, then encrypted and
authenticated with AES-256-GCM (the ``cryptography`` package, a reviewed implementation rather than one
of ours): ``v2.`` + base64url(nonce ‖ ciphertext and tag), a fresh 12-byte nonce per seal, the key derived
from the service key, the format name as associated data.

The service key comes from ``LOBA_SERVICE_KEY`` (any text; 32 random bytes or more as hex is right), or is
drawn at random when the variable is unset (``loba serve`` draws it once and shares it with its workers);
a seal made under one key does not open under another.

>>> s = Sealer(b"k" * 32)
>>> s.open(s.seal({"a": 1}))
{'a': 1}
>>> t = s.seal({"a": 1})
>>> s.open(t[:10] + ("B" if t[10] == "A" else "A") + t[11:]) is None  # one character altered
True
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
import zlib
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = ["KEY_ENV", "Sealer", "service_key"]

KEY_ENV = "LOBA_SERVICE_KEY"
_PREFIX = "v2."
_NONCE = 12
_TAG = 16
_AAD = b"loba-record/1 seal v2"
MAX_SEAL = 400_000
"""Longest seal accepted, in characters (a sealed record of many rounds stays far below it)."""
MAX_PLAIN = 4_000_000
"""Largest record a seal may open to, in bytes (a bound on decompression)."""


def service_key(environ: dict[str, str] | None = None) -> bytes:
    """The key from ``LOBA_SERVICE_KEY``, or 32 fresh random bytes."""
    env = os.environ if environ is None else environ
    raw = env.get(KEY_ENV)
    if raw:
        return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).digest()
    return secrets.token_bytes(32)


class Sealer:
    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(hmac.new(key, b"loba-seal-aes-256-gcm", hashlib.sha256).digest())

    def seal(self, value: Any) -> str:
        plain = zlib.compress(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)
        nonce = secrets.token_bytes(_NONCE)
        sealed = self._aead.encrypt(nonce, plain, _AAD)
        return _PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode("ascii").rstrip("=")

    def open(self, token: object) -> Any:
        """The sealed value, or ``None`` for anything that is not a seal of ours, intact."""
        if not isinstance(token, str) or not token.startswith(_PREFIX) or len(token) > MAX_SEAL:
            return None
        body = token[len(_PREFIX):]
        try:
            raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            return None
        if len(raw) < _NONCE + _TAG:
            return None
        try:
            plain = self._aead.decrypt(raw[:_NONCE], raw[_NONCE:], _AAD)
        except InvalidTag:
            return None
        try:
            d = zlib.decompressobj()
            data = d.decompress(plain, MAX_PLAIN)
            return json.loads(data.decode("utf-8"))
        except (zlib.error, ValueError, UnicodeDecodeError):
            return None
