"""config.toml: round trip, file mode, one-line errors, the environment's precedence, secrecy."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest
from pydantic import SecretStr

from docdeck.config import (
    ConfigError,
    Profile,
    Settings,
    UISettings,
    config_path,
    data_dir,
    load_settings,
    read_config_file,
    sandbox_db_path,
    write_config_file,
)

TOKEN = "ddk_secret-token-value"


def _settings() -> Settings:
    return read_config_file().model_copy(
        update={
            "default_profile": "work",
            "profiles": {
                "work": Profile(base_url="https://docs.example.com/", token=SecretStr(TOKEN)),
                "staging": Profile(base_url="http://localhost:9000/v1", token=SecretStr("t2")),
            },
            "ui": UISettings(theme="nord"),
            "keymap": {"app.quit": "ctrl+q", "tree.refresh": "r,f5"},
        }
    )


def test_locations_follow_the_override_variables(isolated_dirs: tuple[Path, Path]) -> None:
    assert config_path() == isolated_dirs[0] / "config.toml"
    assert data_dir() == isolated_dirs[1]
    assert sandbox_db_path() == isolated_dirs[1] / "sandbox.db"


def test_round_trip_keeps_every_setting_and_the_token(config_file: Path) -> None:
    write_config_file(_settings())

    again = read_config_file()
    assert again.default_profile == "work"
    assert again.profiles["work"].base_url == "https://docs.example.com"
    assert again.profiles["work"].token.get_secret_value() == TOKEN
    assert again.profiles["staging"].base_url == "http://localhost:9000/v1"
    assert again.ui.theme == "nord"
    assert again.keymap == {"app.quit": "ctrl+q", "tree.refresh": "r,f5"}
    assert tomllib.loads(config_file.read_text())["profiles"]["work"]["token"] == TOKEN


def test_a_keymap_id_written_as_a_dotted_key_is_the_same_id(config_file: Path) -> None:
    """`threads.reply = "ctrl+r"` (the help screen's example, unquoted) is a TOML dotted key,
    read as a table `threads`: it was refused ("keymap.threads: Input should be a valid
    string"), so docdeck did not start."""
    config_file.parent.mkdir(parents=True)
    config_file.write_text(
        '[keymap]\nthreads.reply = "ctrl+r"\n"app.quit" = "ctrl+q"\nlist.down = "j,down"\n'
    )

    assert load_settings().keymap == {
        "threads.reply": "ctrl+r",
        "app.quit": "ctrl+q",
        "list.down": "j,down",
    }


def test_file_is_created_0600_and_no_temp_file_is_left(config_file: Path) -> None:
    write_config_file(_settings())

    assert stat.S_IMODE(config_file.stat().st_mode) == 0o600
    assert [p.name for p in config_file.parent.iterdir()] == ["config.toml"]


def test_rewriting_a_loose_file_tightens_it_to_0600(config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text('[ui]\ntheme = "nord"\n')
    config_file.chmod(0o644)

    write_config_file(read_config_file())

    assert stat.S_IMODE(config_file.stat().st_mode) == 0o600
    assert read_config_file().ui.theme == "nord"


def test_missing_file_means_defaults() -> None:
    settings = load_settings()
    assert settings.profiles == {}
    assert settings.default_profile is None
    assert settings.ui.theme == "textual-dark"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[ui\ntheme = 1", "invalid TOML"),
        ('[ui]\ntheme = "nord"\ncolour = "red"\n', "ui.colour: unknown setting"),
        ('[profiles.work]\nbase_url = "ftp://x.org"\ntoken = "t"\n', "profiles.work.base_url"),
        ('[profiles.work]\nbase_url = "https://x.org"\n', "profiles.work.token: Field required"),
        ('[profiles."bad name"]\nbase_url = "https://x.org"\ntoken = "t"\n', "'bad name'"),
        ('default_profile = "gone"\n', "default_profile 'gone' names no [profiles] entry"),
        ("keymap = 3\n", "keymap"),
        ("[keymap]\nreview.reply = 3\n", "keymap.review.reply: Input should be a valid string"),
    ],
)
def test_a_bad_file_is_one_line_naming_the_file_and_the_problem(
    config_file: Path, text: str, expected: str
) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text(text)

    with pytest.raises(ConfigError) as caught:
        load_settings()

    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"config file {config_file}: ")
    assert expected in message


def test_invalid_utf8_is_reported(config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_bytes(b"\xff\xfe[ui]")

    with pytest.raises(ConfigError, match="not UTF-8"):
        load_settings()


def test_environment_overrides_the_file_with_the_docdeck_prefix(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config_file(_settings())
    monkeypatch.setenv("DOCDECK_UI__THEME", "gruvbox")
    monkeypatch.setenv("DOCDECK_DEFAULT_PROFILE", "staging")

    settings = load_settings()
    assert settings.ui.theme == "gruvbox"
    assert settings.default_profile == "staging"
    # Editing commands read the file alone, so the override is never written back.
    assert read_config_file().ui.theme == "nord"
    assert read_config_file().default_profile == "work"


def test_a_bad_environment_value_names_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCDECK_DEFAULT_PROFILE", "nowhere")

    with pytest.raises(ConfigError, match=r"^DOCDECK_ environment setting: .*'nowhere'"):
        load_settings()


def test_the_token_never_shows_in_repr_str_or_a_plain_dump(config_file: Path) -> None:
    settings = _settings()

    for text in (
        repr(settings),
        str(settings),
        settings.model_dump_json(),
        str(settings.model_dump()),
    ):
        assert TOKEN not in text
    assert TOKEN in str(settings.to_toml_dict())


def test_fields_are_documented() -> None:
    for model in (Settings, Profile, UISettings):
        for name, field in model.model_fields.items():
            assert field.description, f"{model.__name__}.{name} has no docstring"


def test_a_failed_write_leaves_no_temp_file_and_keeps_the_old_file(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config_file(_settings())
    before = config_file.read_bytes()

    def broken_sync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", broken_sync)
    with pytest.raises(ConfigError, match=r"cannot write it \(No space left on device"):
        write_config_file(_settings().model_copy(update={"default_profile": "staging"}))

    assert config_file.read_bytes() == before
    assert sorted(p.name for p in config_file.parent.iterdir()) == ["config.toml"]


def test_a_profile_token_with_an_accent_is_a_file_error(config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text('[profiles.work]\nbase_url = "https://x.org"\ntoken = "tökén"\n')

    with pytest.raises(ConfigError, match=r"profiles\.work\.token: the token must be printable"):
        load_settings()


def test_the_mouse_can_be_turned_off(config_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().ui.mouse is True
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text("[ui]\nmouse = false\n")
    assert load_settings().ui.mouse is False
    config_file.write_text("")
    monkeypatch.setenv("DOCDECK_UI__MOUSE", "false")
    assert load_settings().ui.mouse is False


USERS_FILE = """\
# my settings
default_profile = "home"   # the one I use most

[ui]
theme = "nord"   # dark
mouse = true

[profiles.home]
base_url = "https://home.example.com"
token = "t-home"
remember_first_view = true
"""


def test_writing_changes_only_the_changed_keys_and_keeps_the_users_words(
    config_file: Path,
) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text(USERS_FILE)
    settings = read_config_file()
    settings.ui = settings.ui.model_copy(update={"theme": "gruvbox"})
    settings.keymap = {"app.quit": "ctrl+q"}

    write_config_file(settings)

    assert (
        config_file.read_text()
        == USERS_FILE.replace('theme = "nord"   # dark', 'theme = "gruvbox"   # dark')
        + '\n[keymap]\n"app.quit" = "ctrl+q"\n'
    )
    assert stat.S_IMODE(config_file.stat().st_mode) == 0o600


def test_removing_a_profile_and_the_default_removes_only_their_lines(config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    work = '\n[profiles.work]\nbase_url = "https://w.org"\ntoken = "w"\n'
    config_file.write_text(USERS_FILE + work)
    settings = read_config_file()
    settings.profiles = {"work": settings.profiles["work"]}
    settings.default_profile = None

    write_config_file(settings)

    assert config_file.read_text() == (
        '# my settings\n\n[ui]\ntheme = "nord"   # dark\nmouse = true\n\n'
        '[profiles.work]\nbase_url = "https://w.org"\ntoken = "w"\n'
    )
