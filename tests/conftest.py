"""Fixtures shared by the server, gateway and TUI tests: a sandbox with the demo workspace.

The demo database is built once per session and copied per test, so every test gets its own
fresh, writable sandbox cheaply.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI

from docdeck.server import DemoAccount, create_app, ensure_demo, mint_token


class Clock:
    """A settable clock for `create_app(clock=...)`: call it for the time, `advance` to jump."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture(scope="session")
def _demo_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[DemoAccount]]:
    path = tmp_path_factory.mktemp("demo-template") / "sandbox.db"
    accounts = ensure_demo(path)
    return path, accounts


@pytest.fixture
def sandbox_db(_demo_template: tuple[Path, list[DemoAccount]], tmp_path: Path) -> Path:
    """Path of a private copy of a database holding the demo workspace."""
    path = tmp_path / "sandbox.db"
    shutil.copyfile(_demo_template[0], path)
    return path


@pytest.fixture
def demo_accounts(_demo_template: tuple[Path, list[DemoAccount]]) -> list[DemoAccount]:
    """The demo accounts, admin first."""
    return list(_demo_template[1])


@pytest.fixture
def clock() -> Clock:
    """The sandbox's clock, starting now; `clock.advance(timedelta(days=8))` moves it."""
    return Clock(datetime.now(UTC))


@pytest.fixture
def sandbox_app(sandbox_db: Path, clock: Clock) -> FastAPI:
    """The sandbox FastAPI app on `sandbox_db`, driven by `clock`."""
    return create_app(sandbox_db, clock=clock, public_url="http://sandbox.test")


@pytest.fixture
def token_for(sandbox_db: Path) -> Callable[[str], str]:
    """A function email -> API token for that sandbox user (one token per email)."""
    minted: dict[str, str] = {}

    def token(email: str) -> str:
        if email not in minted:
            minted[email] = mint_token(sandbox_db, email)
        return minted[email]

    return token


@pytest.fixture
def admin_token(token_for: Callable[[str], str], demo_accounts: list[DemoAccount]) -> str:
    """API token of the demo admin."""
    return token_for(demo_accounts[0].email)
