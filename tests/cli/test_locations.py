"""The early sandbox start: only when nothing could name another account."""

from __future__ import annotations

from pathlib import Path

import pytest

from docdeck._cli.locations import surely_sandbox


def _sure(config_file: Path, text: str | None, **kwargs: object) -> bool:
    if text is not None:
        config_file.parent.mkdir(parents=True, exist_ok=True)
        config_file.write_bytes(text.encode() if isinstance(text, str) else text)
    args: dict[str, object] = {"base_url": None, "token": None, "profile": None, "environ": {}}
    args.update(kwargs)
    return surely_sandbox(**args)  # type: ignore[arg-type]


def test_no_config_and_nothing_given_is_the_sandbox(config_file: Path) -> None:
    assert _sure(config_file, None)


def test_profiles_without_a_default_still_mean_the_sandbox(config_file: Path) -> None:
    text = '[profiles.work]\nbase_url = "https://x.org"\ntoken = "t"\n'
    assert _sure(config_file, text)


@pytest.mark.parametrize(
    ("text", "kwargs"),
    [
        ('default_profile = "work"\n', {}),
        ("[broken\n", {}),
        (None, {"base_url": "https://x.org"}),
        (None, {"token": "t"}),
        (None, {"profile": "work"}),
        (None, {"environ": {"DOCDECK_BASE_URL": "https://x.org"}}),
        (None, {"environ": {"DOCDECK_TOKEN": "t"}}),
        (None, {"environ": {"DOCDECK_DEFAULT_PROFILE": "work"}}),
    ],
)
def test_any_doubt_leaves_it_to_full_resolution(
    config_file: Path, text: str | None, kwargs: dict[str, object]
) -> None:
    assert not _sure(config_file, text, **kwargs)


def test_empty_account_variables_do_not_count(config_file: Path) -> None:
    assert _sure(config_file, None, environ={"DOCDECK_TOKEN": "", "DOCDECK_BASE_URL": " "})


def test_without_a_config_file_tomllib_is_not_imported(tmp_path: Path) -> None:
    """The early start reads the config file's sandbox table and default profile; with no
    file (every start until one is written) the TOML parser is not imported at all."""
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from docdeck._cli.locations import sandbox_settings, surely_sandbox\n"
        "print(sandbox_settings({}), surely_sandbox(base_url=None, token=None, profile=None,"
        " environ={}), 'tomllib' in sys.modules)\n"
    )
    env = {**os.environ, "DOCDECK_CONFIG_DIR": str(tmp_path)}
    run = [sys.executable, "-c", code]
    without = subprocess.run(run, capture_output=True, text=True, env=env, check=True)
    assert without.stdout.split() == ["(15.0,", "True)", "True", "False"]

    (tmp_path / "config.toml").write_text('default_profile = "work"\n[sandbox]\nidle_minutes = 5\n')
    with_file = subprocess.run(run, capture_output=True, text=True, env=env, check=True)
    assert with_file.stdout.split() == ["(5.0,", "True)", "False", "True"]


def test_the_first_view_file_is_named_by_sha256_without_importing_hashlib(
    tmp_path: Path,
) -> None:
    import hashlib
    import os
    import subprocess
    import sys

    from docdeck._cli.locations import first_view_path

    digest = hashlib.sha256(b"url\0work\0https://x.org").hexdigest()[:16]
    assert first_view_path("url", "work", "https://x.org").name == f"url-work-{digest}.json"
    code = (
        "import sys\n"
        "from docdeck._cli.locations import first_view_path\n"
        "print(first_view_path('url', 'work', 'https://x.org').name, 'hashlib' in sys.modules)\n"
    )
    env = {**os.environ, "DOCDECK_CACHE_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.split() == [f"url-work-{digest}.json", "False"]
