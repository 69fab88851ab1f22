"""Hostile reply bytes end to end: every reply carrying half an emoji (`"\\ud83d"`), a NUL and a bidi
override is stored, judged and written in every process layout; the run finishes (it used to hang
under `-n 2`, one worker's store batch failing forever) and a rerun asks the model for nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer
from tests.reliability.conftest import case_rows, openai_args, read_rows, read_summary, run_suite

LAYOUTS = {"no-xdist": (), "n0": ("-n", "0"), "n2": ("-n", "2")}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_replies_with_lone_surrogates_are_stored_judged_written_and_never_asked_twice(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, layout: str
) -> None:
    fake.configure(FakeConfig(shape="hostile"))
    args = openai_args(fake, "--ijr-out=out", "--ijr-concurrency=4", *LAYOUTS[layout])
    result = run_suite(suite, tiny_cases, *args)
    assert result.returncode in (0, 1), result.stdout[-2000:] + result.stderr[-2000:]
    assert "Traceback" not in result.stdout + result.stderr
    n = len(case_rows(tiny_cases))
    rows = read_rows(suite.path / "out")
    assert len(rows) == n and read_summary(suite.path / "out")["complete"] is True
    assert all(r["repair"] == "1 lone surrogate replaced with U+FFFD" for r in rows)
    assert all(r["response"].endswith(" \ufffd\x00\u202e") and not r["verdict"]["error"] for r in rows)
    assert fake.total() == n
    fake.reset_log()
    again = run_suite(suite, tiny_cases, *args)
    assert again.returncode == result.returncode and fake.total() == 0
    assert [r["response"] for r in read_rows(suite.path / "out")] == [r["response"] for r in rows]
