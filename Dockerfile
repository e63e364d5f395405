# Coffee Rush Online: one uvicorn worker, since rooms live in the process's memory.
# Two stages: the first builds the package and installs it with its run-time dependencies
# into /venv; the image keeps /venv alone (no sources, no build tools, no pip cache).
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY server ./server
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
COPY deploy ./deploy
RUN python -m venv /venv && /venv/bin/pip install . && /venv/bin/pip uninstall --yes pip

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/venv/bin:$PATH \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATABASE_URL=sqlite+aiosqlite:////data/coffee-rush.db \
    JOURNAL_FALLBACK_PATH=/data/journal-fallback.jsonl
RUN useradd --create-home --uid 10001 app && mkdir /data && chown app /data
COPY --from=build /venv /venv
USER 10001
WORKDIR /home/app
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/healthz', timeout=2)"]
# The same command `make run` and the end-to-end tests use.
CMD ["python", "-m", "server"]
