"""The outbound address filter: only addresses `ipaddress` calls global are reached, in every
form an address can take (IPv4-mapped, 6to4, NAT64), and loopback only when allowed."""

from __future__ import annotations

import pytest

from docdeck.server.outbound import FetchError, refusal, resolve

REFUSED = [
    ("127.0.0.1", "loopback"),
    ("::1", "loopback"),
    ("::ffff:127.0.0.1", "loopback"),
    ("10.0.0.1", "public"),
    ("172.16.5.4", "public"),
    ("192.168.1.1", "public"),
    ("100.64.0.1", "public"),  # carrier-grade NAT
    ("100.100.100.200", "public"),  # a cloud metadata address inside it
    ("169.254.169.254", "link-local"),
    ("::ffff:169.254.169.254", "link-local"),
    ("::ffff:100.64.0.1", "public"),
    ("2002:a9fe:a9fe::", "link-local"),  # 6to4 of 169.254.169.254
    ("2002:6440:1::", "public"),  # 6to4 of 100.64.0.1
    ("2002:7f00:1::", "loopback"),  # 6to4 of 127.0.0.1
    ("64:ff9b::a9fe:a9fe", "link-local"),  # NAT64 of 169.254.169.254
    ("64:ff9b::6440:1", "public"),  # NAT64 of 100.64.0.1
    ("64:ff9b:1::a00:1", "public"),  # local-use NAT64 of 10.0.0.1
    ("fe80::1", "link-local"),
    ("fc00::1", "public"),
    ("0.0.0.0", "public"),
    ("::", "public"),
    ("224.0.0.1", "multicast"),
    ("ff02::1", "multicast"),
    ("192.0.2.1", "public"),  # documentation
    ("198.18.0.1", "public"),  # benchmarking
    ("240.0.0.1", "public"),  # reserved
    ("255.255.255.255", "public"),
]


@pytest.mark.parametrize(("address", "why"), REFUSED)
def test_addresses_that_are_not_global_are_refused(address: str, why: str) -> None:
    problem = refusal(address, allow_loopback=False)
    assert problem is not None and why in problem, (address, problem)


@pytest.mark.parametrize("address", ["8.8.8.8", "1.1.1.1", "2606:4700::1111", "::ffff:8.8.8.8"])
def test_global_addresses_are_reached(address: str) -> None:
    assert refusal(address, allow_loopback=False) is None


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.8.9.10"])
def test_loopback_is_the_only_exception_when_allowed(address: str) -> None:
    assert refusal(address, allow_loopback=True) is None


@pytest.mark.parametrize("address", ["100.64.0.1", "10.0.0.1", "169.254.169.254", "::"])
def test_allowing_loopback_allows_nothing_else(address: str) -> None:
    assert refusal(address, allow_loopback=True) is not None


def test_names_resolving_to_refused_addresses_are_refused_before_connecting() -> None:
    with pytest.raises(FetchError, match="loopback"):
        resolve("localhost", 80, allow_loopback=False)
    with pytest.raises(FetchError, match="public"):
        resolve("100.64.0.1", 80, allow_loopback=False)
    with pytest.raises(FetchError, match="metadata"):
        resolve("metadata.google.internal", 80, allow_loopback=True)
