"""The one private read of syrupy (pytest_plugin/snapshot_controller.syrupy_session): this test session's own
syrupy session must be found there, so that a syrupy release that moves it fails here, by name."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from syrupy.session import SnapshotSession

from indicjr.pytest_plugin.snapshot_controller import syrupy_session


def test_the_running_syrupy_keeps_its_session_where_the_controller_reads_it(request: pytest.FixtureRequest) -> None:
    assert request.config.pluginmanager.hasplugin("syrupy")
    assert isinstance(syrupy_session(request.config), SnapshotSession)


def test_a_config_without_syrupys_session_fails_naming_the_syrupy_version_and_the_function() -> None:
    with pytest.raises(RuntimeError, match=r"syrupy \d+\.\d+.* keeps no SnapshotSession .*syrupy_session"):
        syrupy_session(SimpleNamespace())  # type: ignore[arg-type]
