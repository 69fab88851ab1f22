"""The SQLite response store: permissions, answers vs errors, atomic claims, leases."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from indicjr.errors import OutputError
from indicjr.targets.base import Response
from indicjr.targets.store import Store, StoreRow, StoreWriteError, owner_id

OK = Response(text="answer", finish_reason="stop", input_tokens=3, output_tokens=2, latency_s=0.1, attempts=2)
ERR = Response(text="", finish_reason="error", error="gave up after 7 attempts", attempts=7)


def test_store_file_is_user_only_and_its_new_folder_too(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "responses.db"
    with Store(path) as store:
        store.put("k", OK, model="m", case_id="c")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    for extra in path.parent.glob("responses.db-*"):
        assert stat.S_IMODE(extra.stat().st_mode) == 0o600


def test_answer_round_trips_with_its_metadata(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.put("k", OK, model="m", case_id="c", sample=1)
        got = store.get("k")
    assert got is not None and got.cached
    assert (got.text, got.finish_reason, got.input_tokens, got.output_tokens, got.attempts) == (
        "answer",
        "stop",
        3,
        2,
        2,
    )


def test_errors_are_stored_but_are_not_answers(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        t0 = time.time()
        store.put("k", ERR, model="m", case_id="c")
        assert store.get("k") is None
        assert store.get_many(["k"], errors_since=t0)["k"].error == ERR.error
        assert store.get_many(["k"], errors_since=time.time() + 1) == {}
        assert store.claim(["k"], "next-run", 10) == ["k"]
        store.put("k", OK, model="m", case_id="c")
        assert store.get("k") is not None and store.count() == 1 and store.count(errors=True) == 0


def test_a_success_is_never_overwritten(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.put("k", OK, model="m", case_id="c")
        store.put("k", ERR, model="m", case_id="c")
        store.put("k", Response(text="other"), model="m", case_id="c")
        got = store.get("k")
        assert got is not None and got.recorded_at is not None
        assert got == OK.__class__(**{**_fields(OK), "cached": True, "recorded_at": got.recorded_at})


def _fields(r: Response) -> dict[str, object]:
    return {f: getattr(r, f) for f in r.__slots__}  # type: ignore[attr-defined]


def test_claims_are_exclusive_until_released_or_expired(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as a, Store(tmp_path / "s.db") as b:
        assert a.claim(["k1", "k2"], "A", 60) == ["k1", "k2"]
        assert b.claim(["k1", "k2", "k3"], "B", 60) == ["k3"]
        a.put("k1", OK, model="m", case_id="c")
        a.release("A")
        assert b.claim(["k1", "k2"], "B", 60) == ["k2"]  # k1 answered, k2 free again
        assert a.claim(["k4"], "A", 0.05) == ["k4"]
        time.sleep(0.1)
        assert b.claim(["k4"], "B", 60) == ["k4"]  # A's lease expired (a dead worker)


def test_renew_keeps_a_live_owners_claims(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.claim(["k"], "A", 0.2)
        time.sleep(0.1)
        store.renew("A", 60)
        time.sleep(0.15)
        assert store.claim(["k"], "B", 60) == []


@settings(max_examples=25, deadline=None)
@example(batches=[[0, 0]])  # a key asked twice in one claim was granted twice
@given(st.lists(st.lists(st.integers(0, 30), max_size=12), min_size=1, max_size=5))
def test_owners_never_hold_the_same_key(tmp_path_factory: object, batches: list[list[int]]) -> None:
    path = tmp_path_factory.mktemp("claims") / "s.db"  # type: ignore[attr-defined]
    held: dict[str, str] = {}
    with Store(path) as store:
        for i, batch in enumerate(batches):
            owner = f"o{i}"
            for key in store.claim([f"k{n}" for n in batch], owner, 60):
                assert key not in held
                held[key] = owner


def test_one_row_sqlite_refuses_never_keeps_the_rest_of_the_batch_out(tmp_path: Path) -> None:
    """A reply too big for SQLite (here: a sample number past 64 bits) costs its own row, not the batch."""
    rows = [StoreRow(f"k{i}", "m", f"c{i}", 2**70 if i == 3 else 0, Response(text=f"r{i}\ud83d")) for i in range(6)]
    with Store(tmp_path / "s.sqlite") as store:
        with pytest.raises(StoreWriteError) as info:
            store.put_many(rows)
        assert (info.value.unwritten, info.value.total) == (1, 6)
        found = store.get_many([r.key for r in rows])
    assert sorted(found) == ["k0", "k1", "k2", "k4", "k5"]
    assert found["k0"].text == "r0\ufffd" and found["k0"].repair == "1 lone surrogate replaced with U+FFFD"


def test_a_corrupt_store_file_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    path.write_bytes(b"not a database" * 100)
    with pytest.raises(OutputError, match=r"s\.sqlite: response store error: file is not a database"):
        Store(path)


def test_claims_of_a_dead_process_of_this_host_are_taken_over_before_their_lease_expires(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    host = socket.gethostname()
    with Store(tmp_path / "s.sqlite") as store:
        assert store.claim(["a"], f"gw0:{host}:{int(dead.stdout)}:0000", lease_s=600) == ["a"]
        assert store.claim(["b"], f"gw1:{host}:{os.getpid()}:1111", lease_s=600) == ["b"]  # alive
        assert store.claim(["c"], f"gw2:elsewhere:{int(dead.stdout)}:2222", lease_s=600) == ["c"]  # unknowable
        assert store.claim(["a", "b", "c"], owner_id("main"), lease_s=600) == ["a"]


def test_a_batch_the_store_refuses_whole_is_counted_reported_and_not_retried_forever(tmp_path: Path) -> None:
    """Put back, a refused batch would fail on every later flush and keep every answer after it out."""
    import asyncio

    from indicjr.targets.store_writer import StoreWriter

    failures: list[str] = []
    with Store(tmp_path / "s.sqlite") as store:
        writer = StoreWriter(store, on_failure=failures.append)
        writer.add(StoreRow("big", "m", "c", 2**70, Response(text="x")))  # SQLite refuses the row
        asyncio.run(writer.flush())
        writer.add(StoreRow("ok", "m", "c", 0, Response(text="y")))
        asyncio.run(writer.flush())
        assert sorted(store.get_many(["big", "ok"])) == ["ok"]
    assert writer.unstored == 1 and writer.rows == [] and len(failures) == 1
    assert "up to 1 answers received could not be stored" in writer.lost(failures[0])
