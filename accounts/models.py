from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """The project's user from the first migration, so roles and clubs can grow on it."""

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
