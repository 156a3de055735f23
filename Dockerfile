# Production image: gunicorn behind a TLS-terminating proxy, PostgreSQL through DATABASE_URL.
# The same image runs the jobs' worker and the migrations, each as its own command
# (docs/operations.md, "The image").
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_NO_CACHE=1 \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    DJANGO_DEBUG=0 \
    DATABASE_URL=sqlite:////var/lib/tarot-scores/db.sqlite3

# uv, pinned as in the Makefile, installs exactly what uv.lock says (each file's hash checked;
# --locked refuses a lock that no longer matches pyproject.toml), without the dev extra. The
# dependencies have their own layer, so a code change does not reinstall them.
RUN pip install uv==0.13.9
WORKDIR /app
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-install-project --no-dev

# The code runs from /app, as manage.py and gunicorn expect. It stays root's and read-only to
# the app user (a process that is taken over cannot rewrite the code it runs); its bytecode is
# written now, since the app user cannot write it.
COPY . .
RUN python -m compileall -q tarot_scores tournaments

# The key only lets settings load for collectstatic; it is not kept in the image.
RUN DJANGO_SECRET_KEY=build-only-not-a-secret python manage.py collectstatic --noinput

# The app user writes only its home (gunicorn's control socket) and /var/lib/tarot-scores (the
# SQLite fallback, when no DATABASE_URL is given).
RUN useradd --uid 10001 --create-home app \
    && install -d -o app -g app /var/lib/tarot-scores
USER app

EXPOSE 8000
# Liveness: /healthz answers without touching the database (docs/operations.md, "Health").
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]
# Migrations are a one-off command run before the new image serves (docs/operations.md,
# "The image"): docker run --rm ... tarot-scores python manage.py migrate --noinput
# The background jobs' worker: docker run ... tarot-scores python manage.py worker
CMD ["gunicorn", "tarot_scores.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
