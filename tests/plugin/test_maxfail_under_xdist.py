"""Under xdist, --maxfail ends the run with xdist's own KeyboardInterrupt (exit 2, as without IndicJR);
the plugin said "interrupted (Ctrl-C)" although nobody pressed it. Now it says why pytest stopped."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.conftest import ijr_args


def test_maxfail_under_xdist_names_the_failures_not_a_ctrl_c(project: pytest.Pytester, small_cases: Path) -> None:
    args = ijr_args(small_cases, "--model", "sim:paper-sarvam-1", "-n", "2", "--maxfail=1")
    result = project.runpytest_subprocess(*args)
    assert result.ret == pytest.ExitCode.INTERRUPTED, result.stdout.str()[-3000:]
    out = result.stdout.str()
    assert "Ctrl-C" not in out, out[-3000:]
    result.stdout.fnmatch_lines(["indicjr: stopped (stopping after * failure*"])
    result.stdout.fnmatch_lines(["*Interrupted: indicjr: stopped: stopping after * failure*"])
