"""Which IP addresses may receive webhooks: one rule for the address written in an endpoint's URL
(at registration) and for every address its host resolves to (at each delivery).

An address may receive webhooks when it is globally reachable unicast: not private, loopback,
link-local, site-local, shared (100.64.0.0/10), reserved, documentation or multicast. An IPv6
address that carries an IPv4 address is judged by the IPv4 address it carries, since that is
where the host's own stack, a translator or a tunnel takes the request: IPv4-mapped
(`::ffff:0:0/96`), IPv4-translated (`::ffff:0:0:0/96`), IPv4-compatible (`::/96`), NAT64
(`64:ff9b::/96`) and 6to4 (`2002::/16`). Python 3.11's `is_global` looks inside none of them
but the mapped one (`[::127.0.0.1]`, `[64:ff9b::7f00:1]` and `[2002:7f00:1::]` pass it).
Teredo (`2001::/32`) and local-use NAT64 (`64:ff9b:1::/48`, where each network chooses where the
IPv4 address sits) are refused whatever they carry: neither is globally reachable.

With the setting `WEBHOOKS_ALLOW_PRIVATE_ADDRESSES` on (dev and test), every address may. See
docs/decisions/0039-outgoing-webhooks.md.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address, IPv6Network, ip_address

from django.conf import settings

IPV4_CARRIED_IN_LAST_32_BITS = (
    IPv6Network("::ffff:0:0/96"),  # IPv4-mapped
    IPv6Network("::ffff:0:0:0/96"),  # IPv4-translated (SIIT)
    IPv6Network("::/96"),  # IPv4-compatible (deprecated; holds :: and ::1 too)
    IPv6Network("64:ff9b::/96"),  # NAT64, the well-known prefix
)
SIX_TO_FOUR = IPv6Network("2002::/16")
TEREDO = IPv6Network("2001::/32")
NEVER_REACHABLE = (
    TEREDO,
    IPv6Network("64:ff9b:1::/48"),  # local-use NAT64
)


def carried_ipv4(ip: IPv6Address) -> list[IPv4Address]:
    """The IPv4 addresses an IPv6 address carries by its prefix (none for most): the Teredo
    server and client, the 6to4 gateway, or the last 32 bits of the translated forms."""
    if ip in TEREDO and ip.teredo is not None:
        return list(ip.teredo)
    if ip in SIX_TO_FOUR and ip.sixtofour is not None:
        return [ip.sixtofour]
    if any(ip in network for network in IPV4_CARRIED_IN_LAST_32_BITS):
        return [IPv4Address(int(ip) & 0xFFFF_FFFF)]
    return []


def globally_reachable(ip: IPv4Address | IPv6Address) -> bool:
    """Whether a request to this address can only reach the public Internet (see the module's
    docstring)."""
    if isinstance(ip, IPv4Address):
        return ip.is_global and not ip.is_multicast
    carried = carried_ipv4(ip)
    if any(not globally_reachable(inner) for inner in carried):
        return False
    if any(ip in network for network in NEVER_REACHABLE):
        return False
    if carried:
        return True
    return ip.is_global and not ip.is_multicast and not ip.is_site_local


def address_allowed(address: str) -> bool:
    """Whether an IP address (text, an IPv6 zone allowed) may receive webhook deliveries."""
    if settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES:
        return True
    return globally_reachable(ip_address(address.split("%", 1)[0]))
