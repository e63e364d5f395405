"""coffee-rush backup/restore refuse what would lose or mix data: a database that already
holds games, a cut-off backup file, a file that is not a backup. (Whole servers backed up
and restored mid-game: tests/persist/test_backup_live.py.)"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from server.db.backup import BackupError, backup, restore
from server.db.migrate import upgrade


def with_an_account(path: Path) -> str:
    url = f"sqlite+aiosqlite:///{path}"
    upgrade(url)
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO accounts (id, name, name_key, created_at, disabled) "
                          "VALUES (7, 'Ana', 'ana', '2026-01-02 03:04:05.000000', 0)"))
    engine.dispose()
    return url


def test_a_restore_refuses_a_database_that_already_holds_data(tmp_path: Path) -> None:
    saved = tmp_path / "b.gz"
    assert backup(with_an_account(tmp_path / "a.db"), saved)["accounts"] == 1
    target = f"sqlite+aiosqlite:///{tmp_path}/c.db"
    assert restore(target, saved)["accounts"] == 1
    with pytest.raises(BackupError, match="already holds Coffee Rush data"):
        restore(target, saved)


def test_a_cut_off_backup_is_refused_and_restores_nothing(tmp_path: Path) -> None:
    saved = tmp_path / "b.jsonl"
    backup(with_an_account(tmp_path / "a.db"), saved)
    lines = saved.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:-1]))  # the end line lost
    target = f"sqlite+aiosqlite:///{tmp_path}/c.db"
    with pytest.raises(BackupError, match="ends before the backup does"):
        restore(target, cut)
    engine = create_engine(f"sqlite:///{tmp_path}/c.db")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM accounts")).scalar_one() == 0
    engine.dispose()


def test_a_file_that_is_not_a_backup_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "notes.gz"
    with gzip.open(other, "wb") as f:
        f.write(b'{"hello": 1}\n')
    with pytest.raises(BackupError, match="not a Coffee Rush backup"):
        restore(f"sqlite+aiosqlite:///{tmp_path}/c.db", other)
    assert not (tmp_path / "c.db").exists()
