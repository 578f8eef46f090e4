"""Projects and who belongs to them."""
from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models


class Project(models.Model):
    name = models.CharField(max_length=200)
    key = models.CharField(
        max_length=10,
        unique=True,
        validators=[
            RegexValidator(r"^[A-Z][A-Z0-9]{1,9}$", "Use 2-10 capital letters or digits, starting with a letter.")
        ],
        help_text="Short key shown before task numbers, e.g. WEB.",
    )
    description = models.TextField(blank=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_projects")
    archived = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.key} · {self.name}"


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        MEMBER = "member", "Member"
        VIEWER = "viewer", "Viewer"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "project"], name="membership_unique_user_project"),
            models.CheckConstraint(
                condition=models.Q(role__in=["owner", "member", "viewer"]), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.project.key} ({self.role})"

    @property
    def can_write(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.MEMBER)
