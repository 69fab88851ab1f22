"""Shared fixtures: the release-shaped fixture under tests/data/official_fixture, imported once per module."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from indicjr.official.importer import ImportResult, import_release

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "official_fixture"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> ImportResult:
    return import_release(FIXTURE, tmp_path_factory.mktemp("official") / "out")


@pytest.fixture
def release_copy(tmp_path: Path) -> Path:
    """A writable copy of the fixture release, for tests that break a file."""
    dst = tmp_path / "release"
    shutil.copytree(FIXTURE, dst)
    return dst
