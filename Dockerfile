# The production image: gunicorn serves the app; the same image runs the Celery worker and beat.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
RUN groupadd --system app && useradd --system --gid app --home-dir /app --shell /usr/sbin/nologin app

# Dependencies first, so a code change does not reinstall them.
COPY requirements.prod.lock ./
RUN pip install -r requirements.prod.lock

COPY . .
# Static files are collected (hashed and compressed) at build time; WhiteNoise serves them.
# The key only lets settings load for this step; the real one comes from the environment.
RUN DJANGO_PRODUCTION=1 DJANGO_SECRET_KEY=collectstatic-build-step-only \
        python manage.py collectstatic --noinput \
    && mkdir -p var/media var/artifacts \
    && chown -R app:app var

USER app
EXPOSE 8000
# Preloaded and warmed in the master, gthread workers: pm_assistant/gunicorn_conf.py says how many and why.
CMD ["gunicorn", "pm_assistant.wsgi:application", "--config", "python:pm_assistant.gunicorn_conf"]
