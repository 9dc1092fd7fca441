"""The ids users remap keys by (`[keymap]` in config.toml), known without importing screens.

The app checks a user's keymap against this list at start-up, when most screens are not
imported yet; a test keeps it equal to every `Binding.id` in the TUI and to docs/tui.md.
An id that is renamed stays here as an alias, so a user's old entry keeps working.
"""

from __future__ import annotations

__all__ = ["ALIASES", "BINDING_IDS", "resolve_keymap"]

BINDING_IDS: frozenset[str] = frozenset(
    {
        "admin_form.save",
        "app.help",
        "app.quit",
        "browser.add_team_member",
        "browser.back",
        "browser.change_role",
        "browser.copy",
        "browser.copy_choose",
        "browser.delete",
        "browser.delete_site",
        "browser.duplicate",
        "browser.filter",
        "browser.move",
        "browser.new_collection",
        "browser.new_site",
        "browser.new_space",
        "browser.open",
        "browser.refresh",
        "browser.remove_team_member",
        "browser.rename",
        "browser.restore",
        "browser.review_inbox",
        "browser.toggle_team_role",
        "chooser.close",
        "chooser.to_list",
        "composer.discard",
        "composer.editor",
        "composer.keep",
        "composer.post",
        "conflicts.change",
        "conflicts.close",
        "conflicts.edit",
        "conflicts.main",
        "conflicts.merge",
        "conflicts.save",
        "connect.quit",
        "connect.retry",
        "dialog.cancel",
        "dialog.confirm",
        "dialog.deny",
        "dialog.quit",
        "diff.ignore_l",
        "form.send",
        "help.close",
        "help.down",
        "help.first",
        "help.last",
        "help.page_down",
        "help.page_up",
        "help.up",
        "inbox.back",
        "inbox.copy",
        "inbox.refresh",
        "inbox.show_involved",
        "inbox.show_reviewed",
        "inbox.show_waiting",
        "inbox.sort",
        "list.down",
        "list.first",
        "list.half_down",
        "list.half_up",
        "list.last",
        "list.page_down",
        "list.page_up",
        "list.up",
        "merge.close",
        "merge.conflicts",
        "merge.merge",
        "merge.update",
        "page.down",
        "page.end",
        "page.page_down",
        "page.page_up",
        "page.top",
        "page.up",
        "review.add_page",
        "review.archive",
        "review.back",
        "review.copy",
        "review.delete_page",
        "review.edit_page",
        "review.edit_subject",
        "review.merge",
        "review.next_hunk",
        "review.next_page",
        "review.open",
        "review.pdf",
        "review.previous_hunk",
        "review.previous_page",
        "review.refresh",
        "review.revert_page",
        "review.review",
        "review.reviewers",
        "review.switch_focus",
        "review.toggle_diff_only",
        "review.toggle_draft",
        "review.toggle_layout",
        "review.toggle_rendered",
        "review.toggle_viewed",
        "review.update_from_main",
        "reviewers.add",
        "reviewers.close",
        "reviewers.remove",
        "search.to_results",
        "settings.back",
        "settings.edit",
        "settings.refresh",
        "settings.revoke_invite",
        "site.adaptive_schema",
        "site.add_site_space",
        "site.back",
        "site.condition",
        "site.copy",
        "site.customize",
        "site.cut",
        "site.delete",
        "site.edit",
        "site.make_default",
        "site.move_down",
        "site.move_up",
        "site.new_group",
        "site.new_section",
        "site.paste",
        "site.publish",
        "site.published",
        "site.redirects",
        "site.refresh",
        "site.settings",
        "site.share_links",
        "site_json.editor",
        "site_json.save",
        "space.back",
        "space.comment_on_block",
        "space.comment_on_page",
        "space.copy",
        "space.cr_contributor",
        "space.cr_filter",
        "space.cr_sort",
        "space.cr_status",
        "space.edit_in_change_request",
        "space.filter",
        "space.history_back",
        "space.history_forward",
        "space.links_status",
        "space.mode('change_requests')",
        "space.mode('comments')",
        "space.mode('files')",
        "space.mode('history')",
        "space.mode('links')",
        "space.mode('pages')",
        "space.mode('search')",
        "space.new_change_request",
        "space.next_page",
        "space.open",
        "space.page_links",
        "space.previous_page",
        "space.refresh",
        "space.save_file",
        "space.toc",
        "space.toggle_raw",
        "space.toggle_tree",
        "spec_content.back",
        "spec_content.copy",
        "spec_content.refresh",
        "specs.back",
        "specs.browse",
        "specs.copy",
        "specs.delete",
        "specs.new",
        "specs.refresh",
        "specs.visibility",
        "sso.back",
        "sso.copy_acs",
        "sso.copy_entity",
        "sso.copy_start",
        "sso.delete",
        "sso.edit",
        "sso.new",
        "sso.refresh",
        "threads.comment_block",
        "threads.comment_scope",
        "threads.delete_comment",
        "threads.edit_comment",
        "threads.react",
        "threads.reply",
        "threads.resolve",
        "threads.thread_filter",
        "translation_form.edit_instructions",
        "translations.back",
        "translations.delete",
        "translations.instructions",
        "translations.new",
        "translations.open",
        "translations.refresh",
        "tree.collapse",
        "tree.expand",
    }
)

ALIASES: dict[str, str] = {
    # The review pane bound the thread keys under ids of its own: one id per thread key now.
    "review.thread_comment_block": "threads.comment_block",
    "review.thread_comment_scope": "threads.comment_scope",
    "review.thread_delete": "threads.delete_comment",
    "review.thread_edit": "threads.edit_comment",
    "review.thread_filter": "threads.thread_filter",
    "review.thread_react": "threads.react",
    "review.thread_reply": "threads.reply",
    "review.thread_resolve": "threads.resolve",
}
"""An id that was renamed -> the id it has now."""


_MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


def _known_key(name: str) -> bool:
    """A key name Textual can match: a character, one of its key names, or a character's
    Unicode name (`question_mark`)."""
    import unicodedata

    from textual.keys import KEY_ALIASES, KEY_NAME_REPLACEMENTS, Keys

    if len(name) == 1 or name in KEY_ALIASES or name in KEY_NAME_REPLACEMENTS.values():
        return True
    if any(key.value == name for key in Keys):
        return True
    try:
        unicodedata.lookup(name.replace("_", " "))
    except KeyError:
        return False
    return True


def key_problem(keys: str) -> str:
    """What is wrong with a `[keymap]` value ("" when every key in it can be pressed): a
    typo (`ctrl+`, `ctlr+j`, `escpae`) would otherwise bind a key no terminal sends."""
    if not keys.strip():
        return "no key given"
    for key in (part.strip() for part in keys.split(",")):
        if not key:
            return f"an empty key in “{keys}” (keys are separated by single commas)"
        if len(key) == 1:
            continue
        *modifiers, name = key.split("+")
        if not name:
            return f"“{key}” has no key after its last +"
        unknown = [m for m in modifiers if m.lower() not in _MODIFIERS]
        if unknown:
            return f"“{unknown[0]}” in “{key}” is not a modifier (ctrl, shift, alt, meta)"
        if not _known_key(name):
            return f"“{name}” is not a key name (docs/tui.md, Keys, says how keys are written)"
    return ""


def resolve_keymap(
    keymap: dict[str, str],
) -> tuple[dict[str, str], list[str], dict[str, str]]:
    """The keymap with old ids under their current names; the ids nothing is bound to; and
    the entries whose keys cannot be pressed, each with what is wrong (left out)."""
    resolved: dict[str, str] = {}
    unknown: list[str] = []
    invalid: dict[str, str] = {}
    for binding_id, keys in keymap.items():
        current = ALIASES.get(binding_id, binding_id)
        if current not in BINDING_IDS:
            unknown.append(binding_id)
            continue
        problem = key_problem(keys)
        if problem:
            invalid[binding_id] = problem
        else:
            resolved[current] = keys
    return resolved, unknown, invalid
