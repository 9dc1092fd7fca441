"""Helpers shared by every widget that talks to the gateway from a worker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.worker import Worker, WorkerState

from docdeck.gateway import Client

if TYPE_CHECKING:
    from textual.dom import DOMNode

__all__ = ["client_of", "report_worker_failure"]


def client_of(node: DOMNode) -> Client:
    """The app's gateway client; widgets only exist on screen once it is connected."""
    client = getattr(node.app, "client", None)
    if not isinstance(client, Client):
        raise RuntimeError("docdeck is not connected yet")
    return client


def report_worker_failure(node: DOMNode, event: Worker.StateChanged) -> None:
    """Send a failed worker to the app's one error handler; the worker's name says what failed."""
    if event.state is not WorkerState.ERROR or event.worker.error is None:
        return
    report = getattr(node.app, "report_error", None)
    if report is not None:
        report(event.worker.error, event.worker.name or "A request")
