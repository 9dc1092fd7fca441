"""Conflict markers in a change request's page, as `POST {CR}/update` writes them.

```
<<<<<<< main
main's version
=======
the change request's version
>>>>>>> change request #7
```

A page is read into plain text and conflicts in order; each conflict is resolved by keeping
main's side, the change request's side, or a text written in the editor. The resolved page
is plain markdown again, saved through authoring (`update_page`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Conflict", "ConflictedPage", "has_markers", "parse_conflicts"]

START = "<<<<<<< "
MIDDLE = "======="
END = ">>>>>>> "


@dataclass
class Conflict:
    main: str
    change: str
    main_label: str = "main"
    change_label: str = "change request"
    resolution: str | None = None
    """The text kept for this conflict; None while unresolved."""
    chosen: str = ""
    """Which side was kept ("main", "change", "edited"): for the screen to say so."""
    spacing: str = ""
    """The blank line the server writes after the end marker, to keep the conflict apart from
    the next block. A resolution keeps exactly one blank line there: a side that already ends
    with its own (a block's blank lines belong to it) gets no second one."""

    def keep(self, side: str) -> None:
        self.resolution = self.main if side == "main" else self.change
        self.chosen = side

    def edited(self, text: str) -> None:
        self.resolution = text
        self.chosen = "edited"

    def as_markers(self) -> str:
        """The conflict as the server wrote it: what the editor starts from."""
        return (
            f"{START}{self.main_label}\n{self.main}{MIDDLE}\n"
            f"{self.change}{END}{self.change_label}\n"
        )

    def text(self) -> str:
        """What the page holds here: the resolution, spaced from the next block as the
        markers were, or the markers themselves while unresolved."""
        if self.resolution is None:
            return self.as_markers() + self.spacing
        if not self.resolution.strip() or not self.spacing:
            return self.resolution
        ended = self.resolution if self.resolution.endswith("\n") else self.resolution + "\n"
        return ended if ended.endswith("\n\n") else ended + self.spacing


@dataclass
class ConflictedPage:
    page_id: str
    title: str
    parts: list[str | Conflict] = field(default_factory=list)

    @property
    def conflicts(self) -> list[Conflict]:
        return [part for part in self.parts if isinstance(part, Conflict)]

    @property
    def resolved(self) -> bool:
        return all(conflict.resolution is not None for conflict in self.conflicts)

    def markdown(self) -> str:
        """The page with every resolved conflict replaced by its resolution (unresolved ones
        keep their markers, so nothing is dropped by mistake)."""
        out: list[str] = []
        for part in self.parts:
            out.append(part.text() if isinstance(part, Conflict) else part)
        return "".join(out)


def has_markers(markdown: str) -> bool:
    return any(line.startswith(START) for line in markdown.splitlines())


def parse_conflicts(page_id: str, title: str, markdown: str) -> ConflictedPage:
    """Split a page into text and conflicts; a marker without its partners stays text."""
    page = ConflictedPage(page_id, title)
    lines = markdown.splitlines(keepends=True)
    text: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        found = _conflict_at(lines, index) if line.startswith(START) else None
        if found is None:
            text.append(line)
            index += 1
            continue
        conflict, index = found
        if text:
            page.parts.append("".join(text))
            text = []
        page.parts.append(conflict)
    if text:
        page.parts.append("".join(text))
    return page


def _conflict_at(lines: list[str], start: int) -> tuple[Conflict, int] | None:
    """The conflict starting at `lines[start]` and the index after it, if it is complete."""
    main_label = lines[start][len(START) :].rstrip("\n")
    middle = end = None
    for index in range(start + 1, len(lines)):
        stripped = lines[index].rstrip("\n")
        if middle is None and stripped == MIDDLE:
            middle = index
        elif middle is not None and lines[index].startswith(END):
            end = index
            break
        elif lines[index].startswith(START):
            return None
    if middle is None or end is None:
        return None
    conflict = Conflict(
        main="".join(lines[start + 1 : middle]),
        change="".join(lines[middle + 1 : end]),
        main_label=main_label,
        change_label=lines[end][len(END) :].rstrip("\n"),
    )
    after = end + 1
    if after < len(lines) and not lines[after].strip():
        conflict.spacing = lines[after]  # the server's blank line after the markers
        after += 1
    return conflict, after
