"""The Celery application; background jobs live in each app's ``jobs.py``."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pm_assistant.settings")

app = Celery("pm_assistant")
app.config_from_object("django.conf:settings", namespace="CELERY")
# "tasks" is the name of the Task model's app, so jobs are discovered in jobs.py.
app.autodiscover_tasks(related_name="jobs")
