"""What the event store counts for Prometheus: events appended, by stream type."""

from prometheus_client import Counter

EVENTS_APPENDED = Counter(
    "briscola_events_appended",
    "Events appended to the log, by stream type (counted when the append succeeds).",
    ["stream_type"],
)
