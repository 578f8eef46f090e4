"""The development server (`manage.py runserver`, `make demo`): Django's, sending each answer at once.

Listed first in INSTALLED_APPS so that its `runserver` command is the one manage.py runs.
"""
