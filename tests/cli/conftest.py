"""Every CLI test gets its own config and data directories and a clean DOCDECK_ environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    for name in list(os.environ):
        if name.startswith("DOCDECK_"):
            monkeypatch.delenv(name)
    config_dir, data_dir = tmp_path / "config", tmp_path / "data"
    monkeypatch.setenv("DOCDECK_CONFIG_DIR", str(config_dir))
    monkeypatch.setenv("DOCDECK_DATA_DIR", str(data_dir))
    return config_dir, data_dir


@pytest.fixture
def config_file(isolated_dirs: tuple[Path, Path]) -> Path:
    return isolated_dirs[0] / "config.toml"
