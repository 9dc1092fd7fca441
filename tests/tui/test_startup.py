"""The first frame is a light shell; the browser replaces it once its code has loaded."""

from __future__ import annotations

import pytest

import docdeck.tui.app
from docdeck.tui.orgs import MainScreen
from docdeck.tui.shell import ShellScreen
from tui.helpers import AppFactory, tree_of, visible_labels, wait_for_workers


async def test_the_shell_shows_first_then_the_browser_with_organizations(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    while_loading: dict[str, object] = {}
    real_import = docdeck.tui.app._import_browser

    def recording_import() -> type[MainScreen]:
        while_loading.update(
            screen=type(app.screen),
            palette=app.use_command_palette,
            help=app.check_action("help", ()),
            client=app.client,
        )
        return real_import()

    monkeypatch.setattr(docdeck.tui.app, "_import_browser", recording_import)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)

        # The first frame was the shell: no palette, no help, no connection yet.
        assert while_loading == {
            "screen": ShellScreen,
            "palette": False,
            "help": False,
            "client": None,
        }
        assert isinstance(app.screen, MainScreen)
        assert app.screen_stack[0] is app.browser
        assert app.use_command_palette
        assert app.check_action("help", ())
        assert "Northwind Labs" in " ".join(visible_labels(tree_of(pilot)))


def _styles_of(app: object) -> dict[str, tuple[object, ...]]:
    """Every browser node's resolved colours and size rules, by its place in the DOM."""
    from textual.app import App

    assert isinstance(app, App) and isinstance(app.screen, MainScreen)
    return {
        f"{index}:{node!r}": (
            node.styles.background,
            node.styles.color,
            node.styles.display,
            node.styles.width,
            node.styles.height,
        )
        for index, node in enumerate(app.screen.walk_children(with_self=True))
    }


@pytest.mark.parametrize(("size", "width_class"), [((120, 40), "-wide"), ((70, 30), "-stacked")])
async def test_the_browser_is_styled_as_a_full_restyle_would_style_it(
    make_app: AppFactory, size: tuple[int, int], width_class: str
) -> None:
    """Installing the browser skips Textual's re-parse of every stylesheet and the restyles
    of its first resumes and first resize (it was styled as it mounted, with the width
    classes the shell had); what shows must be the same."""
    app = make_app(theme="gruvbox")
    async with app.run_test(size=size) as pilot:
        await wait_for_workers(pilot)
        widths = {"-stacked", "-narrow", "-wide"}
        assert app.screen.classes & widths == {width_class}
        installed = _styles_of(app)
        app.refresh_css(animate=False)
        app.screen.update_node_styles(animate=False)
        await pilot.pause()
        assert _styles_of(app) == installed

        # The terminal narrowed while another screen covers the browser: its return
        # restyles it for the stacked layout.
        await pilot.press("question_mark")
        assert not isinstance(app.screen, MainScreen)
        await pilot.resize_terminal(100 if size[0] != 100 else 70, 30)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        after_return = _styles_of(app)
        app.refresh_css(animate=False)
        app.screen.update_node_styles(animate=False)
        await pilot.pause()
        assert _styles_of(app) == after_return
        assert after_return != installed
