"""Project reads for pages: 404 outside the user's projects, and whether to show edit controls."""
from __future__ import annotations

from django.http import Http404

from pm_assistant.errors import NotFound

from .models import Project
from .selectors import AnyUser, membership_role, project_get_for_user, role_can_write


def project_or_404(*, user: AnyUser, project_id: int) -> Project:
    """Return the project, or raise Http404 when the user is not a member."""
    try:
        return project_get_for_user(user=user, project_id=project_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def can_write(*, user: AnyUser, project: Project) -> bool:
    """Tell templates whether to show edit controls (viewers see none)."""
    return role_can_write(membership_role(user=user, project=project))
