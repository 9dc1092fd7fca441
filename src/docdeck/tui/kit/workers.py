"""Helpers shared by every widget that talks to the gateway from a worker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.worker import Worker, WorkerState

from docdeck.tui.kit.session import session_of

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from docdeck.gateway import Client

__all__ = ["client_of", "report_worker_failure"]


def client_of(node: DOMNode) -> Client:
    """The session's gateway client; widgets only exist on screen once it is connected."""
    return session_of(node).require_client()


def report_worker_failure(node: DOMNode, event: Worker.StateChanged) -> None:
    """Send a failed worker to the app's one error handler; the worker's name says what failed."""
    if event.state is not WorkerState.ERROR or event.worker.error is None:
        return
    session_of(node).report_error(event.worker.error, event.worker.name or "A request")
