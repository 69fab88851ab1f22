"""Broken stores and outputs in every process layout: one line naming the file and the problem, exit 4,
before any model call where that can be known — and on a full disk, no answer lost silently."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from indicjr.targets.store import Store
from indicjr.testing.fake_server import FakeConfig, FakeServer
from tests.reliability.conftest import openai_args, run_suite
from tests.reliability.test_bad_input import assert_one_line_usage_error

LAYOUTS = {"no-xdist": (), "n0": ("-n", "0"), "n2": ("-n", "2")}


def _directory(path: Path) -> None:
    path.mkdir(parents=True)


def _corrupt(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(os.urandom(20_000))


def _truncated(path: Path) -> None:
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
        db.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 200)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


PROBLEMS: dict[str, tuple[Callable[[Path], None], str]] = {
    "directory": (_directory, "is a directory"),
    "corrupt": (_corrupt, "file is not a database"),
    "truncated": (_truncated, "database disk image is malformed"),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("problem", list(PROBLEMS))
def test_a_broken_store_is_one_line_naming_the_file_before_any_model_call(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, problem: str, layout: str
) -> None:
    make, words = PROBLEMS[problem]
    store = suite.path / "st" / "store.sqlite"
    make(store)
    result = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-store=st/store.sqlite"), *LAYOUTS[layout])
    assert_one_line_usage_error(result, str(store), words)
    assert fake.total() == 0
    assert problem != "directory" or (store.stat().st_mode & 0o777) != 0o600  # the folder keeps its mode


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_an_unwritable_output_folder_is_noticed_before_any_model_call(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, layout: str
) -> None:
    suite.path.joinpath("somefile").write_text("not a folder", encoding="utf-8")
    result = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-out=somefile/out"), *LAYOUTS[layout])
    assert_one_line_usage_error(result, "--ijr-out", "cannot write")
    assert fake.total() == 0


def _mount_tmpfs(mnt: Path, size: str) -> None:
    """A small tmpfs at mnt (real ENOSPC / EROFS from the kernel): needs root and mount, else skipped."""
    mnt.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mnt)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {made.stderr.decode(errors='replace').strip()}")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KB disk."""
    _mount_tmpfs(tmp_path / "disk", "256k")
    try:
        yield tmp_path / "disk"
    finally:
        subprocess.run(["umount", str(tmp_path / "disk")], check=False)


@pytest.fixture
def read_only_store(tmp_path: Path) -> Iterator[Path]:
    """A valid store on a file system remounted read-only (root cannot write it either)."""
    mnt = tmp_path / "ro"
    _mount_tmpfs(mnt, "1m")
    try:
        Store(mnt / "store.sqlite").close()
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        yield mnt / "store.sqlite"
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_a_read_only_store_is_one_line_naming_the_file_before_any_model_call(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, read_only_store: Path, layout: str
) -> None:
    result = run_suite(suite, tiny_cases, *openai_args(fake, f"--ijr-store={read_only_store}"), *LAYOUTS[layout])
    assert_one_line_usage_error(result, str(read_only_store), "Read-only file system")
    assert fake.total() == 0


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_a_full_disk_counts_the_answers_it_could_not_store_and_leaves_no_temporary_file(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, small_disk: Path, layout: str
) -> None:
    fake.configure(FakeConfig(reply_words=6000))  # ~18 KB a reply: 24 replies do not fit in 256 KB
    args = openai_args(fake, f"--ijr-store={small_disk / 'store.sqlite'}", f"--ijr-out={small_disk / 'out'}")
    result = run_suite(suite, tiny_cases, *args, *LAYOUTS[layout])
    out = result.stdout + result.stderr
    assert result.returncode == 4, out[-3000:]
    assert "Traceback" not in out and "INTERNALERROR" not in out
    assert "answers received could not be stored" in out
    assert "No space left on device" in out or "database or disk is full" in out
    assert not list(small_disk.rglob("*.tmp"))
