from pathlib import Path

import pytest

from scripts import services


def test_maintenance_conninfo_points_at_the_servers_postgres_database() -> None:
    conninfo, database = services.maintenance_conninfo(
        "postgres://postgres@127.0.0.1:5432/briscola"
    )

    assert conninfo == "postgresql://postgres@127.0.0.1:5432/postgres"
    assert database == "briscola"


def test_dotenv_values_are_read_without_quotes_or_comments(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# a comment\nREDIS_URL='redis://example:1/0'\n\nDEBUG=on\n")

    assert services.read_dotenv(dotenv) == {"REDIS_URL": "redis://example:1/0", "DEBUG": "on"}


def test_bring_up_is_quiet_and_succeeds_when_everything_answers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert services.main() == 0

    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ""


def test_missing_services_without_root_name_the_packages_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(services, "is_root", lambda: False)

    with pytest.raises(services.BringUpError, match="apt-get install -y postgresql redis-server"):
        services.apt_install()
