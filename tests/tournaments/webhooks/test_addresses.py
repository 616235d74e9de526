"""Which addresses may receive webhooks, as production decides it (with
`WEBHOOKS_ALLOW_PRIVATE_ADDRESSES` off): one rule for the address written in a URL and for every
address its host resolves to. An IPv6 address that carries an IPv4 address is judged by the
address it carries (issue 23 §5)."""

import socket
from typing import Any

import pytest
from django.test import override_settings

from tournaments.webhooks.addresses import address_allowed
from tournaments.webhooks.delivery import DeliveryRefused, allowed_addresses

REFUSED = [
    # IPv4 that is not global, or not unicast.
    "127.0.0.1",
    "10.0.0.1",
    "192.168.1.20",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",  # noqa: S104 - an address refused, not one bound to
    "224.0.0.1",
    # IPv6 that is not global, or not unicast.
    "::1",
    "::",
    "fe80::1",
    "fe80::1%eth0",
    "fd00::1",
    "fec0::1",
    "2001:db8::1",
    "ff0e::1",
    # IPv4-mapped (::ffff:0:0/96) and IPv4-translated (::ffff:0:0:0/96).
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:0:10.0.0.1",
    # IPv4-compatible (::/96): http://[::127.0.0.1]/ was delivered.
    "::127.0.0.1",
    "::169.254.169.254",
    # NAT64 (64:ff9b::/96): http://[64:ff9b::7f00:1]/ was delivered.
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
    # Local-use NAT64 (64:ff9b:1::/48), whatever it carries: not globally reachable.
    "64:ff9b:1::7f00:1",
    "64:ff9b:1::808:808",
    # 6to4 (2002::/16): http://[2002:7f00:1::]/ was delivered.
    "2002:7f00:1::",
    "2002:a00:1::1",
    "2002:a9fe:a9fe::",
    # Teredo (2001::/32): a private client, a private server, and even global ones.
    "2001:0:4136:e378:8000:63bf:f5ff:fffe",
    "2001:0:a00:1::f7f7:f7f7",
    "2001:0:808:808::fefe:fefe",
]

ALLOWED = [
    "8.8.8.8",
    "93.184.215.14",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82a::200e",
    "::ffff:8.8.8.8",
    "::ffff:0:8.8.8.8",
    "::8.8.8.8",
    "64:ff9b::808:808",
    "2002:0808:0808::",
    "2002:808:808::1",
]


@pytest.mark.parametrize("address", REFUSED)
@override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=False)
def test_an_address_that_is_or_carries_a_non_global_address_receives_no_webhook(
    address: str,
) -> None:
    assert not address_allowed(address)


@pytest.mark.parametrize("address", ALLOWED)
@override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=False)
def test_a_global_address_or_one_carrying_a_global_ipv4_address_receives_webhooks(
    address: str,
) -> None:
    assert address_allowed(address)


@pytest.mark.parametrize("address", REFUSED)
@override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=True)
def test_with_the_setting_on_every_address_receives_webhooks(address: str) -> None:
    assert address_allowed(address)


def resolving_to(*addresses: str) -> Any:
    """`socket.getaddrinfo` as a resolver answering these addresses for any name."""

    def getaddrinfo(_host: str, port: int, *args: Any, **kwargs: Any) -> list[Any]:
        return [
            (
                socket.AF_INET6 if ":" in address else socket.AF_INET,
                socket.SOCK_STREAM,
                6,
                "",
                (address, port, 0, 0) if ":" in address else (address, port),
            )
            for address in addresses
        ]

    return getaddrinfo


@pytest.mark.parametrize("carrier", ["64:ff9b::7f00:1", "2002:7f00:1::", "::127.0.0.1"])
@override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=False)
def test_a_delivery_is_refused_when_any_resolved_address_carries_a_loopback_address(
    carrier: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", resolving_to("8.8.8.8", carrier))

    with pytest.raises(DeliveryRefused) as refused:
        allowed_addresses("hooks.example.org", 443)

    assert str(refused.value) == (f"hooks.example.org resolves to an address refused: {carrier}")


@override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=False)
def test_a_delivery_goes_to_resolved_addresses_that_carry_global_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", resolving_to("64:ff9b::808:808", "8.8.8.8"))

    assert allowed_addresses("hooks.example.org", 443) == ["64:ff9b::808:808", "8.8.8.8"]
