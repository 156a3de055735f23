"""Settings for the whole site, read from the environment (one module for every place it runs).

Debug is off unless DJANGO_DEBUG=1 asks for it (`make run` and the test settings, tests/settings.py,
do); production must set DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and DATABASE_URL;
docs/operations.md lists every variable.
"""

import os
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from corsheaders.defaults import default_headers as cors_default_headers
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from tarot_scores.core.queues import LEGACY, QUEUES, capacity_from

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Off unless asked for: a deployment that forgets the variable never runs in debug with the
# development key (it refuses to start without DJANGO_SECRET_KEY instead).
DEBUG = env_bool("DJANGO_DEBUG", default=False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "django-insecure-dev-only-key-never-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "django_htmx",
    "csp",
    "template_partials",
    # The task queue's database backend (its table, its worker command: manage.py worker).
    "django_tasks",
    "django_tasks_db",
    "tarot_scores",
    "tournaments",
    # Last: where its French words differ from another app's ("Invalid token."), the other's
    # are kept.
    "allauth",
    "allauth.account",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages gzipped (static files come compressed from whitenoise): see core/compression.py.
    "tarot_scores.core.compression.CompressPages",
    # Before CommonMiddleware: answers the API's preflights (CORS_* below; off by default).
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before anything reads the request: a NUL character is answered 400, never a 500 later.
    "tarot_scores.core.nul.RefuseNulCharacters",
    "django.middleware.common.CommonMiddleware",
    # Under /api/: times in UTC, and DEBUG's HTML 404 answered as the API's problem.
    "tarot_scores.api.middleware.ApiAnswers",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, so that it answers a locked-out sign-in whichever view received it.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tarot_scores.urls"
WSGI_APPLICATION = "tarot_scores.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite by default so `make run` needs nothing else; PostgreSQL (psycopg 3) through DATABASE_URL.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Each worker keeps its connection for a minute: PostgreSQL sees workers x servers of them.
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DATABASE_CONN_MAX_AGE", "60"))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Behind PgBouncer in transaction mode a connection may change server between
    # transactions: no server-side cursor (.iterator() keeps one open across fetches).
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env_bool(
        "DATABASE_TRANSACTION_POOLING", default=False
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction begins and wait for each other (up to 20 s)
    # rather than failing with "database is locked": two phones saving the same deal get one
    # deal and a clear conflict, as on PostgreSQL. Tests use a file, so that threads share it,
    # one per test process, so that two test runs never share it.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    test_db = Path(tempfile.gettempdir()) / f"tarot-scores-test-{os.getpid()}.sqlite3"
    DATABASES["default"]["TEST"] = {"NAME": str(test_db)}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def cache_from_url(url: str, key_prefix: str = "") -> dict[str, Any]:
    """Local memory per process by default; with a Redis URL, one cache that every worker of
    every server shares (the cached pages, the sessions' cache, the throttle counts)."""
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if url.startswith(("redis://", "rediss://", "unix://")):
        # Down or unreachable, Redis is a cache miss, never an error (core/cache.py); a call
        # waits at most this long for it.
        wait = float(os.environ.get("REDIS_TIMEOUT_SECONDS", "0.5"))
        return {
            "BACKEND": "tarot_scores.core.cache.ForgivingRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": key_prefix,
            "OPTIONS": {"socket_connect_timeout": wait, "socket_timeout": wait},
        }
    raise ImproperlyConfigured(f"Unsupported REDIS_URL scheme: {url.split(':', 1)[0]}")


CACHES = {
    "default": cache_from_url(
        os.environ.get("REDIS_URL") or os.environ.get("CACHE_URL", ""),
        key_prefix=os.environ.get("CACHE_KEY_PREFIX", ""),
    )
}

# A tournament's results pages (standings, projector, standings API) are drawn at most about once
# in this many seconds for their readers while deals keep landing: the standings may lag a deal
# by up to this long (plus one drawing). Organisers always read the current results; 0 draws
# every new results version (docs/performance.md, "Coalescing").
RESULTS_LAG_SECONDS = float(os.environ.get("RESULTS_LAG_SECONDS", "2"))

# Every phone of a tournament table asks every this many seconds whether the table changed
# (tournaments.views.table_sync: an ETag'd poll answered 304 while nothing did).
TABLE_POLL_SECONDS = float(os.environ.get("TABLE_POLL_SECONDS", "5"))

# Background jobs (docs/operations.md, "The worker"): Django's Tasks API (the django-tasks
# backport). TASKS_BACKEND=database (the default: the jobs wait in a table of the site's own
# database, `manage.py worker` runs them), rq (Redis, through RQ, for several servers:
# TASKS_REDIS_URL or REDIS_URL; `manage.py worker` runs an RQ worker) or immediate (each job runs
# in the request that asks for it: tests, a quick look).
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "database").strip().lower()
TASKS_REDIS_URL = os.environ.get("TASKS_REDIS_URL") or os.environ.get("REDIS_URL", "")
# A running job whose worker has not been heard of for this long is given to another worker
# (a worker killed mid-job, its machine lost): every job is written to run again safely.
TASKS_WORKER_LOST_SECONDS = int(os.environ.get("TASKS_WORKER_LOST_SECONDS", "60"))
# How much `manage.py worker` lowers its own CPU priority (nice, 0 to 19): on a machine it shares
# with the site, a long replay must not take the cores deal entry needs (bench/replay.py
# --during-replay on 2 cores: entry's time doubled beside a replay at nice 0; docs/performance.md).
TASKS_WORKER_NICE = int(os.environ.get("TASKS_WORKER_NICE", "10"))

# The ports a webhook may be sent to, 443 always (tarot_scores/webhooks/addresses.py).
WEBHOOKS_PORTS = [int(port) for port in env_list("WEBHOOKS_PORTS", "443,8443")]

# Webhooks go to public https addresses only (tarot_scores/webhooks/addresses.py). Hosts listed
# here may take plain http on a loopback address, any port: the tests' local receiver, or a
# self-hosted site's test receiver with WEBHOOKS_ALLOW_LOOPBACK=1 (off unless set: a deployment
# cannot open it by mistake; never on a site others use).
WEBHOOKS_TEST_HOSTS: list[str] = (
    ["127.0.0.1", "::1", "localhost"] if env_bool("WEBHOOKS_ALLOW_LOOPBACK", False) else []
)
# The whole of one webhook send, from the DNS lookup to the last byte of the answer: then it has
# failed and is tried again later (tarot_scores/webhooks/sending.py). 10 s, never more; a test
# lowers it so that a receiver dripping its answer is cut off sooner.
WEBHOOKS_DEADLINE_SECONDS = min(float(os.environ.get("WEBHOOKS_DEADLINE_SECONDS", "10")), 10.0)


def tasks_from(kind: str, redis_url: str) -> dict[str, Any]:
    """The TASKS setting of a backend: every backend knows the queues by kind (core.queues),
    so a job asked for on a queue it does not know is refused at once."""
    queues = list(QUEUES)
    if kind == "database":
        return {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": queues}}
    if kind == "immediate":
        backend = "django_tasks.backends.immediate.ImmediateBackend"
        return {"default": {"BACKEND": backend, "QUEUES": queues}}
    if kind == "rq":
        if not redis_url:
            raise ImproperlyConfigured("TASKS_BACKEND=rq needs TASKS_REDIS_URL or REDIS_URL.")
        return {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": queues}}
    raise ImproperlyConfigured(f"Unknown TASKS_BACKEND: {kind} (database, rq or immediate).")


TASKS = tasks_from(TASKS_BACKEND, TASKS_REDIS_URL)
if TASKS_BACKEND == "rq":
    # RQ's queues (its admin pages read Redis: only where Redis holds the queue).
    INSTALLED_APPS.append("django_rq")
RQ_QUEUES = {
    name: {"URL": TASKS_REDIS_URL or "redis://127.0.0.1:6379/0"} for name in (*QUEUES, LEGACY)
}
# How many jobs of each queue one `manage.py worker` runs at once (core.queues): a slow webhook
# receiver holds only the webhooks' slots.
try:
    TASKS_WORKERS = capacity_from(os.environ.get("TASKS_WORKERS", ""))
except ValueError as fault:
    raise ImproperlyConfigured(f"TASKS_WORKERS: {fault}") from None
# Readiness (/readyz) says a queue is behind when its oldest job due has waited this long, and
# names a job running for longer than its queue's limit (seconds).
TASKS_WAITING_LIMIT_SECONDS = int(os.environ.get("TASKS_WAITING_LIMIT_SECONDS", "300"))
TASKS_RUNNING_LIMIT_SECONDS = int(os.environ.get("TASKS_RUNNING_LIMIT_SECONDS", "900"))
# How long the worker waits before trying the database or Redis again after losing it, doubled
# at each failure up to the maximum (seconds): it never ends for a lost connection.
TASKS_RECONNECT_SECONDS = float(os.environ.get("TASKS_RECONNECT_SECONDS", "1"))
TASKS_RECONNECT_MAX_SECONDS = float(os.environ.get("TASKS_RECONNECT_MAX_SECONDS", "30"))

# Password guessing (login page, admin, API token): django-axes counts failed sign-ins per account
# and per client address (see tarot_scores/core/signin.py); its backend comes first so that a
# locked-out client is refused even with the right password.
AUTHENTICATION_BACKENDS = [
    "tarot_scores.core.signin.SignInGuard",
    # django-allauth's: the login page takes a user name or an e-mail address.
    "allauth.account.auth_backends.AuthenticationBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "tarot_scores.core.signin.SignInAttempts"
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
# Minutes before the failures are forgotten; 0 keeps an account locked until an administrator
# runs `manage.py axes_reset_username NAME` (or axes_reset_ip).
_login_cooloff = int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15"))
AXES_COOLOFF_TIME = timedelta(minutes=_login_cooloff) if _login_cooloff > 0 else None
# "username,ip_address": an account is locked after that many failures from anywhere, and a
# client after that many failures on any accounts; "username+ip_address" counts each account
# from each client apart (gentler for a club room behind one address, weaker against spraying).
AXES_LOCKOUT_PARAMETERS: list[str | list[str]] = [
    part.split("+") if "+" in part else part
    for part in env_list("LOGIN_LOCKOUT_BY", "username,ip_address")
]
AXES_RESET_ON_SUCCESS = True
# Failures are what the limits need; a row per successful sign-in (address, browser) would grow
# for ever and keep more about people than the site uses.
AXES_DISABLE_ACCESS_LOG = True
AXES_CLIENT_IP_CALLABLE = "tarot_scores.core.signin.client_address"
AXES_LOCKOUT_CALLABLE = "tarot_scores.core.signin.locked_out_response"
AXES_HTTP_RESPONSE_CODE = 429
# Password reset requests: per address typed and per client (DRF's rate syntax).
PASSWORD_RESET_RATES = {
    "account": os.environ.get("PASSWORD_RESET_RATE_ACCOUNT", "3/hour"),
    "client": os.environ.get("PASSWORD_RESET_RATE_CLIENT", "20/hour"),
}

# Accounts a person makes alone (django-allauth, see tarot_scores/core/accounts.py): sign-up with
# a user name, an e-mail address and a password; the address is confirmed by a link sent to it
# before the account may start a club. Signing in, password reset and change stay Django's own
# pages (django-axes and the reset throttle above guard them); allauth adds sign-up, the e-mail
# confirmation and the e-mail change, and its backend lets the login page take the address.
ACCOUNT_ADAPTER = "tarot_scores.core.accounts.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = ""
# Sign-ups per client address (allauth's rate syntax); more answer 429 and store nothing.
ACCOUNT_RATE_LIMITS = {
    "signup": os.environ.get("SIGNUP_RATE", "10/h/ip"),
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Sessions are read from the cache and written through to the database: a signed-in page
# skips the session query, and a worker whose cache lacks a session falls back to the database.
# Redis down is a cache miss (core/cache.py), so sessions are read from the database then.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "clubs:list"
LOGOUT_REDIRECT_URL = "home"

# Mail (invitations, password resets, address checks) leaves through the task queue: the
# site's backend only enqueues a job per message, after its transaction commits; the job sends
# it with DJANGO_EMAIL_BACKEND, the one that talks to the mail server (printed to stderr unless
# a real one is configured, e.g. django.core.mail.backends.smtp.EmailBackend with EMAIL_HOST and
# friends), retried while the server is down. DJANGO_EMAIL_QUEUED=0 sends in the request.
EMAIL_SENDING_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
EMAIL_BACKEND = (
    "tarot_scores.core.mail.QueuedEmailBackend"
    if env_bool("DJANGO_EMAIL_QUEUED", default=True)
    else EMAIL_SENDING_BACKEND
)
# Seconds the mail job waits for the mail server before it gives up this attempt.
EMAIL_TIMEOUT = int(os.environ.get("DJANGO_EMAIL_TIMEOUT", "10"))
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", default=False)
# The site's name in its mails ("Bonjour, c'est Tarot Scores !") and pages: not the host name.
SITE_NAME = os.environ.get("SITE_NAME", "Tarot Scores")
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "Tarot Scores <noreply@localhost>")

# Below this many rated deals a player is listed apart on the rating rankings, "not yet ranked":
# his rating still says more about how little the site knows of him than about his play.
RATING_MIN_DEALS = int(os.environ.get("RATING_MIN_DEALS", "20"))

# An invitation (to join a club, to play as a player) not answered within this many days
# expires: its link says so, and the organisers send a new one.
INVITATION_DAYS = int(os.environ.get("INVITATION_DAYS", "14"))

# A tournament's personal PINs (four digits) are guessable by trying: after this many wrong PINs
# for one entry within PIN_ATTEMPTS_MINUTES, that entry's PIN is refused for PIN_LOCK_MINUTES,
# on every phone (counted in the database: the cache is no safe counter).
PIN_ATTEMPTS = int(os.environ.get("PIN_ATTEMPTS", "5"))
PIN_ATTEMPTS_MINUTES = int(os.environ.get("PIN_ATTEMPTS_MINUTES", "15"))
PIN_LOCK_MINUTES = int(os.environ.get("PIN_LOCK_MINUTES", "15"))

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
# The top level of the repository is fixed, so the project catalogue lives in the package.
LOCALE_PATHS = [BASE_DIR / "tarot_scores" / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "Europe/Paris"

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# Hashed, compressed files only in production: DEBUG (and so the test suite) needs no
# collectstatic.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Read from settings at import time, not from the runtime DEBUG (which the test runner turns off):
# local runs and the suite serve app and project static files straight from their folders.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

if not DEBUG:
    # TLS is expected to end at a reverse proxy that sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    # Whether or not this site redirects to https itself (a proxy may do it): the cookies that
    # sign people in never travel over plain http.
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0"))

# Content-Security-Policy (django-csp): every script and style comes from the site's own files;
# no inline script, no eval, no plugin, no framing. Charts are inline SVG drawn with
# presentation attributes (stats/charts.py), so styles need no 'unsafe-inline' either.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "tarot_scores.api.schema.TarotAutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "tarot_scores.api.tokens.HashedTokenAuthentication",
    ],
    # Every list the same way: count, next, previous, results; ?page_size= 1 to 200.
    "DEFAULT_PAGINATION_CLASS": "tarot_scores.api.paging.Pages",
    "PAGE_SIZE": 50,
    # How many proxies in front of the site set X-Forwarded-For: 0 trusts no such header, so a
    # client cannot dodge the calculator's throttle by sending a made-up one.
    "NUM_PROXIES": int(os.environ.get("DJANGO_NUM_PROXIES", "0")),
    "DEFAULT_THROTTLE_RATES": {
        "calculator": os.environ.get("CALCULATOR_THROTTLE_RATE", "120/min"),
    },
}

# A browser app on another origin may call the API: only the origins listed (scheme, host and
# port: "https://scores.example.org"), and only under /api/. None by default; the public
# calculator and standings are readable from any origin whatever (tarot_scores.api.cors). Cookies
# are never sent across origins (tokens only), so a listed origin cannot act as a signed-in
# reader of the site.
CORS_ALLOWED_ORIGINS = env_list("API_CORS_ORIGINS", "")
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After", "WWW-Authenticate"]
# A page keeps the ETag it read and sends it back: 304 works across origins too.
CORS_ALLOW_HEADERS = [*cors_default_headers, "if-none-match"]

SPECTACULAR_SETTINGS = {
    "TITLE": "Tarot Scores API",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Request and response components apart (read-only fields are not asked for in a request),
    # and the shared answers (errors, 401, 503, ETag) finished by tarot_scores.api.schema.
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tarot_scores.api.schema.finish_schema",
    ],
    # Swagger UI and Redoc come from drf-spectacular-sidecar's static files, never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Ids and round numbers in API paths (tarot_scores.api.errors.IdConverter): up to 18
    # digits; anything else answers a JSON 404.
    # How a table of five plays: sent (a choice of two), and read back (or `either`).
    "ENUM_NAME_OVERRIDES": {
        "FivePlayersEnum": ["called_king", "sitting_out"],
        "FivePlayersReadEnum": ["called_king", "sitting_out", "either"],
        # A game's status keeps the name it had before deliveries had a status too.
        "StatusEnum": "tarot_scores.games.models.Game.Status",
        "DeliveryStatusEnum": "tarot_scores.webhooks.models.Delivery.Status",
    },
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 1, "maximum": 999_999_999_999_999_999}
    },
}

# Everything to stderr, debug or not (Django's default hides errors when DEBUG is off): the
# "django" logger loses its own handlers and propagates to root, so no line is printed twice.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}
