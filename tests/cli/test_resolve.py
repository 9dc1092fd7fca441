"""Which account `docdeck` opens: flags, then environment, then profile, then the sandbox."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from docdeck.config import ConfigError, Profile, Settings, resolve_account

ENV = {"DOCDECK_BASE_URL": "https://env.example.com", "DOCDECK_TOKEN": "env-token"}


def _settings(default: str | None = "work") -> Settings:
    profiles = {
        "work": Profile(base_url="https://work.example.com", token=SecretStr("work-token")),
        "home": Profile(base_url="https://home.example.com", token=SecretStr("home-token")),
    }
    return Settings.model_construct(default_profile=default, profiles=profiles)


def test_flags_win_over_everything() -> None:
    account = resolve_account(
        base_url="https://flag.example.com:8443/",
        token="flag-token",
        profile="home",
        environ=ENV,
        settings=_settings(),
    )
    assert (account.source, account.base_url) == ("flags", "https://flag.example.com:8443")
    assert account.token is not None and account.token.get_secret_value() == "flag-token"
    assert account.label == "flag.example.com:8443"


def test_environment_wins_over_profiles() -> None:
    account = resolve_account(
        base_url=None, token=None, profile="home", environ=ENV, settings=_settings()
    )
    assert (account.source, account.base_url, account.label) == (
        "environment",
        "https://env.example.com",
        "env.example.com",
    )


def test_profile_flag_wins_over_the_default_profile() -> None:
    account = resolve_account(
        base_url=None, token=None, profile="home", environ={}, settings=_settings()
    )
    assert (account.source, account.label, account.base_url) == (
        "profile",
        "home",
        "https://home.example.com",
    )


def test_default_profile_is_used_without_a_flag() -> None:
    account = resolve_account(
        base_url=None, token=None, profile=None, environ={}, settings=_settings()
    )
    assert (account.label, account.base_url) == ("work", "https://work.example.com")


def test_nothing_configured_means_the_sandbox() -> None:
    account = resolve_account(
        base_url=None, token=None, profile=None, environ={}, settings=_settings(default=None)
    )
    assert account.is_sandbox
    assert (account.source, account.label, account.token) == ("sandbox", "sandbox", None)


def test_empty_environment_values_count_as_unset() -> None:
    account = resolve_account(
        base_url=None,
        token=None,
        profile=None,
        environ={"DOCDECK_BASE_URL": "", "DOCDECK_TOKEN": " "},
        settings=_settings(default=None),
    )
    assert account.is_sandbox


@pytest.mark.parametrize(
    ("flags", "environ", "profile", "expected"),
    [
        (("https://x.org", None), {}, None, "--base-url needs --token"),
        ((None, "tok"), {}, None, "--token needs --base-url"),
        (("x.org", "tok"), {}, None, "must start with http:// or https://"),
        ((None, None), {"DOCDECK_TOKEN": "t"}, None, "DOCDECK_TOKEN needs DOCDECK_BASE_URL"),
        ((None, None), {"DOCDECK_BASE_URL": "https://x.org"}, None, "needs DOCDECK_TOKEN"),
        ((None, None), {}, "nope", "no profile named 'nope' (profiles: home, work)"),
    ],
)
def test_incomplete_or_wrong_accounts_are_clear_errors(
    flags: tuple[str | None, str | None],
    environ: dict[str, str],
    profile: str | None,
    expected: str,
) -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_account(
            base_url=flags[0],
            token=flags[1],
            profile=profile,
            environ=environ,
            settings=_settings(),
        )
    assert expected in str(caught.value)
