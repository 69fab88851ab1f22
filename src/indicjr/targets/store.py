"""SQLite response store: reruns are free, interrupted runs resume, workers never double-request.

Rows are keyed by Request.key(identity) (the target's store identity — provider, endpoint without
credentials, model, hf file fingerprint, --ijr-model-revision, extra body — + settings + sample + exact
messages). A row keeps the text, finish reason, latency, token usage, attempts, error, creation time
and, as JSON in `extra`, the provider block, the provider's own words and the reasoning — never keys
or headers. Stores written before `extra` existed gain the column when opened.

Coordination between processes (pytest-xdist workers, two runs at once) is a `claims` table: an
owner atomically claims keys that have no successful answer and no live claim of another owner
(BEGIN IMMEDIATE takes the write lock first, so two claimers serialise), renews its lease while it
works, and releases on exit; a SIGKILLed owner's claims expire, or are taken over at once when the
owner was a process of this host that is gone (owners are name:host:pid:nonce). Errors are stored so that the
other workers of the same run see the case as finished, but they never block a later run's claim:
only successful answers make reruns free.

The file is created 0600 (and its folder 0700 when we create it); WAL/SHM files inherit the mode.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from indicjr.errors import OutputError
from indicjr.targets.base import Response, writable_response
from indicjr.untrusted import utf8_safe

SCHEMA_VERSION = "1"
_CHUNK = 500  # keys per IN (...) query, well under SQLite's variable limit
_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY, model TEXT NOT NULL, case_id TEXT NOT NULL, sample INTEGER NOT NULL,
    text TEXT NOT NULL, finish_reason TEXT NOT NULL, input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL, latency_s REAL NOT NULL, attempts INTEGER NOT NULL,
    error TEXT, created REAL NOT NULL, extra TEXT) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires REAL NOT NULL)
    WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS claims_owner ON claims(owner);
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
"""
_UPSERT = """
INSERT INTO responses VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)
ON CONFLICT(key) DO UPDATE SET text=excluded.text, finish_reason=excluded.finish_reason,
    input_tokens=excluded.input_tokens, output_tokens=excluded.output_tokens, latency_s=excluded.latency_s,
    attempts=excluded.attempts, error=excluded.error, created=excluded.created, extra=excluded.extra
WHERE responses.error IS NOT NULL
"""
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class StoreRow:
    """One response to write, with the identity columns the key alone does not show."""

    key: str
    model: str
    case_id: str
    sample: int
    response: Response


class Store:
    """A response store on one SQLite file; thread-safe within a process, safe across processes."""

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        _create_private(self.path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise OutputError(f"{self.path}: cannot open the response store: {e}") from None
        self._run(self._init_schema, busy_timeout_s)

    def _init_schema(self, busy_timeout_s: float) -> None:
        self._db.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(responses)")}
        if "extra" not in columns:  # a store from before provider blocks and reasoning were kept
            self._db.execute("ALTER TABLE responses ADD COLUMN extra TEXT")
        self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def get(self, key: str) -> Response | None:
        """The successful answer for key, or None (stored errors are not answers)."""
        return self.get_many([key]).get(key)

    def get_many(self, keys: Iterable[str], *, errors_since: float | None = None) -> dict[str, Response]:
        """Successful answers among keys; with errors_since, also errors stored at or after that time."""
        out: dict[str, Response] = {}
        since = float("inf") if errors_since is None else errors_since
        ks = list(keys)
        for i in range(0, len(ks), _CHUNK):
            chunk = ks[i : i + _CHUNK]
            sql = (
                "SELECT key, text, finish_reason, input_tokens, output_tokens, latency_s, error, attempts, "
                "created, extra "
                f"FROM responses WHERE key IN ({_marks(chunk)}) AND (error IS NULL OR created >= ?)"
            )
            for row in self._run(lambda c=chunk, q=sql: self._db.execute(q, (*c, since)).fetchall()):
                out[row[0]] = Response(
                    text=row[1],
                    finish_reason=row[2],
                    input_tokens=row[3],
                    output_tokens=row[4],
                    latency_s=row[5],
                    error=row[6],
                    attempts=row[7],
                    cached=True,
                    recorded_at=row[8],
                    **_extra_fields(row[9]),
                )
        return out

    def put(self, key: str, response: Response, *, model: str, case_id: str, sample: int = 0) -> None:
        self.put_many([StoreRow(key, model, case_id, sample, response)])

    def put_many(self, rows: Sequence[StoreRow]) -> None:
        """Write answers in one transaction: a success replaces an error, never another success.

        Reply text is untrusted: lone surrogates are replaced (and the substitution recorded) before
        SQLite sees them. A row SQLite still refuses (too big, say) never keeps the others out: the batch
        is then written row by row, and StoreWriteError says how many of them could not be stored."""
        if not rows:
            return
        now = time.time()
        values = [_row_values(r, now) for r in rows]
        try:
            self._run(lambda: self._transaction(lambda: self._write(values)))
            return
        except OutputError as e:
            if len(values) == 1:
                raise StoreWriteError(str(e), unwritten=1, total=1) from None
        failed, reason = 0, ""
        for v in values:
            try:
                self._run(lambda one=[v]: self._transaction(lambda: self._write(one)))
            except OutputError as e:
                failed, reason = failed + 1, str(e)
        if failed:
            raise StoreWriteError(
                f"{reason} ({failed} of {len(values)} answers could not be stored)", unwritten=failed, total=len(values)
            )

    def _write(self, values: list[tuple[Any, ...]]) -> None:
        self._db.executemany(_UPSERT, values)
        self._db.executemany("DELETE FROM claims WHERE key = ?", [(v[0],) for v in values])

    def claim(self, keys: Sequence[str], owner: str, lease_s: float) -> list[str]:
        """Atomically take the keys with no answer and no live claim of another owner; returns them.

        A claim is live until its lease expires — or until its owner (see owner_id) is seen dead: a
        process of this host whose pid is gone. A rerun after a SIGKILL starts at once instead of
        waiting out the dead run's leases."""
        granted: list[str] = []
        unique = list(dict.fromkeys(keys))  # a key asked twice is granted once
        alive: dict[str, bool] = {}

        def take() -> None:
            granted.clear()
            now = time.time()
            for i in range(0, len(unique), _CHUNK):
                chunk = unique[i : i + _CHUNK]
                marks = _marks(chunk)
                busy = {
                    r[0]
                    for r in self._db.execute(
                        f"SELECT key FROM responses WHERE key IN ({marks}) AND error IS NULL", chunk
                    )
                }
                busy |= {
                    key
                    for key, other in self._db.execute(
                        f"SELECT key, owner FROM claims WHERE key IN ({marks}) AND owner != ? AND expires > ?",
                        (*chunk, owner, now),
                    )
                    if alive.setdefault(other, owner_alive(other))
                }
                mine = [k for k in chunk if k not in busy]
                self._db.executemany(
                    "INSERT INTO claims VALUES (?,?,?) ON CONFLICT(key) DO UPDATE SET owner=excluded.owner,"
                    " expires=excluded.expires",
                    [(k, owner, now + lease_s) for k in mine],
                )
                granted.extend(mine)

        self._run(lambda: self._transaction(take))
        return granted

    def renew(self, owner: str, lease_s: float) -> None:
        """Extend every claim of owner (the runner's heartbeat)."""
        self._run(
            lambda: self._transaction(
                lambda: self._db.execute(
                    "UPDATE claims SET expires = ? WHERE owner = ?", (time.time() + lease_s, owner)
                )
            )
        )

    def release(self, owner: str) -> None:
        """Drop every claim of owner (on exit, also after Ctrl-C)."""
        self._run(lambda: self._transaction(lambda: self._db.execute("DELETE FROM claims WHERE owner = ?", (owner,))))

    def check(self) -> None:
        """Fail (OutputError, one line) unless the store reads whole and takes a write: run before any
        model call, so a corrupt, truncated or read-only store costs nothing."""
        found = self._run(lambda: self._db.execute("PRAGMA quick_check").fetchone()[0])
        if found != "ok":
            raise OutputError(
                f"{self.path}: the response store is corrupt ({_one_line(str(found))}); move it aside or "
                "point --ijr-store at another file"
            )

        def probe() -> None:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('write-check', '1')")
            self._db.execute("DELETE FROM meta WHERE k = 'write-check'")

        self._run(lambda: self._transaction(probe))

    def count(self, *, errors: bool = False) -> int:
        """Number of successful answers (or of stored errors)."""
        sql = "SELECT COUNT(*) FROM responses WHERE error IS " + ("NOT NULL" if errors else "NULL")
        return int(self._run(lambda: self._db.execute(sql).fetchone()[0]))

    def _transaction(self, body: Callable[[], object]) -> None:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            body()
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def _run(self, fn: Callable[..., T], *args: object) -> T:
        """fn under the connection lock, retried while another process holds the database lock."""
        delay = 0.01
        for attempt in range(12):
            try:
                with self._lock:
                    return fn(*args)
            except sqlite3.OperationalError as e:
                if ("locked" not in str(e) and "busy" not in str(e)) or attempt == 11:
                    raise OutputError(f"{self.path}: response store error: {e}") from None
            except (sqlite3.Error, ValueError, OverflowError) as e:  # corrupt file, a value SQLite refuses
                raise OutputError(f"{self.path}: response store error: {e}") from None
            time.sleep(delay)
            delay = min(1.0, delay * 2)
        raise AssertionError("unreachable")


_EXTRA_FIELDS = ("provider_block", "provider_detail", "reasoning", "repair")


class StoreWriteError(OutputError):
    """Some answers of a batch could not be written (`unwritten` of `total`); the others were."""

    def __init__(self, message: str, *, unwritten: int, total: int) -> None:
        super().__init__(message)
        self.unwritten, self.total = unwritten, total


def _row_values(r: StoreRow, now: float) -> tuple[Any, ...]:
    resp = writable_response(r.response)
    return (
        r.key,
        r.model,
        utf8_safe(r.case_id)[0],
        r.sample,
        resp.text,
        resp.finish_reason,
        resp.input_tokens,
        resp.output_tokens,
        resp.latency_s,
        resp.attempts,
        resp.error,
        now,
        _extra_json(resp),
    )


def _extra_json(r: Response) -> str | None:
    extra = {k: v for k in _EXTRA_FIELDS if (v := getattr(r, k)) is not None}
    return json.dumps(extra, ensure_ascii=False, sort_keys=True) if extra else None


def _extra_fields(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return {k: str(data[k]) for k in _EXTRA_FIELDS if isinstance(data, dict) and data.get(k) is not None}


def owner_id(name: str) -> str:
    """A claim owner that says where it lives: name:host:pid:nonce (the nonce tells two runs of one
    process apart)."""
    return f"{name}:{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def owner_alive(owner: str) -> bool:
    """False only when the owner is a process of this host that no longer exists; any owner we cannot
    check (another host, another user's process, an old format) is alive until its lease expires."""
    parts = owner.rsplit(":", 3)
    if len(parts) != 4 or parts[1] != socket.gethostname() or not parts[2].isdigit():
        return True
    try:
        os.kill(int(parts[2]), 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, as another user
        return True
    return True


def _one_line(text: str) -> str:
    return " ".join(text.split())[:200]


def check_store(path: str | os.PathLike[str]) -> None:
    """Open (creating it if need be) and check the store at path; see Store.check."""
    with Store(path) as store:
        store.check()


def _marks(items: Sequence[object]) -> str:
    return ",".join("?" * len(items))


def _create_private(path: Path) -> None:
    """Create the folder (0700) and the file (0600) before SQLite does, so no umask can widen them."""
    if path.is_dir():
        raise OutputError(f"{path}: is a directory; --ijr-store names the response store's file")
    existed = path.exists()
    try:
        for folder in reversed([p for p in path.parents if not p.exists()]):
            folder.mkdir(mode=0o700, exist_ok=True)  # every folder we create, not only the last
        if not existed:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        os.chmod(path, 0o600)
    except OSError as e:
        doing = "cannot write to the response store" if existed else "cannot create the response store"
        raise OutputError(f"{path}: {doing}: {e.strerror}") from None
