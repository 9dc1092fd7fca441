"""Single sign-on against the sandbox: the demo provider with what to give the identity
provider (each copied by a key) and the login entry points; a provider added through the
form (a pasted certificate keeps its lines; a bad one is refused before sending with
everything typed kept; a file's path is read), changed, deleted after asking — each checked
through the API; a server refusal shown under its field; and the screen is an admin's."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Select, TextArea

from docdeck.gateway import Client
from docdeck.tui.admin import AdminForm, SSOScreen, admin_screen, check_certificate
from docdeck.tui.admin.certificates import certificate_text
from tui.admin.helpers import open_admin
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    open_northwind,
    screen_lines,
    tree_of,
    type_text,
    visible_labels,
    wait_for_workers,
    wait_until,
)


def _pem(*, days: int = 365, start_days: int = -1, key: bool = False) -> str:
    """A self-signed certificate valid from now + `start_days` for `days` (or a key)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    if key:
        return private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "login.example.com")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now + timedelta(days=start_days))
        .not_valid_after(now + timedelta(days=start_days + days))
        .sign(private, hashes.SHA256())
    )
    return certificate.public_bytes(serialization.Encoding.PEM).decode()


def _text(pilot) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(screen_lines(pilot))


def _api(transport: RecordingTransport, token: str) -> Client:
    return Client("http://sandbox", token, transport=transport, max_retries=0)


def _sent(transport: RecordingTransport, method: str) -> list[str]:
    return [r for r in transport.requests if r.startswith(method) and "/saml" in r]


def test_the_certificate_is_checked_as_the_server_checks_it(tmp_path: Path) -> None:
    assert check_certificate(_pem()) == ""
    assert "not PEM" in check_certificate("MIIBhello")  # no BEGIN line: read as a path
    assert "not PEM" in check_certificate("-----BEGIN nothing")
    assert "not a certificate" in check_certificate(_pem(key=True))
    assert "expired on" in check_certificate(_pem(days=10, start_days=-20))
    assert "not valid before" in check_certificate(_pem(start_days=5))
    broken = "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----"
    assert "not a valid X.509 certificate" in check_certificate(broken)
    assert "2 PEM blocks" in check_certificate(_pem() + _pem())
    path = tmp_path / "idp.pem"
    path.write_text(_pem(), encoding="ascii")
    assert check_certificate(str(path)) == ""
    assert "no file at" in check_certificate(str(tmp_path / "missing.pem"))


async def test_the_demo_provider_what_to_give_the_idp_and_the_logins(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_admin(pilot, "Single sign-on")
        assert isinstance(screen, SSOScreen)
        await wait_until(pilot, lambda: screen.providers is not None, "the providers are read")
        await wait_for_workers(pilot)
        text = _text(pilot)
        assert "Single sign-on · Northwind Labs" in text
        assert "Northwind Okta" in text and "✔ active" in text
        assert "CN=idp.northwind.dev, valid until" in text
        async with _api(transport, admin_token) as api:
            [provider] = await api.saml.list(screen.organization.id).all()
        assert provider.service is not None
        assert provider.service.acsURL in text and provider.service.entityID in text
        # The login entry points, as GET /sso lists them.
        assert "Login entry points" in text and provider.service.startURL in text
        await pilot.press("a")
        await wait_until(
            pilot,
            lambda: any(provider.service.acsURL in n.message for n in app._notifications),  # type: ignore[union-attr]
            "the ACS URL is copied",
        )
        await pilot.press("i")
        await wait_until(
            pilot,
            lambda: any(
                n.title == "Copied: Entity ID" and provider.service.entityID in n.message  # type: ignore[union-attr]
                for n in app._notifications
            ),
            "the entity ID is copied",
        )


async def _new_provider_form(pilot: Pilot[None]) -> tuple[SSOScreen, AdminForm[Any]]:
    """The single sign-on screen, its providers read, and `n`'s form open."""
    screen = await open_admin(pilot, "Single sign-on")
    assert isinstance(screen, SSOScreen)
    await wait_until(pilot, lambda: screen.providers is not None, "the providers are read")
    await pilot.press("n")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, AdminForm), "the form is open")
    form = pilot.app.screen
    assert isinstance(form, AdminForm)
    return screen, form


async def test_add_change_and_delete_a_provider(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str, tmp_path: Path
) -> None:
    good = tmp_path / "entra.pem"
    good.write_text(_pem(), encoding="ascii")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen, form = await _new_provider_form(pilot)
        await type_text(pilot, "Entra ID")
        await pilot.press("enter")  # to the entity ID
        await type_text(pilot, "https://sts.windows.net/tenant/")
        await pilot.press("enter")
        await type_text(pilot, "https://login.microsoftonline.com/tenant/saml2")
        form.query_one("#field-defaultTeam", Select).value = "Platform"
        form.query_one("#field-defaultRole", Select).value = "edit"
        # A paste keeps its lines (an expired certificate here) and is refused before sending.
        area = form.query_one("#field-certificate", TextArea)
        area.focus()
        await pilot.pause()
        expired = _pem(days=10, start_days=-20)
        app.post_message(events.Paste(expired))
        await wait_until(pilot, lambda: area.text.strip() == expired.strip(), "the paste is in")
        await pilot.press("ctrl+s")
        await wait_until(
            pilot,
            lambda: "expired on" in str(form.query_one("#error-certificate").render()),
            "the certificate's problem is shown under it",
        )
        assert app.screen is form and not _sent(transport, "POST")
        assert form.query_one("#field-label", Input).value == "Entra ID"
        assert form.query_one("#field-ssoURL", Input).value.endswith("/saml2")
        assert form.query_one("#field-defaultTeam", Select).value == "Platform"
        # A file's path instead: its text is read and sent.
        area.text = str(good)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.screen is screen, "the form closed")
        await wait_until(
            pilot,
            lambda: any(p.label == "Entra ID" for p in screen.providers or []),
            "the new provider is listed",
        )
        assert screen.highlighted is not None and screen.highlighted.label == "Entra ID"
        org = screen.organization.id
        async with _api(transport, admin_token) as api:
            stored = next(p for p in await api.saml.list(org).all() if p.label == "Entra ID")
            assert stored.status == "active"
            assert stored.certificate == good.read_text().strip()
            assert stored.defaultTeam is not None and stored.defaultTeam.title == "Platform"
            assert stored.defaultRole == "edit"
            assert "Entra ID" in [login.label for login in await api.saml.logins(org)]

            # Change: only what changed is sent.
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, AdminForm), "the form")
            form = app.screen
            label = form.query_one("#field-label", Input)
            assert label.value == "Entra ID"
            label.value = "Entra"
            form.query_one("#field-entityID", Input).value = ""  # cleared: pending again
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: app.screen is screen, "the form closed")
            changed = await api.saml.get(org, stored.id)
            assert changed.label == "Entra" and changed.status == "pending"
            assert changed.certificate == stored.certificate
            await wait_until(
                pilot, lambda: "Not active: members cannot sign in" in _text(pilot), "explained"
            )

            # Delete, after asking.
            await pilot.press("d")
            await pilot.pause()
            assert "Delete “Entra”?" in _text(pilot)
            await pilot.press("y")
            await wait_until(
                pilot,
                lambda: all(p.id != stored.id for p in screen.providers or []),
                "the provider is gone from the list",
            )
            assert stored.id not in [p.id for p in await api.saml.list(org).all()]


async def test_a_server_refusal_is_shown_under_its_field(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_admin(pilot, "Single sign-on")
        assert isinstance(screen, SSOScreen)
        await wait_until(pilot, lambda: screen.providers is not None, "the providers are read")
        org = screen.organization.id
        async with _api(transport, admin_token) as api:
            team = await api.teams.create(org, title="Contractors")
            await pilot.press("n")
            await wait_until(pilot, lambda: isinstance(app.screen, AdminForm), "the form")
            form = app.screen
            form.query_one("#field-label", Input).value = "Contractors IdP"
            form.query_one("#field-defaultTeam", Select).value = "Contractors"
            # Someone removes the team while the form is open: the server refuses it.
            await api.teams.delete(org, team.id)
            await pilot.press("ctrl+s")
            await wait_until(
                pilot,
                lambda: "no team" in str(form.query_one("#error-defaultTeam").render()),
                "the refusal is shown under the team",
            )
            assert app.screen is form
            assert _sent(transport, "POST")
            assert form.query_one("#field-label", Input).value == "Contractors IdP"
            assert "Contractors IdP" not in [p.label for p in await api.saml.list(org).all()]


async def test_a_problem_under_a_field_goes_once_that_field_is_edited(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        _screen, form = await _new_provider_form(pilot)
        form.query_one("#field-label", Input).value = "Okta"
        area = form.query_one("#field-certificate", TextArea)
        area.text = "not a certificate"
        await pilot.press("ctrl+s")

        def under_certificate() -> str:
            line = form.query_one("#error-certificate")
            return str(line.render()) if line.display else ""

        await wait_until(pilot, lambda: under_certificate() != "", "the problem is shown")
        form.query_one("#field-label", Input).value = "Okta SSO"
        await pilot.pause()
        assert under_certificate() != ""  # another field's edit: still wrong
        area.text = "not a certificate either"
        await pilot.pause()
        assert under_certificate() == ""
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: under_certificate() != "", "checked again at sending")
        assert app.screen is form and not _sent(transport, "POST")


async def test_single_sign_on_is_an_admins(
    make_app: AppFactory, token_for: Callable[[str], str], transport: RecordingTransport
) -> None:
    app = make_app(token=token_for("bruno@northwind.dev"))  # create role, not admin
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        labels = visible_labels(tree_of(pilot))
        assert "  🔤 Translations" in labels
        assert "  🔐 Single sign-on" not in labels
        # Reached anyway (a link, a stale tree): it says why and asks the server nothing.
        organization = tree_of(pilot).current.organization  # type: ignore[union-attr]
        await app.push_screen(admin_screen(organization, "sso"))
        await wait_for_workers(pilot)
        assert "Only admins of “Northwind Labs” may see" in _text(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert any("Only admins" in n.message for n in app._notifications)
        assert not _sent(transport, "GET") and not _sent(transport, "POST")


def test_text_around_the_certificate_is_not_sent(tmp_path: Path) -> None:
    """openssl writes "Bag Attributes" lines before a certificate it exports, and a paste may
    carry a line before BEGIN or a note after END: the certificate sent is the PEM block
    alone, pasted or read from a file (the server stored the whole paste)."""
    pem = _pem().strip()
    pasted = f"Bag Attributes\n    friendlyName: idp\nsubject=/CN=idp -----BEGIN{pem[10:]}\nthanks"
    assert certificate_text(pasted) == (
        "-----BEGIN" + pem[10:],
        "",
    )
    assert check_certificate(pasted) == ""
    path = tmp_path / "idp.pem"
    path.write_text(f"Bag Attributes\n{pem}\n", encoding="ascii")
    assert certificate_text(str(path)) == (pem, "")
    assert "2 PEM blocks" in check_certificate(f"{pem}\n{pem}")
