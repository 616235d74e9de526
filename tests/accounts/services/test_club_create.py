import pytest

from accounts import services
from accounts.models import Club

pytestmark = pytest.mark.django_db


def test_a_club_takes_its_slug_from_its_name() -> None:
    club = services.club_create(name="  Circolo Briscola Trastevere ")

    assert (club.name, club.slug) == ("Circolo Briscola Trastevere", "circolo-briscola-trastevere")


def test_a_club_may_be_given_its_own_slug() -> None:
    club = services.club_create(name="Circolo Briscola Trastevere", slug="cbt")

    assert Club.objects.get(slug="cbt") == club


def test_two_clubs_cannot_share_a_slug() -> None:
    services.club_create(name="Trastevere", slug="roma")

    with pytest.raises(services.ClubExists, match="already a club 'roma'"):
        services.club_create(name="Testaccio", slug="roma")

    assert Club.objects.count() == 1


@pytest.mark.parametrize(
    ("name", "slug", "message"),
    [
        ("   ", None, "needs a name"),
        ("!!!", None, "needs letters or digits"),
        ("Trastevere", "no spaces", "not a slug"),
        ("Trastevere", "x" * 61, "at most 60 characters"),
        ("x" * 201, None, "at most 200 characters"),
    ],
)
def test_a_club_needs_a_name_and_a_valid_slug(name: str, slug: str | None, message: str) -> None:
    with pytest.raises(services.InvalidClub, match=message):
        services.club_create(name=name, slug=slug)

    assert not Club.objects.exists()


def test_a_long_name_gives_a_slug_cut_to_size() -> None:
    club = services.club_create(name="Circolo " * 20)

    assert len(club.slug) <= 60
    assert club.slug.startswith("circolo-circolo")
    assert not club.slug.endswith("-")
