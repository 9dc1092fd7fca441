"""The server's own key, kept in a file beside the database (`sandbox.db.key`), never in it.

Secrets the API must show again (a share link's key, in its `urls.published`) are derived
from this key or sealed with it, and the database holds only their SHA-256 digests: a copy of
the database alone opens nothing. The file is created on first start, 0600 from birth (a
temporary file that `os.link` puts in place, so two processes starting at once agree on one
key and nobody reads half of one). Losing it keeps every share link working (they are checked
against the digests), but their URLs can no longer be shown (`urls` then has no `published`).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
from collections.abc import Callable
from pathlib import Path

KEY_BYTES = 32
SHARE_KEY_BYTES = 24
"""A share key is 24 bytes of HMAC, 32 URL-safe characters (as the random keys were)."""


class ServerKeyError(RuntimeError):
    """The key file beside the database exists but is not a key, or cannot be made."""


def key_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".key")


def _read(path: Path) -> bytes:
    text = path.read_text(encoding="ascii", errors="replace").strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise ServerKeyError(
            f"{path}: not a docdeck server key ({KEY_BYTES * 2} hex digits); restore the file "
            "that was made with this database, or move it away to make a new one (share links "
            "keep working, but their URLs can no longer be shown)"
        )
    return key


def load_or_create(path: Path) -> bytes:
    """The key in `path`, made there first if there is none."""
    with contextlib.suppress(FileNotFoundError):
        return _read(path)
    import tempfile  # only on the first start

    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise ServerKeyError(f"{path}: cannot create the server key ({error})") from error
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(KEY_BYTES) + "\n")
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileExistsError):  # another process made it first: theirs
            os.link(temporary, path)
    except OSError as error:
        raise ServerKeyError(f"{path}: cannot create the server key ({error})") from error
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    return _read(path)


def secret_digest(secret: str) -> str | None:
    """What is stored of a secret (its SHA-256, hex); None for one that is no key at all
    (empty or not ASCII: every key the server makes is URL-safe ASCII)."""
    if not secret or not secret.isascii():
        return None
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def same_digest(stored: str, digest: str) -> bool:
    """Whether two hex digests are equal, compared in constant time as bytes."""
    return hmac.compare_digest(stored.encode("ascii"), digest.encode("ascii"))


class ServerKey:
    """What the server derives from its key file, read (or made) by `load` when first needed:
    `Database` loads it once the file has proved to be a sandbox database, so a command given
    the wrong file leaves no key file beside it."""

    __slots__ = ("_key", "_loader")

    def __init__(self, loader: Callable[[], bytes]) -> None:
        self._loader = loader
        self._key: bytes | None = None

    @classmethod
    def beside(cls, db_path: Path) -> ServerKey:
        """The key of the database at `db_path`, in `key_path(db_path)`."""
        return cls(lambda: load_or_create(key_path(db_path)))

    def load(self) -> bytes:
        if self._key is None:
            self._key = self._loader()
        return self._key

    def _mac(self, purpose: bytes, subject: str) -> bytes:
        return hmac.new(self.load(), purpose + b"\0" + subject.encode(), hashlib.sha256).digest()

    def share_key(self, link_id: str) -> str:
        """The key of the share link `link_id`: an HMAC of its id, so it is never stored."""
        raw = self._mac(b"share-link", link_id)[:SHARE_KEY_BYTES]
        return base64.urlsafe_b64encode(raw).decode("ascii")

    def share_digest(self, link_id: str) -> str:
        """The stored digest of `share_key(link_id)`."""
        return hashlib.sha256(self.share_key(link_id).encode("ascii")).hexdigest()

    def seal(self, link_id: str, secret: str) -> str:
        """`secret` encrypted (AES-GCM, bound to the link's id) for `unseal` alone: how a key
        made before keys were derived is kept, since it cannot be derived."""
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        nonce = secrets.token_bytes(12)
        sealed = AESGCM(self._mac(b"seal", "share-link")).encrypt(
            nonce, secret.encode("utf-8"), link_id.encode()
        )
        return base64.urlsafe_b64encode(nonce + sealed).decode("ascii")

    def unseal(self, link_id: str, sealed: str) -> str | None:
        """The secret `seal` sealed, or None when this key did not seal it."""
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
        try:
            opened = AESGCM(self._mac(b"seal", "share-link")).decrypt(
                raw[:12], raw[12:], link_id.encode()
            )
        except InvalidTag:
            return None
        return opened.decode("utf-8")
