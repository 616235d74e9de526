"""The event store's public API: import from here, not from the modules behind it."""

from games.eventstore.appending import append_to_stream, find_append_by_idempotency_key
from games.eventstore.errors import (
    EventStoreError,
    EventStoreMisuse,
    IdempotencyKeyReused,
    StreamTypeMismatch,
    WrongExpectedVersion,
)
from games.eventstore.reading import (
    iter_all,
    last_position,
    last_position_of_streams,
    read_all,
    read_stream,
    stream_version,
)
from games.eventstore.records import (
    ANY_VERSION,
    APPENDED_FIRST_AT,
    APPENDED_LAST_AT,
    APPENDED_LAST_POSITION,
    WRITTEN_IF_APPENDED,
    AppendResult,
    EventMetadata,
    ExpectedVersion,
    NewEvent,
    RecordedEvent,
    WrittenWithAppend,
)
from games.eventstore.transfer import (
    StoredEvent,
    StoredKey,
    StreamsExist,
    existing_streams,
    insert_stored,
    read_stored_events,
    read_stored_keys,
)
from games.eventstore.upcasters import Upcaster, register_upcaster, unregister_upcaster

__all__ = [
    "ANY_VERSION",
    "APPENDED_FIRST_AT",
    "APPENDED_LAST_AT",
    "APPENDED_LAST_POSITION",
    "WRITTEN_IF_APPENDED",
    "AppendResult",
    "EventMetadata",
    "EventStoreError",
    "EventStoreMisuse",
    "ExpectedVersion",
    "IdempotencyKeyReused",
    "NewEvent",
    "RecordedEvent",
    "StoredEvent",
    "StoredKey",
    "StreamTypeMismatch",
    "StreamsExist",
    "Upcaster",
    "WrittenWithAppend",
    "WrongExpectedVersion",
    "append_to_stream",
    "existing_streams",
    "find_append_by_idempotency_key",
    "insert_stored",
    "iter_all",
    "last_position",
    "last_position_of_streams",
    "read_all",
    "read_stored_events",
    "read_stored_keys",
    "read_stream",
    "register_upcaster",
    "stream_version",
    "unregister_upcaster",
]
