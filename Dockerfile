# Coffee Rush Online: one uvicorn worker, since rooms live in the process's memory.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATABASE_URL=sqlite+aiosqlite:////data/coffee-rush.db \
    JOURNAL_FALLBACK_PATH=/data/journal-fallback.jsonl

RUN useradd --create-home --uid 10001 app && mkdir /data && chown app /data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY server ./server
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
COPY alembic.ini ./
COPY deploy ./deploy
RUN pip install --no-cache-dir .

USER app
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
    CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/healthz', timeout=2)"
# The same command `make run` and the end-to-end tests use.
CMD ["python", "-m", "server"]
