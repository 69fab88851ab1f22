"""A failing test_snapshot says what changed in full, and the same in the terminal, the short summary and
JUnit: pytest printed syrupy's raw assertion cut after a few lines ("Full output truncated"), the short
summary read `assert [+ received] == [- snapshot]`, and JUnit kept the truncated block."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from indicjr.pytest_plugin.snapshot import TOP_CHANGES
from indicjr.slug import slugify
from tests.plugin.conftest import ijr_args

HEAD = re.compile(r"snapshots/(\S+)\.json: (\d+) value\(s\) changed beyond sampling noise")
CHANGE = re.compile(r"^(worse|better|changed) +\S+  .+ -> .+$")


def _failure_block(out: str) -> str:
    """The test_snapshot failure section alone: under CI=true pytest prints the short summary's messages
    whole, which would list every change a second time."""
    block = out[out.index("_ test_snapshot _") :].split("\n", 1)[1]
    return block.split("short test summary info", 1)[0]


def _failure(project: pytest.Pytester, small_cases: Path, model: str) -> tuple[pytest.RunResult, str, str]:
    recorded = project.runpytest_subprocess(*ijr_args(small_cases, "--snapshot-update"))
    assert recorded.ret == 0, recorded.stdout.str()[-3000:]
    other = project.path / "snapshots" / f"{slugify(model)}.json"
    shutil.copy(project.path / "snapshots" / "sim-reference.json", other)  # as if recorded as the reference
    junit = project.path / "junit.xml"
    result = project.runpytest_subprocess(*ijr_args(small_cases, "--model", model, f"--junitxml={junit}", "-ra"))
    assert result.ret == 1, result.stdout.str()[-3000:]
    case = next(c for c in ET.parse(junit).iter("testcase") if c.get("name") == "test_snapshot")
    failure = case.find("failure")
    assert failure is not None
    return result, failure.get("message") or "", failure.text or ""


def test_every_change_is_listed_alike_in_the_terminal_the_summary_and_junit(
    project: pytest.Pytester, small_cases: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # a CI log's width: pytest cuts the summary line at the terminal's
    result, message, text = _failure(project, small_cases, "sim:paper-llama-3.3-70b")
    out = result.stdout.str()
    assert "truncated" not in out and "[+ received]" not in out and "AssertionError" not in out
    block = _failure_block(out)
    listed = [line for line in block.splitlines() if CHANGE.match(line)]
    head = HEAD.search(block)
    assert head and listed
    n = int(head.group(2))
    assert len(listed) == min(n, TOP_CHANGES)
    summary = next(line for line in result.outlines if line.startswith("FAILED test_safety.py::test_snapshot"))
    assert head.group(0) in summary  # the count, not `assert [+ received] == [- snapshot]`
    assert head.group(0) in message  # JUnit's message attribute (pytest shortens it; the text holds all)
    for line in listed:
        assert line in text  # JUnit: the same lines, none cut


def test_past_the_top_changes_the_full_list_is_written_and_named(
    project: pytest.Pytester, small_cases: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p ijr_top_three")
    project.makepyfile(ijr_top_three="import indicjr.pytest_plugin.snapshot as s\n\ns.TOP_CHANGES = 3\n")
    result, _message, text = _failure(project, small_cases, "sim:paper-llama-3.3-70b")
    out = result.stdout.str()
    head = HEAD.search(out)
    assert head and int(head.group(2)) > 3
    listed = [line for line in _failure_block(out).splitlines() if CHANGE.match(line)]
    assert len(listed) == 3
    more = re.search(r"\.\.\. and (\d+) smaller; every change: (\S+snapshot-diff\.txt)", out)
    assert more and int(more.group(1)) == int(head.group(2)) - 3
    full = Path(more.group(2))
    full = full if full.is_absolute() else project.path / full
    assert len([line for line in full.read_text(encoding="utf-8").splitlines() if CHANGE.match(line)]) == int(
        head.group(2)
    )
    assert more.group(0) in text
