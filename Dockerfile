# Coffee Rush Online: one uvicorn worker, since rooms live in the process's memory.
# Two stages: the first builds the package and installs it with its run-time dependencies
# into /venv; the image keeps /venv alone (no sources, no build tools, no pip cache).
# BASE: any image whose `python` is Python 3.11+; where no registry can be reached,
# scripts/ensure-base-image.sh makes one from Debian's packages (--build-arg BASE=...).
ARG BASE=python:3.11-slim
FROM ${BASE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
# The run-time dependencies first, in a layer of their own that a code change does not redo.
COPY pyproject.toml ./
RUN python -m venv /venv \
    && python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" > /tmp/requirements.txt \
    && /venv/bin/pip install -r /tmp/requirements.txt
COPY setup.py README.md LICENSE ./
COPY server ./server
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
COPY deploy ./deploy
RUN /venv/bin/pip install --no-deps . && /venv/bin/pip uninstall --yes pip

FROM ${BASE}
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
