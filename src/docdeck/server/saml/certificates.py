"""The identity provider's signing certificate: an X.509 certificate in PEM, checked with
`cryptography` (the maintained binding every Python SAML library uses) so a paste of the
wrong thing is refused with what it is, not stored to fail at the first login."""

from __future__ import annotations

import re
from datetime import datetime

from docdeck.server.errors import bad_request

_BLOCK = re.compile(r"-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \1-----", re.DOTALL)


def check_certificate(text: str, now: datetime, field: str = "certificate") -> str:
    """The certificate as PEM text (trimmed), or a 400 saying what is wrong with it."""
    pem = text.strip()
    blocks = _BLOCK.findall(pem)
    if not blocks:
        raise bad_request(
            f"{field}: not PEM: paste the certificate with its -----BEGIN CERTIFICATE----- and"
            " -----END CERTIFICATE----- lines"
        )
    kinds = [kind for kind, _ in blocks]
    if "CERTIFICATE" not in kinds:
        raise bad_request(
            f"{field}: not a certificate: the PEM block is a {kinds[0]}, the identity provider's"
            " signing certificate is a CERTIFICATE block"
        )
    if len(blocks) > 1:
        raise bad_request(f"{field}: holds {len(blocks)} PEM blocks; paste one certificate")
    from cryptography import x509

    try:
        certificate = x509.load_pem_x509_certificate(pem.encode("ascii"))
    except (ValueError, UnicodeEncodeError) as error:
        raise bad_request(f"{field}: not a valid X.509 certificate ({error})") from None
    try:
        ends, starts = certificate.not_valid_after_utc, certificate.not_valid_before_utc
    except ValueError as error:  # pragma: no cover - cryptography rejects these on load
        raise bad_request(f"{field}: the certificate's validity cannot be read ({error})") from None
    if ends < now:
        raise bad_request(f"{field}: the certificate expired on {ends:%Y-%m-%d}")
    if starts > now:
        raise bad_request(f"{field}: the certificate is not valid before {starts:%Y-%m-%d}")
    return pem
