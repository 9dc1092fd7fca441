"""The access log never holds a credential that travels in a URL: share keys, preview
tokens and file-link signatures are replaced by `REDACTED` in uvicorn's access lines (the
log is read by more people, and kept longer, than the database)."""

from __future__ import annotations

import logging
import re

SECRET_PARAMETERS = ("shareKey", "preview", "signature", "token")
_NAMES = "|".join(SECRET_PARAMETERS)
_SECRET = re.compile(r"(?i)([?&](?:" + _NAMES + r")=)[^&\s#]*")


def redact(text: str) -> str:
    return _SECRET.sub(r"\1REDACTED", text)


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_access_log_redaction() -> None:
    """Once per process, on uvicorn's access logger (records are redacted before any handler,
    uvicorn's or a test's, sees them)."""
    logger = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactSecrets) for f in logger.filters):
        logger.addFilter(RedactSecrets())
