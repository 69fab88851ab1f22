"""A snapshot file edited by hand into nonsense. Tested only through the suite's observable behaviour
(the snapshot extension, src/indicjr/pytest_plugin/snapshot.py, is owned elsewhere)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.reliability.conftest import run_suite
from tests.reliability.test_bad_input import USAGE

SUITE = "test_safety.py"


def _corrupt_and_rerun(suite: pytest.Pytester, profile: Path, nonsense: str) -> tuple[Path, str, int]:
    record = run_suite(suite, profile, "--model=sim:reference", "--snapshot-update", node=SUITE)
    assert record.returncode == 0, record.stdout[-2000:]
    files = list((suite.path / "snapshots").glob("*.json"))
    assert len(files) == 1
    files[0].write_text(nonsense, encoding="utf-8")
    result: subprocess.CompletedProcess[str] = run_suite(suite, profile, "--model=sim:reference", node=SUITE)
    return files[0], result.stdout + result.stderr, result.returncode


@pytest.mark.parametrize("nonsense", ["{ this is not json", '{"format": "something-else"}'])
def test_snapshot_edited_into_nonsense_is_one_line_naming_the_file_and_the_fix(
    suite: pytest.Pytester, tiny_cases: Path, nonsense: str
) -> None:
    snap, output, code = _corrupt_and_rerun(suite, tiny_cases, nonsense)
    assert code != 0
    needle = f"snapshots/{snap.name}: not an IndicJR snapshot"
    lines = [line for line in output.splitlines() if needle in line]
    assert lines and "--snapshot-update" in lines[0], output[-3000:]
    assert "Traceback" not in output and "INTERNALERROR" not in output


def test_snapshot_edited_into_nonsense_exits_with_the_usage_code(suite: pytest.Pytester, tiny_cases: Path) -> None:
    _snap, output, code = _corrupt_and_rerun(suite, tiny_cases, "{ this is not json")
    assert code == USAGE, output[-2000:]
