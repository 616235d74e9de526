"""The hash chain of each stream (migration 0004), recomputed from the stored events.

`link_hash` computes the bytes `eventstore_link_hash` hashes in PostgreSQL, from the payload and
metadata as PostgreSQL prints them (`jsonb::text`, canonical). `walk_chains` recomputes every
chain in batches; the head digest folds each stream's last recomputed hash, so a changed event
changes the digest even when its stored hash was rewritten too. See
docs/decisions/0035-hash-chained-log.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final
from uuid import UUID

from django.db import connection

from games.eventstore.models import EVENT_TABLE

BATCH_SIZE: Final = 2000

_BATCH = f"""
SELECT stream_id, stream_version, global_position, event_type, schema_version, payload::text,
       metadata::text, chain_hash
FROM {EVENT_TABLE}
WHERE (stream_id, stream_version) > (%(stream_id)s::uuid, %(stream_version)s)
  AND global_position <= %(position)s
ORDER BY stream_id, stream_version
LIMIT %(limit)s
"""


def link_hash(
    previous: bytes | None,
    *,
    stream_id: UUID,
    stream_version: int,
    event_type: str,
    schema_version: int,
    payload_text: str,
    metadata_text: str,
) -> bytes:
    """The chain hash of an event after `previous` (None for a stream's first event)."""
    return hashlib.sha256(
        (previous or b"")
        + stream_id.bytes
        + struct.pack(">i", stream_version)
        + event_type.encode()
        + b"\x00"
        + struct.pack(">i", schema_version)
        + payload_text.encode()
        + b"\x00"
        + metadata_text.encode()
    ).digest()


@dataclass(frozen=True, slots=True)
class ChainLink:
    """One event of the walk: its hash as stored and as recomputed from the chain."""

    stream_id: UUID
    stream_version: int
    global_position: int
    stored: bytes
    recomputed: bytes


def head_position() -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT coalesce(max(global_position), 0) FROM {EVENT_TABLE}")
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def event_count(position: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*) FROM {EVENT_TABLE} WHERE global_position <= %s", [position]
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def walk_chains(*, position: int, batch_size: int = BATCH_SIZE) -> Iterator[ChainLink]:
    """Every event up to `position`, stream by stream in stream-id and version order."""
    after: tuple[UUID, int] = (UUID(int=0), 0)
    previous: bytes | None = None
    while True:
        with connection.cursor() as cursor:
            cursor.execute(
                _BATCH,
                {
                    "stream_id": after[0],
                    "stream_version": after[1],
                    "position": position,
                    "limit": batch_size,
                },
            )
            rows = cursor.fetchall()
        for stream_id, version, global_position, event_type, schema, payload, meta, stored in rows:
            if stream_id != after[0]:
                previous = None
            previous = link_hash(
                previous,
                stream_id=stream_id,
                stream_version=version,
                event_type=event_type,
                schema_version=schema,
                payload_text=payload,
                metadata_text=meta,
            )
            after = (stream_id, version)
            yield ChainLink(stream_id, version, global_position, bytes(stored), previous)
        if len(rows) < batch_size:
            return


def broken_links(*, position: int, on_event: Callable[[], None] | None = None) -> list[ChainLink]:
    """The first event of each stream whose stored hash is not the recomputed one."""
    broken: dict[UUID, ChainLink] = {}
    for link in walk_chains(position=position):
        if link.stored != link.recomputed and link.stream_id not in broken:
            broken[link.stream_id] = link
        if on_event is not None:
            on_event()
    return list(broken.values())


def head_digest(*, position: int, on_event: Callable[[], None] | None = None) -> str:
    """sha256 over the position and each stream's last recomputed hash, in stream-id order."""
    digest = hashlib.sha256(b"briscola-log-head\x00" + struct.pack(">q", position))
    last: ChainLink | None = None
    for link in walk_chains(position=position):
        if last is not None and link.stream_id != last.stream_id:
            digest.update(last.stream_id.bytes + last.recomputed)
        last = link
        if on_event is not None:
            on_event()
    if last is not None:
        digest.update(last.stream_id.bytes + last.recomputed)
    return digest.hexdigest()


def _signed_text(position: int, digest: str) -> bytes:
    return json.dumps({"digest": digest, "position": position}, sort_keys=True).encode()


def sign_digest(*, position: int, digest: str, key: str) -> dict[str, Any]:
    """The digest record a club keeps: position, digest, HMAC-SHA256 signature (hex)."""
    signature = hmac.new(key.encode(), _signed_text(position, digest), hashlib.sha256)
    return {"position": position, "digest": digest, "signature": signature.hexdigest()}


def signature_matches(record: dict[str, Any], *, key: str) -> bool:
    expected = sign_digest(position=record["position"], digest=record["digest"], key=key)
    return hmac.compare_digest(expected["signature"], str(record.get("signature", "")))
