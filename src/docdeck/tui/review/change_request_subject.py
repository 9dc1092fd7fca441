"""A change request as the subject of writes (`docdeck.tui.kit.in_flight.Subject`): one running
write per action on it, whatever dialog sent it."""

from __future__ import annotations

from dataclasses import dataclass

from docdeck.models import ChangeRequest

__all__ = ["ChangeRequestSubject"]


@dataclass(eq=False)
class ChangeRequestSubject:
    change_request: ChangeRequest
    busy: int = 0

    @property
    def title(self) -> str:
        subject = self.change_request.subject or "(no subject)"
        return f"#{self.change_request.number} {subject}"
