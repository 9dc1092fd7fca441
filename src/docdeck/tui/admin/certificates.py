"""The identity provider's signing certificate, as typed in the provider form: pasted PEM or
a file's path, checked before anything is sent with the checks the sandbox makes (one X.509
certificate in PEM, parsed with `cryptography`: not PEM, not a certificate, not valid X.509,
expired, not yet valid), so a wrong paste is refused where it was typed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from docdeck.tui.admin.checks import not_a_file

__all__ = [
    "MAX_CERTIFICATE_CHARS",
    "Certificate",
    "certificate_text",
    "check_certificate",
    "read_certificate",
]

MAX_CERTIFICATE_CHARS = 10_000
"""The API's limit for `certificate` (`SAMLProviderCertificate`)."""
_BLOCK = re.compile(r"-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \1-----", re.DOTALL)
_LABEL = "Certificate"


@dataclass(frozen=True)
class Certificate:
    """What the form shows of a certificate that passed: who it names and until when."""

    pem: str
    subject: str
    not_after: datetime


def looks_like_path(value: str) -> bool:
    """A single line that is not PEM: a file's path (`~/okta.pem`, `./idp.crt`)."""
    text = value.strip()
    return bool(text) and "\n" not in text and not text.startswith("-----")


def certificate_text(value: str) -> tuple[str, str]:
    """(the PEM text, "") from what was typed — pasted PEM, or a file's path whose text is
    read — or ("", what is wrong). Of one PEM block, the block alone: text around it (the
    "Bag Attributes" openssl writes before it, a note after it) is no part of the certificate
    (RFC 7468 lets readers skip it; a server may refuse it)."""
    text = value.strip()
    if not looks_like_path(text):
        return _block_of(text), ""
    path = Path(text).expanduser()
    try:
        if not path.is_file():
            return "", (
                f"{_LABEL}: not PEM, and {not_a_file(text, path)}: paste the certificate with its "
                "-----BEGIN CERTIFICATE----- line, or give a .pem/.crt file's path."
            )
        if path.stat().st_size > MAX_CERTIFICATE_CHARS * 4:
            return "", f"{_LABEL}: {path.name} is too large to be one certificate."
        return _block_of(path.read_text(encoding="ascii").strip()), ""
    except UnicodeDecodeError:
        return "", f"{_LABEL}: {path.name} is not PEM text (a DER file? convert it to PEM)."
    except OSError as error:
        return "", f"{_LABEL}: cannot read {path}: {error.strerror or error}."


def _block_of(text: str) -> str:
    """The one PEM block in `text`, or `text` itself (none, or several: said by the check)."""
    blocks = list(_BLOCK.finditer(text))
    return blocks[0].group(0) if len(blocks) == 1 else text


def read_certificate(pem: str, now: datetime | None = None) -> tuple[Certificate | None, str]:
    """(the certificate, "") when `pem` would be accepted, else (None, what is wrong)."""
    blocks = _BLOCK.findall(pem)
    if not blocks:
        return None, (
            f"{_LABEL}: not PEM: paste the certificate with its -----BEGIN CERTIFICATE----- and "
            "-----END CERTIFICATE----- lines."
        )
    kinds = [kind for kind, _ in blocks]
    if "CERTIFICATE" not in kinds:
        return None, (
            f"{_LABEL}: not a certificate: the PEM block is a {kinds[0]}; the identity "
            "provider's signing certificate is a CERTIFICATE block."
        )
    if len(blocks) > 1:
        return None, f"{_LABEL}: holds {len(blocks)} PEM blocks; paste one certificate."
    if len(pem) > MAX_CERTIFICATE_CHARS:
        return None, f"{_LABEL}: at most {MAX_CERTIFICATE_CHARS} characters; this is {len(pem)}."
    from cryptography import x509

    try:
        certificate = x509.load_pem_x509_certificate(pem.encode("ascii"))
        ends, starts = certificate.not_valid_after_utc, certificate.not_valid_before_utc
        subject = certificate.subject.rfc4514_string()
    except (ValueError, UnicodeEncodeError) as error:
        return None, f"{_LABEL}: not a valid X.509 certificate ({error})."
    moment = now or datetime.now(UTC)
    if ends < moment:
        return None, f"{_LABEL}: the certificate expired on {ends:%Y-%m-%d}."
    if starts > moment:
        return None, f"{_LABEL}: the certificate is not valid before {starts:%Y-%m-%d}."
    return Certificate(pem, subject, ends), ""


def check_certificate(value: str) -> str:
    """The form's check: "" when what was typed (PEM or a path) gives a certificate the
    server would accept, else what is wrong."""
    pem, problem = certificate_text(value)
    if problem:
        return problem
    return read_certificate(pem)[1]
