"""Fixtures shared by the server, gateway and TUI tests: a sandbox with the demo workspace.

The demo database is built once per session and copied per test, so every test gets its own
fresh, writable sandbox cheaply.

The suite runs in parallel (`make test`: pytest-xdist, one process per worker), so nothing a
test writes may be shared with another worker: each worker gets its own config, data, cache
and state directories (the platformdirs ones through the XDG variables, and docdeck's own
overrides), below its own pytest temporary directory. Ports are always port 0 / free ports.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI

from docdeck.server import DemoAccount, create_app, ensure_demo, mint_token
from docdeck.server.store.server_key import key_path


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config, "workerinput", None) is None and config.getoption("numprocesses", None):
        _rewrite_once_for_the_workers(config)


def _rewrite_once_for_the_workers(config: pytest.Config) -> None:
    """Rewrite the test modules' asserts once, in the pytest-xdist controller, before the
    workers start: each worker then loads the rewritten code from pytest's cache instead of
    rewriting every module itself (about 7 s of each worker's collection, all four at once on
    two cores). Where PYTHONDONTWRITEBYTECODE is set (this machine, CI) pytest writes no such
    cache, yet it reads one that is there, so the controller writes it. pytest's own
    functions do the work (private ones: with a pytest that has none of them, the workers
    rewrite for themselves, as before)."""
    if config.getoption("assertmode", "rewrite") != "rewrite":
        return
    try:
        from _pytest.assertion import rewrite
        from _pytest.assertion.rewrite import assertstate_key
    except ImportError:  # pragma: no cover - another pytest
        return
    needed = ("PYC_TAIL", "_read_pyc", "_rewrite_test", "_write_pyc", "get_cache_dir")
    if not all(hasattr(rewrite, name) for name in needed):  # pragma: no cover
        return
    state = config.stash[assertstate_key]
    root = Path(__file__).parent
    sources = {*root.rglob("test_*.py"), *root.rglob("conftest.py")}
    # The pytest plugins' own modules (hypothesis, schemathesis, syrupy, anyio, ...: pytest
    # rewrites every module of a plugin's distribution) were rewritten by this process as it
    # started; each worker rewrote them again, about 2 s of CPU per worker with a new venv.
    hook = getattr(config.pluginmanager, "rewrite_hook", None)
    sources.update(Path(fn) for fn in getattr(hook, "_rewritten_names", {}).values())
    for source in sorted(sources):
        cache = rewrite.get_cache_dir(source)
        pyc = cache / (source.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(source, pyc, state.trace) is not None:
            continue  # rewritten by an earlier run, and the source has not changed since
        try:
            cache.mkdir(parents=True, exist_ok=True)
        except OSError:  # a read-only folder: each worker rewrites these for itself
            continue
        source_stat, code = rewrite._rewrite_test(source, config)
        rewrite._write_pyc(state, code, source_stat, pyc)


class Clock:
    """A settable clock for `create_app(clock=...)`: call it for the time, `advance` to jump."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


_WORKER_DIRS = {
    "XDG_CONFIG_HOME": "xdg-config",
    "XDG_DATA_HOME": "xdg-data",
    "XDG_CACHE_HOME": "xdg-cache",
    "XDG_STATE_HOME": "xdg-state",
    "DOCDECK_CONFIG_DIR": "config",
    "DOCDECK_DATA_DIR": "data",
    "DOCDECK_CACHE_DIR": "cache",
}


@pytest.fixture(scope="session", autouse=True)
def _worker_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """This worker's own config/data/cache/state directories for the whole session: a test
    (or a `docdeck` it starts) never reads or writes the user's, or another worker's, and a
    background sandbox recorded there is this worker's alone. Tests that need directories of
    their own still set them (tests/cli and tests/tui do, per test)."""
    base = tmp_path_factory.mktemp("worker-dirs")
    with pytest.MonkeyPatch.context() as patch:
        for name, sub in _WORKER_DIRS.items():
            patch.setenv(name, str(base / sub))
        yield base
    if (base / "data").is_dir():
        from docdeck.launcher import stop_sandbox

        stop_sandbox(base / "data")


YOUNG_COLLECTION_EVERY = 20_000
"""Allocations (net) between two young garbage collections in a test process (Python's: 700)."""


@pytest.fixture(scope="session", autouse=True)
def _collections_fit_for_tests() -> Iterator[None]:
    """A worker's heap is frozen once its modules and session fixtures are there, and its
    young collections run every `YOUNG_COLLECTION_EVERY` allocations rather than 700.

    A TUI test allocates a whole Textual app (widgets, styles, strips, caches), alive for
    the test and garbage after it. With Python's thresholds it was collected young every
    700 allocations, its survivors promoted until full passes walked it, the previous
    tests' garbage and every module-level object: 5-10% of a TUI directory's CPU
    (measured with `gc.callbacks` and with collection off). The objects alive when the
    session starts (imports, the demo template's fixtures) live until exit: frozen, no full
    pass walks them again. The app's own schedule (`docdeck.tui.kit.heap`) keeps working
    on top: it reads and restores the thresholds it finds."""
    threshold = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, *threshold[1:])
    yield
    gc.set_threshold(*threshold)


@pytest.fixture(scope="session", autouse=True)
def _stylesheets_parsed_once() -> Iterator[None]:
    """Textual parses every stylesheet (the app's, each widget's DEFAULT_CSS, each screen's
    CSS_PATH) anew for each App: its parse cache belongs to one `Stylesheet`, and a theme
    change parses in a fresh one. A TUI test starts an App, so each test paid for the same
    parse (and the theme's variables tokenized again), about a tenth of a TUI test's CPU.
    Here one worker keeps what it parsed, keyed by everything the parse reads (the CSS, where
    it came from, its default/tie-breaker/scope flags, and the variables it was parsed with),
    so the rules are what Textual's own parse would give; a stylesheet with errors still
    raises in every App (Textual checks the rules' errors after the parse). Textual's
    per-Stylesheet cache already hands out the same RuleSet objects to every parse it
    answers, and nothing mutates a parsed RuleSet."""
    from textual.css.stylesheet import Stylesheet
    from textual.css.tokenize import tokenize_values

    if not hasattr(Stylesheet, "_parse_rules") or not hasattr(Stylesheet, "_variable_tokens"):
        yield  # another Textual: each App parses for itself, as before
        return
    parse_rules = Stylesheet._parse_rules
    parsed: dict[tuple[object, ...], list[object]] = {}
    tokenized: dict[frozenset[tuple[str, str]], dict[str, list[object]]] = {}

    last_key: list[tuple[dict[str, str], frozenset[tuple[str, str]]]] = []

    def variables_key(sheet: Stylesheet) -> frozenset[tuple[str, str]]:
        # Asked on every parse: the ~150 theme variables made into a frozenset each time were
        # half a percent of a TUI test. Textual never changes a stylesheet's variables in
        # place (`set_variables` hands it a new dict, a copy or reparse shares or copies
        # one), so the dict the last key was made from, kept alive here so that its identity
        # cannot be reused, still has that key.
        variables = sheet._variables
        if last_key and last_key[0][0] is variables:
            return last_key[0][1]
        key = frozenset(variables.items())
        last_key[:] = [(variables, key)]
        return key

    def shared_parse_rules(
        self: Stylesheet,
        css: str,
        read_from: tuple[str, str],
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[object]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, variables_key(self))
        rules = parsed.get(key)
        if rules is None:
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            parsed[key] = rules
        return rules

    def shared_variable_tokens(self: Stylesheet) -> dict[str, list[object]]:
        key = variables_key(self)
        tokens = tokenized.get(key)
        if tokens is None:
            tokens = tokenized[key] = tokenize_values(self._variables)
        return tokens

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Stylesheet, "_parse_rules", shared_parse_rules)
        patch.setattr(Stylesheet, "_variable_tokens", property(shared_variable_tokens))
        yield


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]
) -> Path:
    """A file `build(path)` writes, built once per run however many workers run: the first
    worker to ask builds it under a lock in the run's temporary directory (which all its
    workers share), the others wait for it and get the same path. Read-only to its users:
    they copy it before they write."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's own directory; each worker's basetemp is below it
    try:
        import fcntl
    except ImportError:  # no flock (Windows): each worker builds its own
        fcntl = None  # type: ignore[assignment]
        base = tmp_path_factory.getbasetemp()
    folder = base / name
    with open(base / f"{name}.lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        path, done = folder / "sandbox.db", folder / "built"
        if not done.exists():
            folder.mkdir(exist_ok=True)
            path.unlink(missing_ok=True)  # what a worker that failed half-way left
            build(path)
            done.touch()
    return path


@pytest.fixture(scope="session")
def build_once(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """`build_once(name, build)`: `built_once` for fixtures in other folders."""

    def build_it(name: str, build: Callable[[Path], None]) -> Path:
        return built_once(tmp_path_factory, name, build)

    return build_it


@pytest.fixture(scope="session")
def _demo_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[DemoAccount]]:
    def build(path: Path) -> None:
        accounts = ensure_demo(path)
        listed = [[a.email, a.display_name, a.role] for a in accounts]
        path.with_name("accounts.json").write_text(json.dumps(listed), encoding="utf-8")

    path = built_once(tmp_path_factory, "demo-template", build)
    listed = json.loads(path.with_name("accounts.json").read_text(encoding="utf-8"))
    return path, [DemoAccount(*account) for account in listed]


@pytest.fixture
def sandbox_db(_demo_template: tuple[Path, list[DemoAccount]], tmp_path: Path) -> Path:
    """Path of a private copy of a database holding the demo workspace, with its server key
    (share links' keys derive from it)."""
    path = tmp_path / "sandbox.db"
    shutil.copyfile(_demo_template[0], path)
    shutil.copyfile(key_path(_demo_template[0]), key_path(path))
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
