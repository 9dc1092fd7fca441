"""Helpers shared by every widget that talks to the gateway from a worker."""

from __future__ import annotations

import asyncio
import functools
import inspect
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from textual.dom import DOMNode
from textual.worker import Worker, WorkerState, get_current_worker

from docdeck.tui.kit.session import SessionApp, session_of

if TYPE_CHECKING:
    from docdeck.gateway import Client

__all__ = [
    "client_of",
    "leaving",
    "read",
    "read_ahead",
    "report_worker_failure",
    "start",
    "work",
]

P = ParamSpec("P")
T = TypeVar("T")


def read_ahead(coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """`coroutine` started now, as a task whose answer some caller may await later, or none:
    its result or failure is retrieved here too, so one nobody awaited (a quit meanwhile,
    a failure the screen that asks again shows) is not reported as never retrieved, and a
    caller cancelled meanwhile does not cancel it for the others."""
    task = asyncio.get_running_loop().create_task(coroutine)
    task.add_done_callback(lambda done: done.cancelled() or done.exception())
    return task


def work(
    *,
    thread: bool = False,
    exclusive: bool = False,
    group: str | Callable[..., str] = "default",
    exit_on_error: bool = True,
    name: str | Callable[..., str] = "",
    opens_a_screen: bool = False,
) -> Callable[[Callable[P, Any]], Callable[P, Worker[Any]]]:
    """Textual's `@work`, described by the method's name alone; `name` says what failed
    when the worker does (`report_worker_failure`): a text, or a function given the
    method's own arguments (`self` first) that words it for this call; the method's name
    when not given. `group` likewise (a tree's loads are a group per entry).

    Without a description, Textual's decorator describes each worker by `repr()` of every
    argument, on the event loop, each time the method is called. A rendering worker is
    handed the parsed page: its repr, for a 1 MB page, held the loop 90 ms after `G`
    before the worker even started. Every docdeck worker is declared through this one.
    The method is called when its worker starts: one replaced (`exclusive`) or dropped
    with its screen before then leaves no coroutine behind (`run_worker(self.method())`
    made it at once, and Python warned that it was never awaited).

    A worker that does not end the app on an error (`exit_on_error=False`: every `read`)
    reports what it raises through the app's one error handler, named by `name`, once:
    whether or not its node reports its workers' failures too (`report_worker_failure`
    skips it). A read on a node that did not went unreported: the site editor stayed
    blank when its structure could not be read, and a key whose read failed did nothing.

    `opens_a_screen`: the worker may end by pushing a screen (a chooser or a dialog filled
    from what it read). Keys typed meanwhile wait for it (`typeahead.opens_a_screen`) and
    go to that screen: "n" and a space's name typed at once in the site editor filled the
    editor with the letters (the chooser opened empty after them).
    """

    def decorator(method: Callable[P, Any]) -> Callable[P, Worker[Any]]:
        if not thread and not inspect.iscoroutinefunction(method):
            raise TypeError(f"{method.__qualname__}: an async method, or thread=True")
        description = method.__qualname__
        reports = not exit_on_error and not thread

        @functools.wraps(method)
        def begin(*args: P.args, **kwargs: P.kwargs) -> Worker[Any]:
            node = args[0]
            assert isinstance(node, DOMNode)
            label = (name(*args, **kwargs) if callable(name) else name) or method.__name__
            job: Callable[[], Any] = functools.partial(method, *args, **kwargs)
            if reports:
                job = functools.partial(_reporting, node, label, job)
            worker = node.run_worker(
                job,
                name=label,
                group=group(*args, **kwargs) if callable(group) else group,
                description=description,
                exclusive=exclusive,
                exit_on_error=exit_on_error,
                thread=thread,
            )
            if opens_a_screen:
                from docdeck.tui.kit.typeahead import opens_a_screen as hold_keys_for

                hold_keys_for(worker)
            return worker

        return begin

    return decorator


def read(
    group: str | Callable[..., str],
    name: str | Callable[..., str] = "",
    *,
    opens_a_screen: bool = False,
) -> Callable[[Callable[P, Any]], Callable[P, Worker[Any]]]:
    """`@work` for a read: the group's newest call replaces the one before it, and what it
    raises is reported (once, named), never the app's exit. `opens_a_screen`: as `work`'s
    (a read that ends by pushing a chooser or a dialog)."""
    return work(
        group=group,
        name=name,
        exclusive=True,
        exit_on_error=False,
        opens_a_screen=opens_a_screen,
    )


def start(
    node: DOMNode,
    work: Callable[[], Awaitable[Any]],
    *,
    name: str,
    group: str,
    exclusive: bool = False,
) -> Worker[Any]:
    """`work` (a function, called when its worker starts) run as a read on `node`: what
    it raises is reported as `name`, as a declared `read` does. For work that is not a
    method of its node (a closure, a function of the screen)."""
    reporting: Callable[[], Coroutine[None, None, Any]] = functools.partial(
        _reporting, node, name, work
    )
    return node.run_worker(
        reporting,
        name=name,
        group=group,
        exclusive=exclusive,
        exit_on_error=False,
    )


_reported: weakref.WeakSet[Worker[Any]] = weakref.WeakSet()
"""Workers whose failure `_reporting` has reported already."""


def leaving(node: DOMNode) -> bool:
    """True once `node` is off the screen or on its way off: removed, its removal begun
    (Textual removes a node's children first, and cancels the node's workers only at its
    own unmount, last), or its screen closing."""
    return not node.is_attached or node._closing or node._closed or node._pruning


async def _reporting(node: DOMNode, doing: str, work: Callable[[], Awaitable[T]]) -> T:
    """`work`, its failure reported as `doing` (then raised: the worker ends in ERROR).

    Not when its node is leaving the screen: the view that asked is gone, so nobody waits
    for the answer or its failure. The cursor passing over Members swapped the members
    table out while its first page was on the way; the page landed after the table's
    children were removed and before its read was cancelled, and showing it raised
    `NoMatches`, reported as "a bug in docdeck". The worker still ends in ERROR."""
    try:
        return await work()
    except Exception as error:
        if leaving(node):
            _reported.add(get_current_worker())
        elif isinstance(node.app, SessionApp):  # else a test's host: nowhere to report
            _reported.add(get_current_worker())
            node.app.session.report_error(error, doing)
        raise


def client_of(node: DOMNode) -> Client:
    """The session's gateway client; widgets only exist on screen once it is connected."""
    return session_of(node).require_client()


def report_worker_failure(node: DOMNode, event: Worker.StateChanged) -> None:
    """Send a failed worker to the app's one error handler; the worker's name says what failed."""
    if event.state is not WorkerState.ERROR or event.worker.error is None:
        return
    if event.worker in _reported:
        return  # a declared read: reported as it failed
    session_of(node).report_error(event.worker.error, event.worker.name or "A request")
