"""Names of the sides of existing matches move out of the events' read path (decision record 0018).

MatchCreated events at schema version 1 named their sides; they stay as they are (events are
immutable) and are upcast to version 2, which carries no names. This migration
- copies the names of the free-standing matches into `MatchSide`, where reads now find them;
- leaves out the matches another stream refers to by `match_id` (a tournament's matches): the app
  that owns them names their sides from its own tables, so a copy here could not be erased;
- rewrites the `Match.sides` projection as the upcast events say (`{}` per side), as a rebuild
  would, so `verify_projections` stays clean.
It only reads the event table.
"""

import json

from django.db import migrations

OWNED_MATCHES = """
    SELECT DISTINCT payload->>'match_id' FROM eventstore_event
    WHERE stream_type <> 'match' AND payload ? 'match_id'
"""
NAMED_SIDES = """
    SELECT stream_id, payload->'sides' FROM eventstore_event
    WHERE stream_type = 'match' AND event_type = 'MatchCreated' AND schema_version = 1
"""


def copy_side_names(apps, schema_editor):
    MatchSide = apps.get_model("games", "MatchSide")
    Match = apps.get_model("games", "Match")
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(OWNED_MATCHES)
        owned = {row[0] for row in cursor.fetchall()}
        cursor.execute(NAMED_SIDES)
        created = cursor.fetchall()
    rows = []
    for stream_id, sides in created:
        if isinstance(sides, str):  # jsonb comes back decoded, unless a loader says otherwise
            sides = json.loads(sides)
        if str(stream_id) in owned:
            continue
        rows.extend(
            MatchSide(match_id=stream_id, side=number, name=str(side.get("name", ""))[:200])
            for number, side in enumerate(sides)
        )
    MatchSide.objects.bulk_create(rows, ignore_conflicts=True, batch_size=1000)
    for match in Match.objects.filter(sides__0__has_key="name").only("id", "sides"):
        match.sides = [{} for _side in match.sides]
        match.save(update_fields=["sides"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_match_side"),
        ("eventstore", "0003_append_function"),
    ]

    operations = [migrations.RunPython(copy_side_names, migrations.RunPython.noop)]
