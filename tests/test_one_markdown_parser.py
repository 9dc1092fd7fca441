"""Every markdown parser docdeck builds for page and comment bodies is the one configuration
in `docdeck.models.markdown`, cached once per side (the sandbox's `server/content/markdown.py`,
the TUI's `tui/content/markdown.py`): block keys (made by the sandbox) and the TUI's line
mapping and page view derive from the same token stream, so a second configuration would
make them disagree, as five did (task lists in some, alerts by regex in others).

The one other parser is the frontmatter finder's: markdown-it's `zero` preset with only the
front-matter rule, which reads the `---` block and nothing of the body."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).parents[1] / "src" / "docdeck"
BUILDS = re.compile(r"\bMarkdownIt\(")
ALLOWED = {
    "models/markdown.py": "the one configuration of body parsers",
    "server/change_requests/frontmatter.py": "the frontmatter block only (zero preset)",
}


def test_markdown_parsers_are_built_in_one_place() -> None:
    found = {
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if BUILDS.search(path.read_text(encoding="utf-8"))
    }
    assert found == set(ALLOWED), f"a parser built elsewhere: {sorted(found - set(ALLOWED))}"


def test_each_side_caches_the_one_configuration() -> None:
    from docdeck.models.markdown import markdown_parser
    from docdeck.server.content.markdown import parser as server_parser
    from docdeck.tui.content.markdown import parser as tui_parser

    reference = markdown_parser()
    for parser in (server_parser(), tui_parser()):
        assert parser is not reference
        assert parser.options == reference.options
        for chain in ("block", "inline"):
            rules = getattr(parser, chain).ruler.get_active_rules()
            assert rules == getattr(reference, chain).ruler.get_active_rules()
    assert server_parser() is server_parser() and tui_parser() is tui_parser()
    assert server_parser(html=False).options["html"] is False
