"""Workers are declared through `kit.workers.work`: starting one never reprs its arguments."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from typing import cast

import pytest
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from docdeck.tui.kit.session import SessionApp
from docdeck.tui.kit.workers import read, report_worker_failure, work
from tui.helpers import wait_until

TUI = Path(__file__).resolve().parents[3] / "src" / "docdeck" / "tui"
_PARTIAL = ("partial", "functools.partial")


class _Costly:
    """An argument whose repr would be as costly as a 1 MB page's."""

    reprs = 0

    def __repr__(self) -> str:
        type(self).reprs += 1
        return "<costly>"


class _Owner(Static):
    seen: list[object]

    def on_mount(self) -> None:
        self.seen = []

    @work(thread=True, exclusive=True, group="costly")
    def in_a_thread(self, value: _Costly) -> None:
        self.seen.append(value)

    @work(exclusive=True, group="costly-async")
    async def on_the_loop(self, value: _Costly) -> None:
        self.seen.append(value)


class _App(App[None]):
    def compose(self) -> ComposeResult:
        yield _Owner()


async def test_starting_a_worker_does_not_repr_its_arguments() -> None:
    app = _App()
    async with app.run_test() as pilot:
        owner = app.query_one(_Owner)
        value = _Costly()
        threaded = owner.in_a_thread(value)
        looped = owner.on_the_loop(value)
        await threaded.wait()
        await looped.wait()
        await pilot.pause()
        assert owner.seen == [value, value]
        assert threaded.group == "costly" and looped.group == "costly-async"
        assert "in_a_thread" in threaded.description
        assert _Costly.reprs == 0


def test_no_tui_module_declares_a_worker_with_textuals_own_decorator() -> None:
    """`textual.work` describes each worker by the repr of its arguments, on the event loop:
    every docdeck worker goes through `kit.workers.work`, which does not."""
    offenders = []
    for path in sorted(TUI.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            imports_work = isinstance(node, ast.ImportFrom) and node.module == "textual"
            if imports_work and any(alias.name == "work" for alias in node.names):
                offenders.append(str(path.relative_to(TUI)))
    assert offenders == []


async def test_a_worker_replaced_before_it_starts_leaves_no_coroutine_unawaited() -> None:
    """Asked for twice in a row (`exclusive`), the first worker is cancelled before it runs:
    its method is called only when a worker starts, so nothing is left never awaited (the
    review pane's "what changed since viewed" read made its coroutine when asked for, and
    Python warned once its screen was popped first). Its `name` says what failed."""
    import gc
    import warnings

    class _Asked(Static):
        started = 0

        @work(exclusive=True, group="asked", name="Reading what was asked")
        async def read(self) -> None:
            type(self).started += 1

    class _AskedApp(App[None]):
        def compose(self) -> ComposeResult:
            yield _Asked()

    app = _AskedApp()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with app.run_test() as pilot:
            owner = app.query_one(_Asked)
            first = owner.read()
            second = owner.read()  # replaces the first before it has started
            await second.wait()
            await pilot.pause()
            assert first.is_cancelled and _Asked.started == 1
            assert second.name == "Reading what was asked"
            del first, second, owner  # a coroutine left is reported when it is collected
        gc.collect()
    assert not [w for w in caught if "never awaited" in str(w.message)]


async def test_a_workers_name_can_be_worded_from_its_arguments() -> None:
    """`name` given as a function is called with the method's own arguments, so a failure
    says which page or change request it was about; the method runs with the same ones."""

    class _Named(Static):
        seen: list[str]

        def on_mount(self) -> None:
            self.seen = []

        @read("named", lambda self, title: f"Reading “{title}”")
        async def read_page(self, title: str) -> None:
            self.seen.append(title)

    class _NamedApp(App[None]):
        def compose(self) -> ComposeResult:
            yield _Named()

    app = _NamedApp()
    async with app.run_test() as pilot:
        owner = app.query_one(_Named)
        worker = owner.read_page("Quick start")
        await worker.wait()
        await pilot.pause()
        assert worker.name == "Reading “Quick start”"
        assert worker.group == "named" and not worker.exit_on_error
        assert owner.seen == ["Quick start"]


def test_no_tui_module_hands_a_worker_a_coroutine_already_made() -> None:
    """`run_worker(self.load())` makes the coroutine when asked: a worker replaced or
    dropped with its screen before it starts leaves it never awaited. Workers are
    methods declared with `kit.workers.work` (or `read`), or a function or a `partial`
    handed over uncalled: Textual calls it when the worker starts."""
    offenders = []
    for path in sorted(TUI.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            first = node.args[0] if node.args else None
            calls = [n for n in ast.walk(first) if isinstance(n, ast.Call)] if first else []
            made = bool(calls) and ast.unparse(calls[0].func) not in _PARTIAL
            if node.func.attr == "run_worker" and made:
                offenders.append(f"{path.relative_to(TUI)}:{node.lineno}")
    assert offenders == []


class _Reported(SessionApp):
    """docdeck's session, its one error handler recording what it is told."""

    def __init__(self, owner: Static) -> None:
        super().__init__()
        self.owner = owner
        self.told: list[tuple[str, str]] = []
        self.session.reports_to(lambda error, doing: self.told.append((doing, str(error))))

    def compose(self) -> ComposeResult:
        yield self.owner


class _Silent(Static):
    """A node that does not report its workers' failures itself."""

    @read("silent", lambda self, what: f"Reading {what}")
    async def load(self, what: str) -> None:
        raise RuntimeError(f"{what} is not there")


class _Reporting(_Silent):
    """A node that reports its workers' failures as every docdeck view does."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)


@pytest.mark.parametrize("owner", [_Silent, _Reporting])
async def test_a_failed_read_is_reported_once_by_its_name(owner: type[_Silent]) -> None:
    """A read whose node had no failure handler (the site editor, the merge and reviewer
    dialogs) failed in silence: the editor stayed blank, a key did nothing. Every read now
    reports what it raised, named; a node that reports too does not report it again."""
    app = _Reported(owner())
    async with app.run_test() as pilot:
        worker = app.owner.load("the structure")  # type: ignore[attr-defined]
        await wait_until(pilot, lambda: worker.is_finished, "the read has failed")
        await pilot.pause()
        assert worker.state is WorkerState.ERROR
        assert app.told == [("Reading the structure", "the structure is not there")]


class _Leaving(Vertical):
    """A view whose read shows its answer in a child: the answer lands while the view is
    being removed, after its children are gone (their unmount lets the answer through)."""

    def __init__(self, answer: asyncio.Event) -> None:
        super().__init__()
        self.answer = answer

    def compose(self) -> ComposeResult:
        yield _LetsTheAnswerThrough(self.answer, id="shown-here")

    @read("leaving", "Loading members")
    async def load(self) -> None:
        await self.answer.wait()
        await asyncio.sleep(0)
        self.query_one("#shown-here", Static).update("the answer")


class _LetsTheAnswerThrough(Static):
    def __init__(self, answer: asyncio.Event, *, id: str) -> None:
        super().__init__(id=id)
        self.answer = answer

    def on_unmount(self) -> None:
        self.answer.set()


async def test_a_read_whose_view_is_being_removed_is_not_reported_as_a_failure() -> None:
    """In tmux the cursor passed over Members on its way down: the members table was swapped
    out while its first page was on the way. The page landed after the table's children were
    removed and before the table's own unmount cancelled the read, so showing it raised
    `NoMatches`, and docdeck said "Loading members failed … This is a bug in docdeck". A read
    whose node has left the screen (or is leaving it) has nowhere to show its answer, or its
    failure: nobody is waiting for it any more."""
    answer = asyncio.Event()
    app = _Reported(_Leaving(answer))
    async with app.run_test() as pilot:
        leaving = cast(_Leaving, app.owner)
        worker = leaving.load()
        await pilot.pause()
        await leaving.remove()
        await wait_until(pilot, lambda: worker.is_finished, "the read has ended")
        await pilot.pause()
        assert app.told == []
