"""Site customization settings: the platform's `SiteCustomizationSettings`, with defaults.

The sandbox stores what a client sets and hands it back, checked with `jsonschema` against the
platform's own schema (`data/site_customization.schema.json`, derived from its OpenAPI
document); the published HTML uses only the title. A site never customized answers the
defaults below. A site space's override is a deep patch on the site's settings.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from functools import cache
from importlib import resources
from typing import Any

from docdeck.server.errors import bad_request, describe_schema_error

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


@cache
def _schema() -> dict[str, Any]:
    text = resources.files("docdeck.server.sites").joinpath("data/site_customization.schema.json")
    return dict(json.loads(text.read_text(encoding="utf-8")))


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft7Validator

    return Draft7Validator({**_schema(), "$ref": f"#/definitions/{name}"})


SETTINGS_KEYS = frozenset([*DEFAULT_CUSTOMIZATION, "title", "announcement"])


def check(settings: Any, name: str = "SiteCustomizationSettings", field: str = "body") -> None:
    """400 naming where `settings` departs from the platform's schema `name`."""
    from jsonschema.exceptions import best_match

    if not isinstance(settings, dict):
        raise bad_request(f"{field}: must be a JSON object")
    unknown = sorted(set(settings) - SETTINGS_KEYS)
    if unknown:
        raise bad_request(f"{unknown[0]}: is not a known customization setting")
    error = best_match(_validator(name).iter_errors(settings))
    if error is not None:
        if error.validator in ("oneOf", "anyOf"):
            where = ".".join(str(p) for p in error.absolute_path) or field
            message = f"{json.dumps(error.instance)[:80]} is not an accepted value"
            raise bad_request(f"{where}: {message}")
        raise bad_request(describe_schema_error(error, "" if field == "body" else field))


def merge_override(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """`patch` applied onto `base`: objects merge key by key, null removes a key."""
    out = copy.deepcopy(base)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_override(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def site_space_override(conn: sqlite3.Connection, site_space_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT customization FROM site_spaces WHERE id = ?", (site_space_id,)
    ).fetchone()
    return None if row is None or row[0] is None else dict(json.loads(row[0]))
