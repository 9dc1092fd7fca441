"""Saving the theme picked in the palette, so the next start opens with it.

It goes where a hand-written `[ui] theme` goes (`config.toml`, through
`docdeck.config`, which changes only that value in the file, atomically, and
keeps everything else the user wrote). Imported only when a theme is picked:
pydantic is loaded by then.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["save_theme"]


def save_theme(name: str) -> Path:
    """Write `[ui] theme = name` into the config file; `ConfigError` says why it could not."""
    from docdeck.config import read_config_file, write_config_file

    settings = read_config_file()
    settings.ui = settings.ui.model_copy(update={"theme": name})
    return write_config_file(settings)
