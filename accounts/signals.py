"""Whatever can withdraw an API token or a role bumps the credentials generation
(`accounts.credentials`), so that no process keeps using what it checked before; each request
reads the generation afresh."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.signals import request_started
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from rest_framework.authtoken.models import Token

from accounts import credentials
from accounts.models import DeviceToken, RoleGrant


def withdraw_on_commit(**_kwargs: Any) -> None:
    """Now (a request in this transaction must not use an entry either) and after the commit
    (a request that looked the row up before the commit may have stored it again)."""
    credentials.withdraw_all()
    transaction.on_commit(credentials.withdraw_all)


def connect() -> None:
    request_started.connect(credentials.forget_request, dispatch_uid="credentials-request")
    for model in (get_user_model(), Token, DeviceToken, RoleGrant):
        post_save.connect(withdraw_on_commit, sender=model, dispatch_uid=f"credentials-{model}")
        post_delete.connect(withdraw_on_commit, sender=model, dispatch_uid=f"credentials-d{model}")
