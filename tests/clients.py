"""The one way tests call the HTTP API: an APIClient signed in as a user (or anonymous for None)."""
from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.test import APIClient


def api_client(user: User | None) -> APIClient:
    """Return an API client authenticated as the user; None gives an anonymous one."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client
