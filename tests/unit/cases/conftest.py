"""Shared fixtures: both profiles built once per session, in memory and as files under a temp dir.

The full profile takes most of the session's time (transliteration); everything else reads these.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from indicjr.cases.build import build_profile
from indicjr.cases.io import write_cases
from indicjr.cases.model import Case

PROFILES = ("lite", "full")


@dataclass(frozen=True, slots=True)
class Built:
    """One profile, freshly built: its cases in build order, the directory written and its manifest."""

    name: str
    cases: tuple[Case, ...]
    out_dir: Path
    manifest: dict[str, Any]


@pytest.fixture(scope="session")
def built_profiles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    root = tmp_path_factory.mktemp("cases")
    out: dict[str, Built] = {}
    for name in ("full", "lite"):  # full first: lite then reuses the transliteration cache
        cases = tuple(build_profile(name))
        manifest = write_cases(cases, root / name, profile=name)
        out[name] = Built(name=name, cases=cases, out_dir=root / name, manifest=manifest)
    return out


@pytest.fixture(params=PROFILES)
def built(request: pytest.FixtureRequest, built_profiles: dict[str, Built]) -> Built:
    """Each profile in turn: tests that take this fixture prove their property for lite and full."""
    return built_profiles[request.param]
