from games.eventstore.checks import binding_errors

POSTGRESQL = "django.db.backends.postgresql"


def test_the_default_client_side_binding_passes_the_check() -> None:
    assert binding_errors(engine=POSTGRESQL, options={}) == []
    assert binding_errors(engine=POSTGRESQL, options={"server_side_binding": False}) == []


def test_server_side_binding_is_reported_because_the_append_sends_several_statements() -> None:
    errors = binding_errors(engine=POSTGRESQL, options={"server_side_binding": True})

    assert [error.id for error in errors] == ["eventstore.E001"]
