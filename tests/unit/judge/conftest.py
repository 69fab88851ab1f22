"""Shows the dev-set accuracy table at the end of the session (the test stores it in the stash)."""

from __future__ import annotations

import pytest

DEVSET_REPORT = pytest.StashKey[str]()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    report = config.stash.get(DEVSET_REPORT, None)
    if report:
        terminalreporter.write_sep("=", "judge dev-set accuracy")
        terminalreporter.write(report)
