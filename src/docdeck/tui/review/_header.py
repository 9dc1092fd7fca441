"""The review pane's header: which change request, its state, and who reviewed it."""

from __future__ import annotations

from rich.text import Text

from docdeck.models import ChangeRequest
from docdeck.models.change_requests import ChangeRequestRequestedReviewer, ChangeRequestReview
from docdeck.tui.review.content import base_revision

__all__ = ["header_text", "review_outdated", "review_state"]

_STATUS_STYLE = {"open": "bold green", "draft": "bold yellow", "merged": "bold magenta"}


def review_outdated(review: ChangeRequestReview, change_request: ChangeRequest | None) -> bool:
    """The review no longer speaks for the change request: the platform says so
    (`outdated`, 0.202.0), or, where the release lacks the field, it was made against a
    revision the change request has since moved past."""
    if review.outdated is not None:
        return review.outdated
    return change_request is not None and review.revision != change_request.revision


def review_state(
    reviews: list[ChangeRequestReview], change_request: ChangeRequest | None = None
) -> dict[str, list[str]]:
    """Each reviewer's latest verdict ('approved' or 'changes-requested'), with names; a
    verdict that is outdated (`review_outdated`) is listed under 'outdated approved' or
    'outdated changes-requested' instead: an approval of an older revision is not one."""
    latest: dict[str, ChangeRequestReview] = {}
    for review in reviews:
        key = review.reviewer.id
        if key not in latest or review.updatedAt >= latest[key].updatedAt:
            latest[key] = review
    verdicts: dict[str, list[str]] = {}
    for review in latest.values():
        key = (
            f"outdated {review.status}"
            if review_outdated(review, change_request)
            else review.status
        )
        verdicts.setdefault(key, []).append(review.reviewer.displayName)
    return verdicts


def header_text(
    change_request: ChangeRequest,
    reviews: list[ChangeRequestReview] | None,
    requested: list[ChangeRequestRequestedReviewer] | None,
    problem: str = "",
    *,
    narrow: bool = False,
) -> Text:
    """Three lines; `narrow` (80 columns) leaves out the change request's own revision id
    so each line fits."""
    cr = change_request
    text = Text()
    text.append(f"#{cr.number} ", style="bold")
    text.append(cr.subject or "(no subject)", style="bold")
    text.append("  ")
    text.append(f" {cr.status} ", style=_STATUS_STYLE.get(cr.status, "bold dim") + " reverse")
    if cr.outdated:
        text.append("  ⚠ outdated", style="bold yellow")
    text.append("\n")
    text.append(f"by {cr.createdBy.displayName}", style="")
    text.append(f" · updated {cr.updatedAt.strftime('%Y-%m-%d %H:%M')}", style="dim")
    text.append(f" · base {base_revision(cr)}", style="dim")
    if not narrow:
        text.append(f" · revision {cr.revision}", style="dim")
    if cr.mergedBy is not None:
        text.append(f" · merged by {cr.mergedBy.displayName}", style="magenta")
    text.append("\n")
    if reviews is None or requested is None:
        text.append(problem or "reading reviews…", style="red" if problem else "dim")
        return text
    verdicts = review_state(reviews, cr)
    parts: list[Text] = []
    if verdicts.get("approved"):
        parts.append(Text(f"✔ approved: {', '.join(verdicts['approved'])}", style="green"))
    if verdicts.get("changes-requested"):
        names = ", ".join(verdicts["changes-requested"])
        parts.append(Text(f"✘ changes requested: {names}", style="red"))
    earlier = [
        *(f"{name} approved" for name in verdicts.get("outdated approved", [])),
        *(f"{name} asked for changes" for name in verdicts.get("outdated changes-requested", [])),
    ]
    if earlier:
        parts.append(Text(f"○ outdated: {', '.join(earlier)} (an older revision)", style="yellow"))
    asked = [r.user.displayName for r in requested if r.user is not None]
    if asked:
        parts.append(Text(f"asked: {', '.join(asked)}", style="cyan"))
    if not parts:
        parts.append(Text("no reviews yet", style="dim"))
    text.append_text(Text(" · ").join(parts))
    return text
