"""Read a response store that another process is writing, for tests that wait on its progress: a
read-only connection never creates the file (a run that has not started yet must find none) and never
takes the write lock the run needs."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path


def stored_answers(path: Path) -> int:
    """How many answers (not errors) the store at path holds; 0 while it does not exist or has no table."""
    if not path.exists():
        return 0
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return int(db.execute("SELECT COUNT(*) FROM responses WHERE error IS NULL").fetchone()[0])
    except sqlite3.Error:  # created but not yet set up by the run
        return 0
