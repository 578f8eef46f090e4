"""Settings, read from the environment with django-environ.

Defaults give the embedded demo: SQLite, Celery eager, the offline LLM provider and
artifacts on the filesystem. ``DJANGO_PRODUCTION=1`` switches on the deploy hardening.
"""
from datetime import timedelta
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

PRODUCTION = env.bool("DJANGO_PRODUCTION", default=False)
DEBUG = env.bool("DJANGO_DEBUG", default=not PRODUCTION)
if PRODUCTION and DEBUG:
    # DEBUG's error pages list every URL, setting and local variable: never in production.
    raise environ.ImproperlyConfigured("DJANGO_DEBUG must be off when DJANGO_PRODUCTION=1")
SECRET_KEY = env.str(
    "DJANGO_SECRET_KEY",
    default="" if PRODUCTION else "dev-only-key-7c0f4e2b9a1d4f3e8b6a5c2d1e0f9a8b7c6d5e4f3a2b1c0d",
)
if PRODUCTION and not SECRET_KEY:
    raise environ.ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_PRODUCTION=1")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # Its runserver (make demo) is WhiteNoise's, answering without Nagle's delay: first, so manage.py runs it.
    "pm_assistant.devserver",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "projects",
    "tasks",
    "reports",
    "agent",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "pm_assistant.body_limit.BodySizeLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so it sees a view's uncaught error first: under /api/ it is JSON with a reference id.
    "pm_assistant.http_handlers.ApiErrorMiddleware",
]

ROOT_URLCONF = "pm_assistant.urls"
WSGI_APPLICATION = "pm_assistant.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "agent.web.context_processors.assistant",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# Persistent connections (a new PostgreSQL connection per request costs a few milliseconds), checked
# before reuse so a connection the server dropped is replaced instead of failing the request.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("DB_CONN_HEALTH_CHECKS", default=True)
# A process-wide pool of this many PostgreSQL connections, shared by the process's threads (0: none,
# each thread keeps its own connection as above). gunicorn sets it to its threads per worker and opens
# and warms the pool when a worker starts (pm_assistant/gunicorn_conf.py), so no request waits for a
# new connection. Pooled connections go back to the pool after each request, hence CONN_MAX_AGE 0.
DB_POOL_SIZE = env.int("DB_POOL_SIZE", default=0)
if DB_POOL_SIZE and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    from pm_assistant.warm_connection import WarmConnection

    # Each connection names every table as the pool opens it (pm_assistant/warm_connection.py).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": DB_POOL_SIZE, "max_size": DB_POOL_SIZE, "timeout": 10, "connection_class": WarmConnection}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The demo's threaded server and a worker write at once: write-ahead logging lets reads go on
    # during a write, IMMEDIATE takes the write lock at BEGIN (no deadlock on lock upgrade) and a
    # writer waits up to 20 s instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE", "timeout": 20})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: a Redis broker when REDIS_URL is set, otherwise jobs run eagerly in-process.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=REDIS_URL or "cache+memory://")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# A job is acknowledged only after it finishes, so a worker crash hands it to another worker.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 300
# Beat writes its schedule file after every job it sends: the file's age is its health (docker-compose.yml).
CELERY_BEAT_SYNC_EVERY = 1
CELERY_BEAT_SCHEDULE = {
    "artifacts-expire-and-archive": {
        "task": "agent.jobs.artifacts_expire",
        "schedule": timedelta(minutes=15),
    },
    "runs-sweep-stale": {
        "task": "agent.jobs.runs_sweep_stale",
        "schedule": timedelta(minutes=1),
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=VAR_DIR / "media")
MEDIA_URL = "media/"

# Artifacts go through Django's storage API: the filesystem by default, an S3-compatible
# store when ARTIFACT_S3_BUCKET is set.
ARTIFACT_S3_BUCKET = env.str("ARTIFACT_S3_BUCKET", default="")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "pm_assistant.static_files.ModuleAwareStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
    "artifacts": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": env.path("ARTIFACT_ROOT", default=VAR_DIR / "artifacts")},
    },
}
if ARTIFACT_S3_BUCKET:
    STORAGES["artifacts"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": ARTIFACT_S3_BUCKET,
            "endpoint_url": env.str("ARTIFACT_S3_ENDPOINT_URL", default=None),
            "location": "artifacts",
            "default_acl": None,
            # An opened object spills to a temporary file past 1 MB (the default 0 keeps it all in memory).
            "max_memory_size": 1024 * 1024,
        },
    }

# Untrusted input: bodies over the size limit get 413, JSON nested deeper than the depth limit 400.
REQUEST_BODY_MAX_BYTES = env.int("REQUEST_BODY_MAX_BYTES", default=1024 * 1024)
JSON_MAX_DEPTH = env.int("JSON_MAX_DEPTH", default=32)

REST_FRAMEWORK = {
    # Token first: an anonymous caller of any API view (the schema's too) gets 401 with WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON with size and nesting limits (413 and 400, never a 500); form parsers for the browsable forms.
    "DEFAULT_PARSER_CLASSES": [
        "pm_assistant.json_input.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "pm_assistant.errors.api_exception_handler",
    "DEFAULT_PAGINATION_CLASS": "pm_assistant.pagination.PagePagination",
    "PAGE_SIZE": 25,
    "UNAUTHENTICATED_USER": None,
}
# /api/schema/ and /api/docs/ for signed-in users only; the default follows production mode.
API_SCHEMA_REQUIRES_LOGIN = env.bool("API_SCHEMA_REQUIRES_LOGIN", default=PRODUCTION)
SPECTACULAR_SETTINGS = {
    "TITLE": "PM Assistant API",
    "DESCRIPTION": "Projects, tasks and the embedded assistant.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["pm_assistant.http_handlers.SchemaAccess"],
    "COMPONENT_SPLIT_REQUEST": True,
    # /api/docs/ serves Swagger UI from the installed package, not a CDN, so it works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several components have a "status"/"priority" field with different choices; name the task ones.
    "ENUM_NAME_OVERRIDES": {
        "TaskStatusEnum": "tasks.models.Task.Status",
        "TaskPriorityEnum": "tasks.models.Task.Priority",
        "MembershipRoleEnum": "projects.models.Membership.Role",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"httpx": {"level": "WARNING"}},
}

# --- The assistant -----------------------------------------------------------------
# LLM provider: "openai" (any OpenAI-compatible endpoint) or "offline" (no key needed).
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL", default="") or None
LLM_PROVIDER = env.str("LLM_PROVIDER", default="openai" if OPENAI_API_KEY else "offline")
LLM_ROUTER_MODEL = env.str("LLM_ROUTER_MODEL", default="gpt-4o-mini")
LLM_GENERATION_MODEL = env.str("LLM_GENERATION_MODEL", default="gpt-4o")
# Time budgets on the wall clock: one attempt's read timeout, one call's total (retries included),
# one run's total (every call in it). A hung or trickling model costs at most these.
LLM_TIMEOUT_SECONDS = env.float("LLM_TIMEOUT_SECONDS", default=10.0)
LLM_MAX_RETRIES = env.int("LLM_MAX_RETRIES", default=2)
LLM_CALL_DEADLINE_SECONDS = env.float("LLM_CALL_DEADLINE_SECONDS", default=10.0)
AGENT_RUN_DEADLINE_SECONDS = env.float("AGENT_RUN_DEADLINE_SECONDS", default=30.0)
# After this many provider failures within the cool-down, model calls are refused at once for the cool-down.
LLM_BREAKER_FAILURES = env.int("LLM_BREAKER_FAILURES", default=3)
LLM_BREAKER_COOLDOWN_SECONDS = env.int("LLM_BREAKER_COOLDOWN_SECONDS", default=60)
# A model answer longer than this (characters) is refused as a whole, never stored or shown cut.
LLM_OUTPUT_MAX_CHARS = env.int("LLM_OUTPUT_MAX_CHARS", default=20000)
ROUTER_MIN_CONFIDENCE = env.float("ROUTER_MIN_CONFIDENCE", default=0.6)
# Checkpoints of paused runs: LangGraph's Postgres saver on PostgreSQL, else its SQLite saver.
# A node that writes a frozen view after its first write: dropped and alerted (production), or an
# exception that fails the run (the test suite turns this on, so such a write fails a test).
AGENT_FROZEN_VIEWS_RAISE = env.bool("AGENT_FROZEN_VIEWS_RAISE", default=False)
AGENT_CHECKPOINT_SQLITE_PATH = env.path("AGENT_CHECKPOINT_SQLITE_PATH", default=VAR_DIR / "checkpoints.sqlite")
# On PostgreSQL, runs that may pause share a per-process pool of at most this many saver connections.
AGENT_CHECKPOINT_POOL_SIZE = env.int("AGENT_CHECKPOINT_POOL_SIZE", default=4)
# Forced externalization of tool results (seed 000): above either limit a result becomes an artifact.
ARTIFACT_INLINE_MAX_CHARS = env.int("ARTIFACT_INLINE_MAX_CHARS", default=8000)
ARTIFACT_INLINE_MAX_ITEMS = env.int("ARTIFACT_INLINE_MAX_ITEMS", default=10)
ARTIFACT_TTL = timedelta(hours=env.int("ARTIFACT_TTL_HOURS", default=24))
ARTIFACT_ARCHIVE_AFTER = timedelta(days=env.int("ARTIFACT_ARCHIVE_AFTER_DAYS", default=7))
BULK_CONFIRM_THRESHOLD = env.int("BULK_CONFIRM_THRESHOLD", default=5)
# How long the assistant's task updates can be undone, in seconds (README "Undo").
UNDO_WINDOW_SECONDS = env.int("UNDO_WINDOW_SECONDS", default=600)
# Reports over more tasks than this run as a background job with progress (agent/jobs.py).
REPORT_SYNC_MAX_TASKS = env.int("REPORT_SYNC_MAX_TASKS", default=2000)
# A background run silent for longer than this (no progress) is ended as an error by the sweeper.
RUN_STALE_AFTER_SECONDS = env.int("RUN_STALE_AFTER_SECONDS", default=CELERY_TASK_TIME_LIMIT + 60)
# Delay-risk scoring (reports/risk/score.py); docs/USAGE.md's "Delay risk" table lists every one.
RISK_WEIGHTS = {
    "overdue_per_day": 5, "overdue_max": 40, "due_soon_open_subtasks": 20, "inactive": 15, "blocked": 30,
    "parent_at_risk": 10, "assignee_load": 10, "due_slip": 5, "due_slips_max": 15,
    **env.json("RISK_WEIGHTS", default={}),
}
RISK_LEVELS = {"high": 50, "medium": 25, **env.json("RISK_LEVELS", default={})}
RISK_DUE_SOON_DAYS = env.int("RISK_DUE_SOON_DAYS", default=3)
RISK_INACTIVE_DAYS = env.int("RISK_INACTIVE_DAYS", default=7)
RISK_LOAD_RATIO = env.float("RISK_LOAD_RATIO", default=1.5)
RISK_TOP = env.int("RISK_TOP", default=10)
# Task breakdown: the longest plan a planner may propose, and how often a run may ask for a revised one.
PLAN_MAX_STEPS = env.int("PLAN_MAX_STEPS", default=8)
REPLAN_MAX = env.int("REPLAN_MAX", default=1)

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    # The health check is asked over plain HTTP from inside the container (docker-compose.yml).
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
