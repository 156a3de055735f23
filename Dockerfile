# Production image: gunicorn behind a TLS-terminating proxy, PostgreSQL through DATABASE_URL.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_DEBUG=0

WORKDIR /app

# Runtime dependencies straight from pyproject.toml (no dev extra), in their own layer so a code
# change does not reinstall them. The code itself runs from /app, as manage.py and gunicorn expect.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY . .

# The key only lets settings load for collectstatic; it is not kept in the image.
RUN DJANGO_SECRET_KEY=build-only-not-a-secret python manage.py collectstatic --noinput

# Code stays root-owned; the app user may only create files in /app (the SQLite fallback) and
# its home (gunicorn puts its control socket there).
RUN useradd --uid 10001 --create-home app && chown app /app
USER app

EXPOSE 8000
# The background jobs' worker is the same image with another command (docs/operations.md, "The
# worker"): docker run ... tarot-scores python manage.py worker
CMD ["sh", "-c", "python manage.py migrate --noinput && exec gunicorn tarot_scores.wsgi:application --bind 0.0.0.0:8000 --workers 3 --access-logfile -"]
