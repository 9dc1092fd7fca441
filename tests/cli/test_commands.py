"""`docdeck profile ...`, `docdeck token create` and the error contract, through `main([...])`."""

from __future__ import annotations

import io
import stat
import sys
from pathlib import Path

import pytest

from docdeck import __version__
from docdeck.cli import main
from docdeck.config import load_settings, read_config_file
from docdeck.server import DemoAccount
from docdeck.server.store.server_key import key_path

TOKEN = "ddk_profile-secret"


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def _one_error_line(captured: pytest.CaptureResult[str]) -> str:
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


def test_profile_add_reads_the_token_from_stdin_and_writes_0600(
    monkeypatch: pytest.MonkeyPatch, config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, TOKEN + "\n")

    assert (
        main(["profile", "add", "work", "--base-url", "https://docs.example.com/", "--no-check"])
        == 0
    )

    profile = read_config_file().profiles["work"]
    assert profile.base_url == "https://docs.example.com"
    assert profile.token.get_secret_value() == TOKEN
    assert stat.S_IMODE(config_file.stat().st_mode) == 0o600
    captured = capsys.readouterr()
    assert TOKEN not in captured.out + captured.err


def test_profile_add_prompts_without_echo_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    prompts: list[str] = []

    def fake_getpass(prompt: str) -> str:
        prompts.append(prompt)
        return TOKEN

    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr("getpass.getpass", fake_getpass)

    assert (
        main(["profile", "add", "work", "--base-url", "https://x.org", "--default", "--no-check"])
        == 0
    )

    assert prompts == ["API token for profile 'work' (not echoed): "]
    settings = read_config_file()
    assert settings.default_profile == "work"
    assert settings.profiles["work"].token.get_secret_value() == TOKEN


def test_profile_list_shows_names_urls_and_default_but_never_tokens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, TOKEN)
    main(["profile", "add", "work", "--base-url", "https://work.example.com", "--no-check"])
    _stdin(monkeypatch, "other-token")
    main(["profile", "add", "home", "--base-url", "http://localhost:8080", "--no-check"])
    main(["profile", "default", "work"])
    capsys.readouterr()

    assert main(["profile", "list"]) == 0

    out = capsys.readouterr().out
    assert out.splitlines() == [
        "  home  http://localhost:8080",
        "* work  https://work.example.com",
    ]
    assert TOKEN not in out and "other-token" not in out


def test_profile_remove_and_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, TOKEN)
    main(["profile", "add", "work", "--base-url", "https://x.org", "--default", "--no-check"])

    assert main(["profile", "remove", "work"]) == 0

    settings = read_config_file()
    assert settings.profiles == {}
    assert settings.default_profile is None
    assert "now opens the embedded sandbox" in capsys.readouterr().err


def test_profile_default_shows_sets_and_unsets(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, TOKEN)
    main(["profile", "add", "work", "--base-url", "https://x.org", "--no-check"])
    capsys.readouterr()

    assert main(["profile", "default"]) == 0
    assert capsys.readouterr().out.strip() == "(none: the embedded sandbox)"
    assert main(["profile", "default", "work"]) == 0
    assert read_config_file().default_profile == "work"
    assert main(["profile", "default", "--unset"]) == 0
    assert read_config_file().default_profile is None


@pytest.mark.parametrize(
    ("argv", "stdin", "expected"),
    [
        (
            ["profile", "add", "w", "--base-url", "ftp://x.org", "--no-check"],
            TOKEN,
            "http:// or https://",
        ),
        (
            ["profile", "add", "w", "--base-url", "https://", "--no-check"],
            TOKEN,
            "has no host name",
        ),
        (
            ["profile", "add", "bad name", "--base-url", "https://x.org", "--no-check"],
            TOKEN,
            "profile name",
        ),
        (
            ["profile", "add", "w", "--base-url", "https://x.org", "--no-check"],
            "",
            "no token given",
        ),
        (
            ["profile", "add", "w", "--base-url", "https://x.org", "--no-check"],
            "a b",
            "single line",
        ),
        (["profile", "remove", "ghost"], "", "no profile named 'ghost' (profiles: none)"),
        (["profile", "default", "ghost"], "", "no profile named 'ghost'"),
        (["profile", "add", "w"], "", "the following arguments are required: --base-url"),
        (["--profile", "ghost"], "", "no profile named 'ghost'"),
        (["--base-url", "https://x.org"], "", "--base-url needs --token"),
        (["serve", "--port", "99999"], "", "port 99999 is outside 0-65535"),
        (["--bogus"], "", "unrecognized arguments: --bogus"),
        (["frobnicate"], "", "invalid choice: 'frobnicate'"),
    ],
)
def test_errors_are_one_line_and_exit_2(
    argv: list[str],
    stdin: str,
    expected: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    config_file: Path,
) -> None:
    _stdin(monkeypatch, stdin)

    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own errors
        code = int(stop.code or 0)

    assert code == 2
    line = _one_error_line(capsys.readouterr())
    assert line.startswith("docdeck")
    assert expected in line
    assert not config_file.exists()


def test_a_duplicate_profile_needs_replace(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, TOKEN)
    main(["profile", "add", "w", "--base-url", "https://x.org", "--no-check"])
    capsys.readouterr()
    _stdin(monkeypatch, "new-token")

    assert main(["profile", "add", "w", "--base-url", "https://y.org", "--no-check"]) == 2
    assert "add --replace" in _one_error_line(capsys.readouterr())
    assert read_config_file().profiles["w"].base_url == "https://x.org"

    _stdin(monkeypatch, "new-token")
    assert (
        main(["profile", "add", "w", "--base-url", "https://y.org", "--replace", "--no-check"]) == 0
    )
    assert read_config_file().profiles["w"].token.get_secret_value() == "new-token"


def test_a_corrupt_config_fails_before_the_ui_starts(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text("[profiles.work\n")

    assert main([]) == 2
    line = _one_error_line(capsys.readouterr())
    assert line.startswith(f"docdeck: error: config file {config_file}: invalid TOML")
    assert config_file.read_text() == "[profiles.work\n"


async def test_token_create_prints_only_a_working_token(
    sandbox_db: Path, demo_accounts: list[DemoAccount], capsys: pytest.CaptureFixture[str]
) -> None:
    import httpx

    from docdeck.server import create_app

    assert (
        main(["token", "create", "--db", str(sandbox_db), "--email", demo_accounts[0].email]) == 0
    )

    out = capsys.readouterr().out
    assert out.count("\n") == 1
    token = out.strip()
    transport = httpx.ASGITransport(app=create_app(sandbox_db))
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as http:
        answer = await http.get("/v1/orgs", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200
    assert answer.json()["items"]


@pytest.mark.parametrize(
    ("make_db", "email", "expected"),
    [
        ("demo", "nobody@example.com", "no user with email 'nobody@example.com'"),
        ("missing", "ada@northwind.dev", "no sandbox database at"),
        ("garbage", "ada@northwind.dev", "is not a usable sandbox database"),
        ("bad-key", "ada@northwind.dev", "sandbox.db.key: not a docdeck server key"),
    ],
)
def test_token_create_errors(
    make_db: str,
    email: str,
    expected: str,
    sandbox_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = {"missing": tmp_path / "none.db", "garbage": tmp_path / "junk.db"}.get(make_db, sandbox_db)
    if make_db == "garbage":
        db.write_bytes(b"this is not sqlite" * 100)
    if make_db == "bad-key":
        key_path(db).write_text("0123", encoding="ascii")

    assert main(["token", "create", "--db", str(db), "--email", email]) == 2

    captured = capsys.readouterr()
    assert captured.out == ""
    assert expected in _one_error_line(captured)
    if make_db == "missing":
        assert not db.exists()


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"docdeck {__version__}"


def test_an_unexpected_failure_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("docdeck._cli.profiles.read_config_file", broken)

    assert main(["profile", "list"]) == 1
    line = _one_error_line(capsys.readouterr())
    assert "internal error: ZeroDivisionError: division by zero" in line


def test_profile_add_checks_the_token_against_the_server(
    live_server: str,
    admin_token: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _stdin(monkeypatch, admin_token)

    assert main(["profile", "add", "live", "--base-url", live_server]) == 0

    assert read_config_file().profiles["live"].token.get_secret_value() == admin_token
    assert "Warning" not in capsys.readouterr().err


def test_a_rejected_token_is_not_saved(
    live_server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, "ddk_not-a-real-token")

    assert main(["profile", "add", "live", "--base-url", live_server]) == 2

    line = _one_error_line(capsys.readouterr())
    assert f"{live_server} rejected the token (401" in line
    assert "ddk_not-a-real-token" not in line
    assert read_config_file().profiles == {}


def test_an_unreachable_server_is_one_line_exit_2_and_nothing_is_saved(
    closed_port_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    config_file: Path,
) -> None:
    _stdin(monkeypatch, TOKEN)

    assert main(["profile", "add", "offline", "--base-url", closed_port_url]) == 2

    line = _one_error_line(capsys.readouterr())
    assert line.startswith(
        f"docdeck: error: cannot check the token: Could not connect to {closed_port_url}"
    )
    assert line.endswith("nothing saved (add --no-check to save it without checking)")
    assert TOKEN not in line
    assert not config_file.exists()


@pytest.mark.parametrize(
    "raw",
    [b"ddk_caf\xc3\xa9\n", b"\xff\xfe\n", b"ddk_tab\x07bell\n"],
    ids=["accent", "binary", "control"],
)
def test_a_token_that_cannot_go_into_a_header_is_refused(
    raw: bytes,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    config_file: Path,
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="surrogateescape")
    monkeypatch.setattr(sys, "stdin", stdin)

    assert main(["profile", "add", "w", "--base-url", "https://x.org", "--no-check"]) == 2

    line = _one_error_line(capsys.readouterr())
    assert "the token must be printable ASCII" in line
    assert not config_file.parent.exists() or list(config_file.parent.iterdir()) == []


def test_a_reader_that_leaves_early_is_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())

    assert main(["profile", "default"]) == 2

    assert capsys.readouterr().err == ""


def test_serve_on_a_file_that_is_not_a_database_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)

    assert main(["serve", "--db", str(junk), "--port", "0"]) == 2

    line = _one_error_line(capsys.readouterr())
    assert (
        line == f"docdeck: error: {junk} is not a usable sandbox database: file is not a database"
    )


def test_serve_db_that_is_a_directory_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path), "--port", "0"]) == 2

    assert "is a directory; give a database file path" in _one_error_line(capsys.readouterr())


def _tables(db: Path) -> set[str]:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()


@pytest.mark.parametrize("command", ["serve", "token"])
def test_another_programs_sqlite_file_is_refused_and_left_untouched(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    other = tmp_path / "notes.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    argv = (
        ["serve", "--db", str(other), "--port", "0"]
        if command == "serve"
        else ["token", "create", "--db", str(other), "--email", "ada@northwind.dev"]
    )

    assert main(argv) == 2

    line = _one_error_line(capsys.readouterr())
    assert line == (
        f"docdeck: error: {other} is an SQLite database of another program "
        "(no docdeck tables); give another --db path"
    )
    assert other.read_bytes() == before
    assert _tables(other) == {"notes"}


def test_token_create_on_an_empty_file_does_not_turn_it_into_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()

    assert main(["token", "create", "--db", str(empty), "--email", "ada@northwind.dev"]) == 2

    assert "no sandbox database at" in _one_error_line(capsys.readouterr())
    assert empty.stat().st_size == 0


@pytest.mark.parametrize("command", ["serve", "token"])
def test_a_database_from_a_newer_docdeck_is_one_line(
    command: str, sandbox_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    conn = sqlite3.connect(sandbox_db)
    conn.execute("PRAGMA user_version = 9999")
    conn.commit()
    conn.close()
    argv = (
        ["serve", "--db", str(sandbox_db), "--port", "0"]
        if command == "serve"
        else ["token", "create", "--db", str(sandbox_db), "--email", "ada@northwind.dev"]
    )

    assert main(argv) == 2

    line = _one_error_line(capsys.readouterr())
    assert f"{sandbox_db} was written by a newer docdeck" in line


def test_serve_db_that_is_not_a_regular_file_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--db", "/dev/null", "--port", "0"]) == 2

    assert _one_error_line(capsys.readouterr()) == (
        "docdeck: error: --db /dev/null is not a regular file; give a database file path"
    )


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        (
            ["--base-url", "https://x.org", "--token", "SECRET-tök"],
            {},
            "--token: the token must be",
        ),
        ([], {"DOCDECK_BASE_URL": "https://x.org", "DOCDECK_TOKEN": "SECRET\nX"}, "DOCDECK_TOKEN:"),
    ],
)
def test_a_token_that_cannot_go_into_a_header_fails_before_the_ui(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    env: dict[str, str],
    expected: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    assert main(argv) == 2

    line = _one_error_line(capsys.readouterr())
    assert expected in line
    assert "SECRET" not in line  # never echoed


def test_profile_add_repairs_a_default_profile_that_names_no_profile(
    monkeypatch: pytest.MonkeyPatch, config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text('default_profile = "work"\n')
    assert main(["profile", "list"]) == 0  # editing commands still read the file

    monkeypatch.setattr(sys, "stdin", io.StringIO(TOKEN + "\n"))
    assert main(["profile", "add", "work", "--base-url", "https://x.org", "--no-check"]) == 0

    assert load_settings().profiles["work"].base_url == "https://x.org"
    assert load_settings().default_profile == "work"


def test_no_arguments_is_what_the_parser_gives_without_building_it() -> None:
    """`docdeck` alone skips argparse (its import and the parser: ~20 ms before the first
    frame); the arguments handed on are the parser's for an empty command line."""
    import subprocess

    from docdeck.cli import _no_arguments, build_parser

    assert vars(_no_arguments()) == vars(build_parser().parse_args([]))
    probe = (
        "import sys, docdeck.cli as cli;"
        "args = cli._parse([]);"
        "print('argparse' in sys.modules, args.handler is cli._run_tui)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["False", "True"]


@pytest.mark.parametrize(
    "target",
    ["http://127.0.0.1:8080/app/spaces/s1/change-requests/4", "s1", "", "open", "tui", "a b"],
)
def test_open_a_target_is_what_the_parser_gives_without_building_it(target: str) -> None:
    """`docdeck open TARGET` (a link opened from elsewhere) skips argparse too; with an
    option, or a target that looks like one, the parser reads the command line."""
    import subprocess

    from docdeck.cli import _parse, build_parser

    assert vars(_parse(["open", target])) == vars(build_parser().parse_args(["open", target]))
    probe = (
        "import sys, docdeck.cli as cli;"
        f"args = cli._parse(['open', {target!r}]);"
        "print('argparse' in sys.modules, args.handler is cli._run_open)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["False", "True"]
    with_option = _parse(["open", target, "--profile", "work"])
    assert with_option.profile == "work" and with_option.target == target


def test_open_with_what_looks_like_an_option_is_read_by_the_parser(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from docdeck.cli import _parse

    with pytest.raises(SystemExit) as exited:
        _parse(["open", "--no-such-option"])
    assert exited.value.code == 2
    assert "docdeck open: error:" in capsys.readouterr().err


def test_profile_add_keeps_the_files_comments_and_explicit_settings(
    monkeypatch: pytest.MonkeyPatch, config_file: Path
) -> None:
    users_file = '# my settings\n\n[ui]\ntheme = "nord"   # dark\nmouse = true\n'
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text(users_file)
    _stdin(monkeypatch, TOKEN + "\n")

    assert main(["profile", "add", "work", "--base-url", "https://x.org", "--no-check"]) == 0

    assert config_file.read_text() == (
        f'{users_file}\n[profiles.work]\nbase_url = "https://x.org"\ntoken = "{TOKEN}"\n'
    )
    assert stat.S_IMODE(config_file.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["open", "http://h/app/spaces/%1b%5b2J%1b%5bH"], r"\x1b[2J\x1b[H"),
        (["open", "http://h/app/spaces/%00x/"], r"\x00x"),
        (["open", "http://h/app/spaces/a%07b"], r"a\x07b"),
    ],
)
def test_an_error_quoting_what_was_typed_never_sends_control_characters_to_the_terminal(
    argv: list[str], shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A URL's %1b%5b2J decodes to an escape sequence (clearing the screen), %00 to a NUL:
    quoted in the error as they were decoded, they were written to the terminal raw."""
    assert main(argv) == 2
    line = _one_error_line(capsys.readouterr())
    assert shown in line, line
    assert line.isprintable(), repr(line)
