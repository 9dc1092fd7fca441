"""The OpenAPI specs screen against the sandbox: the list with processing states, a spec
added from a file and followed while it processes (no key pressed), its content browsed,
visibility, the published URL, delete; and a member without the role told why."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from docdeck.gateway import Client
from docdeck.tui.admin import OperationTree, SpecContentScreen, SpecsScreen
from tui.admin.helpers import open_admin
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_for_workers, wait_until

PETS = {
    "openapi": "3.0.3",
    "info": {"title": "Pets", "version": "1.2.0"},
    "paths": {
        "/pets": {
            "get": {"summary": "List pets", "responses": {"200": {"description": "the pets"}}},
            "post": {
                "summary": "Add a pet",
                "requestBody": {"content": {"application/json": {}}, "required": True},
                "responses": {"201": {"description": "added"}},
            },
        },
        "/pets/{id}": {
            "parameters": [
                {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
            "delete": {"operationId": "deletePet", "responses": {"204": {"description": "gone"}}},
        },
    },
}


def _text(pilot) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(screen_lines(pilot))


async def _type(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    for char in text:
        await pilot.press(char)


async def _api(transport: RecordingTransport, token: str) -> Client:
    return Client("http://sandbox", token, transport=transport, max_retries=0)


async def test_the_demo_specs_with_their_states(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_admin(pilot, "OpenAPI specs")
        assert isinstance(screen, SpecsScreen)
        await wait_until(pilot, lambda: screen.specs is not None, "the specs are listed")
        text = _text(pilot)
        assert "OpenAPI specs · Northwind Labs" in text
        assert {s.slug for s in screen.specs or []} >= {"webhooks", "petstore", "billing"}
        assert "✘ FETCH_TIMEOUT" in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SpecsScreen)


async def test_a_spec_from_a_file_processes_while_watched_and_is_browsed(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str, tmp_path: Path
) -> None:
    source = tmp_path / "pets.json"
    source.write_text(json.dumps(PETS), encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_admin(pilot, "OpenAPI specs")
        assert isinstance(screen, SpecsScreen)
        screen.POLL_S = 0.05
        await wait_until(pilot, lambda: screen.specs is not None, "the specs are listed")
        await pilot.press("n")
        await pilot.pause()
        await _type(pilot, "Pets!")
        await pilot.press("tab")
        await _type(pilot, str(tmp_path / "missing.json"))
        await pilot.press("enter")
        await pilot.pause()
        # Both checked before sending: nothing was sent, every character is still there.
        assert "Slug: lowercase letters" in _text(pilot)
        assert not any(r.startswith("POST") and "/openapi" in r for r in transport.requests)
        dialog = app.screen
        slug = dialog.query_one("#field-slug")
        assert slug.value == "Pets!"  # type: ignore[attr-defined]
        slug.value = "pets"  # type: ignore[attr-defined]
        await pilot.press("enter", "enter")  # to the source, then send
        await pilot.pause()
        assert "Source: no file at" in _text(pilot)
        dialog.query_one("#field-source").value = str(source)  # type: ignore[attr-defined]
        await pilot.press("enter")
        # No key is pressed from here: the state follows the processing by itself.
        await wait_until(
            pilot,
            lambda: any(
                s.slug == "pets" and s.processingState == "complete" for s in screen.specs or []
            ),
            "the new spec shows as processed",
        )
        await wait_for_workers(pilot)
        assert [line for line in screen_lines(pilot) if "pets " in line and "✔ processed" in line]
        assert screen.highlighted is not None and screen.highlighted.slug == "pets"
        async with await _api(transport, admin_token) as api:
            org = screen.organization.id
            stored = await api.openapi_specs.get(org, "pets")
            assert stored.processingState == "complete" and stored.lastProcessErrorCode is None
            assert stored.lastVersion is not None

        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SpecContentScreen), "content")
        content = app.screen
        assert isinstance(content, SpecContentScreen)
        await wait_until(pilot, lambda: content.outline is not None, "the content is read")
        await wait_for_workers(pilot)
        text = _text(pilot)
        assert "Pets 1.2.0 · OpenAPI 3.0.3 · 2 paths, 3 operations" in text
        assert "/pets/{id}" in text and "List pets" in text
        tree = content.query_one(OperationTree)
        await wait_until(pilot, lambda: tree.cursor_line == 0, "the cursor is on /pets")
        await pilot.press("j")  # /pets -> GET /pets
        await pilot.pause()
        assert "Response: 200 the pets" in _text(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_visibility_copy_and_delete(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_admin(pilot, "OpenAPI specs")
        assert isinstance(screen, SpecsScreen)
        await wait_until(pilot, lambda: screen.specs is not None, "the specs are listed")
        slugs = [s.slug for s in screen.specs or []]
        screen.table.move_cursor(row=slugs.index("webhooks"))
        await wait_until(
            pilot,
            lambda: screen.highlighted is not None and screen.highlighted.slug == "webhooks",
            "the cursor is on webhooks",
        )
        await pilot.press("y")  # private: says why, copies nothing
        await pilot.pause()
        assert any("is private" in n.message for n in app._notifications)
        await pilot.press("v")
        await wait_until(
            pilot,
            lambda: any(
                s.slug == "webhooks" and s.visibility == "public" for s in screen.specs or []
            ),
            "webhooks is public",
        )
        async with await _api(transport, admin_token) as api:
            org = screen.organization.id
            published = (await api.openapi_specs.get(org, "webhooks")).urls.published
            assert published
            await pilot.press("y")
            await wait_until(
                pilot,
                lambda: any(published in n.message for n in app._notifications),
                "the published URL is copied",
            )
            await pilot.press("d")
            await pilot.pause()
            await pilot.press("y")
            await wait_until(
                pilot, lambda: "webhooks" not in [s.slug for s in screen.specs or []], "deleted"
            )
            assert "webhooks" not in [s.slug for s in await api.openapi_specs.list(org).all()]


@pytest.mark.parametrize("email", ["freya@northwind.dev"])
async def test_a_reader_is_told_why_it_cannot_add(
    make_app: AppFactory,
    token_for: Callable[[str], str],
    email: str,
    transport: RecordingTransport,
) -> None:
    app = make_app(token=token_for(email))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_admin(pilot, "OpenAPI specs")
        await wait_until(pilot, lambda: screen.specs is not None, "the specs are listed")  # type: ignore[attr-defined]
        await pilot.press("n")
        await pilot.pause()
        assert any("needs the create role" in n.message for n in app._notifications)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, SpecsScreen)
        assert not any(r.startswith(("POST", "DELETE")) for r in transport.requests)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("root:*:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n", "no `openapi` or `swagger`"),
        ("Host example\n  User me\n  IdentityFile ~/.ssh/id\n", "not a JSON or YAML mapping"),
        ("title: Notes\nitems: [1, 2]\n", "no `openapi` or `swagger` field"),
        ('["openapi"]', "not a JSON or YAML mapping"),
        ("key: [unclosed\n", "neither JSON nor YAML"),
    ],
)
def test_a_file_that_is_not_an_openapi_document_is_not_sent(
    tmp_path: Path, text: str, said: str
) -> None:
    """A mistyped path sent another file's text to the server (`/etc/shadow` became a spec
    in PARSE_ERROR): the file is now read as JSON or YAML first."""
    from docdeck.tui.admin.checks import check_spec_source, read_spec_file

    path = tmp_path / "not-a-spec"
    path.write_text(text, encoding="utf-8")
    read, problem = read_spec_file(str(path))
    assert read == ""
    assert said in problem and "nothing was sent" in problem
    assert check_spec_source(str(path)) == problem


def test_a_yaml_or_swagger_file_is_read(tmp_path: Path) -> None:
    from docdeck.tui.admin.checks import read_spec_file

    yaml_spec = tmp_path / "pets.yaml"
    yaml_spec.write_text("openapi: 3.1.0\ninfo: {title: Pets, version: '1'}\npaths: {}\n")
    swagger = tmp_path / "old.json"
    swagger.write_text('{"swagger": "2.0", "info": {"title": "Old", "version": "1"}}')
    for path in (yaml_spec, swagger):
        text, problem = read_spec_file(str(path))
        assert problem == "" and text == path.read_text()


def test_a_source_that_gives_no_file_is_said_as_typed(tmp_path: Path) -> None:
    """ "ftp://x y" was said as "no file at ftp:/x y" (the path normalized), and a folder as
    "no file at /tmp"."""
    from docdeck.tui.admin.certificates import check_certificate
    from docdeck.tui.admin.checks import check_spec_source

    assert "“ftp://x y” is not an http:// or https:// address" in check_spec_source("ftp://x y")
    assert f"“{tmp_path}” is a folder, not a file" in check_spec_source(str(tmp_path))
    assert f"“{tmp_path}” is a folder, not a file" in check_certificate(str(tmp_path))
    missing = str(tmp_path / "missing.yaml")
    assert f"no file at “{missing}”" in check_spec_source(missing)
    home = check_spec_source("~/no-such-spec.yaml")
    assert "no file at “~/no-such-spec.yaml” (" in home and str(Path.home()) in home
