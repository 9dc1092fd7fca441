"""The footer shows a change of keys with the key widgets it has: only what changed is drawn
again, and the palette's key comes back without every other key being made anew."""

from __future__ import annotations

import dataclasses

import pytest
from textual.widgets._footer import FooterKey

from docdeck.tui.kit.footer import BrowserFooter, FooterItem
from tui.helpers import AppFactory, wait_for_organizations, wait_until


def _keys(footer: BrowserFooter) -> list[FooterKey]:
    return [child for child in footer.children if isinstance(child, FooterKey)]


async def test_the_palette_key_comes_back_after_the_keys_it_kept(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        footer = pilot.app.screen.query_one(BrowserFooter)
        shown, palette = footer.fitted()
        assert palette and _keys(footer)[-1].has_class("-command-palette")
        monkeypatch.setattr(footer, "fitted", lambda: (shown, False))
        footer.refit()
        await wait_until(
            pilot,
            lambda: not _keys(footer)[-1].has_class("-command-palette"),
            "the palette key goes",
        )
        before = _keys(footer)
        monkeypatch.undo()
        footer.refit()
        await wait_until(
            pilot,
            lambda: _keys(footer)[-1].has_class("-command-palette"),
            "the palette key is back",
        )
        after = _keys(footer)
        assert after[:-1] == before
        assert [key.description for key in before] == [item.label for item in shown]


async def test_a_changed_label_draws_only_its_key_again(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        footer = pilot.app.screen.query_one(BrowserFooter)
        shown, palette = footer.fitted()
        assert len(shown) > 2
        changed = [*shown[:-1], dataclasses.replace(shown[-1], label="changed")]
        refreshed: list[FooterKey] = []
        refresh = FooterKey.refresh

        def counted(self: FooterKey, *args: object, **kwargs: object) -> FooterKey:
            refreshed.append(self)
            return refresh(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(FooterKey, "refresh", counted)
        monkeypatch.setattr(footer, "fitted", lambda: (changed, palette))
        footer.refit()
        keys = _keys(footer)
        await wait_until(
            pilot, lambda: keys[len(shown) - 1].description == "changed", "the label changes"
        )
        assert set(refreshed) == {keys[len(shown) - 1]}
        assert isinstance(changed[-1], FooterItem)
