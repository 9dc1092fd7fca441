"""Files: bytes stored once by content, image dimensions, and signed download links.

A file's `downloadURL` is a link to the sandbox signed with a secret kept in the database.
It names the space, the file's bytes, the user it was issued to and when it expires; it
works only until then, only while that user may still read the space, and only for that
user (a request carrying another user's token is refused). Browsers cannot send the API
token, so the link itself is the credential, as on the hosted platform.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import mimetypes
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from docdeck.server.content.snapshots import Entry, put_object
from docdeck.server.permissions import membership, space_grants, space_role

LINK_LIFETIME = timedelta(hours=1)


def image_dimensions(data: bytes) -> tuple[int, int] | None:
    """(width, height) of an image Pillow can read, else None (not an image)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            return int(width), int(height)
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return None


def content_type_for(name: str, data: bytes) -> str:
    guessed, _ = mimetypes.guess_type(name)
    if guessed:
        return guessed
    return "application/octet-stream" if b"\0" in data[:1024] else "text/plain"


INLINE_TYPES = frozenset(
    {
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
        "image/avif",
        "image/bmp",
        "text/plain",
        "application/pdf",
        "audio/mpeg",
        "audio/ogg",
        "video/mp4",
        "video/webm",
    }
)
"""What a browser may show in place: types that cannot run script. Everything else (HTML,
SVG, XML, scripts, unknown bytes) is sent as an attachment."""


def download_headers(name: str, content_type: str) -> dict[str, str]:
    """Headers that keep a file from scripting the sandbox's origin, whatever its name says:
    a sandboxed document (no script, no same-origin), no type sniffing, and active types
    downloaded rather than shown."""
    from urllib.parse import quote

    headers = {"Content-Security-Policy": "sandbox", "X-Content-Type-Options": "nosniff"}
    if content_type not in INLINE_TYPES:
        headers["Content-Disposition"] = f"attachment; filename*=UTF-8''{quote(name, safe='')}"
    return headers


def file_entry(
    conn: sqlite3.Connection, file_id: str, name: str, data: bytes, content_type: str | None
) -> Entry:
    """The entry of a file holding `data` (stored once, whatever the number of copies)."""
    digest = put_object(conn, data)
    kind = content_type or content_type_for(name, data)
    entry: dict[str, Any] = {
        "id": file_id,
        "name": name,
        "contentType": kind,
        "blob": digest,
        "size": len(data),
    }
    if kind.startswith("image/"):
        size = image_dimensions(data)
        if size is not None:
            entry["width"], entry["height"] = size
    return entry


def _secret(conn: sqlite3.Connection) -> bytes:
    """The signing key, made by the migration that created the table (one per database)."""
    row = conn.execute("SELECT value FROM file_link_secret WHERE id = 1").fetchone()
    if row is None:
        raise LookupError("no file-link secret")
    return bytes.fromhex(row[0])


@dataclass(frozen=True)
class FileLink:
    space_id: str
    blob: str
    user_id: str
    expires: int

    def message(self) -> bytes:
        return f"{self.space_id}\n{self.blob}\n{self.user_id}\n{self.expires}".encode()


def sign(conn: sqlite3.Connection, link: FileLink) -> str:
    return hmac.new(_secret(conn), link.message(), hashlib.sha256).hexdigest()


def download_path(conn: sqlite3.Connection, link: FileLink, name: str) -> str:
    from urllib.parse import quote

    signature = sign(conn, link)
    return (
        f"/files/{link.space_id}/{link.blob}/{quote(name, safe='')}"
        f"?user={link.user_id}&expires={link.expires}&signature={signature}"
    )


def link_for(space_id: str, blob: str, user_id: str, now: datetime) -> FileLink:
    return FileLink(space_id, blob, user_id, int((now + LINK_LIFETIME).timestamp()))


def verify(conn: sqlite3.Connection, link: FileLink, signature: str, now: datetime) -> str | None:
    """None when the link is good, else why it is not."""
    try:
        expected = sign(conn, link)
    except LookupError:
        return "this file link is not valid"
    # compare_digest refuses non-ASCII text (a TypeError, once a 500): such a signature
    # was never issued, so it is simply not valid.
    if not signature.isascii() or not hmac.compare_digest(expected, signature):
        return "this file link is not valid (bad signature)"
    if now.timestamp() > link.expires:
        return "this file link has expired; read the file again through the API for a new one"
    return None


def may_read(conn: sqlite3.Connection, space_id: str, user_id: str) -> bool:
    """Whether `user_id` may still read the space a download link names."""
    row = conn.execute(
        "SELECT organization_id FROM spaces WHERE id = ? AND deleted_at IS NULL", (space_id,)
    ).fetchone()
    if row is None:
        return False
    member = membership(conn, row[0], user_id)
    if member is None:
        return False
    return space_role(member, space_grants(conn, row[0], user_id), space_id) is not None
