"""Site customization settings: the platform's `SiteCustomizationSettings`, with defaults.

The sandbox stores what a client sets and hands it back; only the published HTML uses a few
of the values (the title). A site that was never customized answers the defaults below.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from typing import Any

DEFAULT_CUSTOMIZATION: dict[str, Any] = {
    "styling": {
        "theme": "clean",
        "primaryColor": {"light": "#346DDB", "dark": "#346DDB"},
        "infoColor": {"light": "#787878", "dark": "#787878"},
        "successColor": {"light": "#00C950", "dark": "#00C950"},
        "warningColor": {"light": "#FE9A00", "dark": "#FE9A00"},
        "dangerColor": {"light": "#FB2C36", "dark": "#FB2C36"},
        "corners": "rounded",
        "depth": "subtle",
        "links": "default",
        "font": "Inter",
        "monospaceFont": "IBMPlexMono",
        "background": "plain",
        "icons": "regular",
        "sidebar": {"background": "default", "list": "default"},
        "search": "subtle",
    },
    "internationalization": {"locale": "en"},
    "favicon": {},
    "header": {"preset": "default", "links": []},
    "footer": {"groups": []},
    "themes": {"default": "light", "toggeable": True},
    "pdf": {"enabled": True},
    "feedback": {"enabled": False},
    "ai": {"mode": "search"},
    "advancedCustomization": {"enabled": True},
    "trademark": {"enabled": True},
    "externalLinks": {"target": "self"},
    "pagination": {"enabled": True},
    "pageActions": {"externalAI": True, "markdown": True},
    "git": {"showEditLink": False},
    "privacyPolicy": {},
    "socialPreview": {},
    "insights": {"trackingCookie": True},
}


def site_customization(row: sqlite3.Row) -> dict[str, Any]:
    raw = row["customization"]
    return copy.deepcopy(DEFAULT_CUSTOMIZATION) if raw is None else dict(json.loads(raw))


def site_space_customizations(conn: sqlite3.Connection, site_id: str) -> dict[str, dict[str, Any]]:
    """Per-site-space overrides: only site spaces that have one."""
    rows = conn.execute(
        "SELECT id, customization FROM site_spaces WHERE site_id = ? AND customization IS NOT NULL",
        (site_id,),
    )
    return {r["id"]: dict(json.loads(r["customization"])) for r in rows}
