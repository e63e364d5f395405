#!/usr/bin/env bash
# Make sure the local PostgreSQL runs and the test database exists; print its URL.
set -euo pipefail
PGHOST=${PGHOST:-127.0.0.1}
PGPORT=${PGPORT:-5432}
# PostgreSQL folds an unquoted name to lower case: look for the name it will have.
DB=$(printf %s "${TEST_DB_NAME:-coffee_rush_test}" | tr "[:upper:]" "[:lower:]")
if ! pg_isready -q -h "$PGHOST" -p "$PGPORT" 2>/dev/null; then
    if command -v pg_ctlcluster >/dev/null; then
        echo "ensure-postgres: starting PostgreSQL" >&2
        pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start >&2 || true
    fi
    for _ in $(seq 1 30); do pg_isready -q -h "$PGHOST" -p "$PGPORT" && break; sleep 1; done
fi
pg_isready -q -h "$PGHOST" -p "$PGPORT" || { echo "ensure-postgres: PostgreSQL unreachable" >&2; exit 1; }
psql -h "$PGHOST" -p "$PGPORT" -U postgres -tAc "select 1 from pg_database where datname='$DB'" | grep -q 1 \
    || psql -h "$PGHOST" -p "$PGPORT" -U postgres -qc "create database $DB" >&2
echo "postgresql+asyncpg://postgres@$PGHOST:$PGPORT/$DB"
