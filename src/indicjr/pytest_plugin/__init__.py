"""The pytest plugin: a thin layer over the core (options, collection, fixtures, controller, snapshots)."""

from __future__ import annotations

import pytest

from indicjr.errors import IJRError

try:
    import indicjr.langs  # noqa: F401  the language registry is read (and checked) here, first
except IJRError as exc:
    # A broken registry (languages.yaml or $IJR_LANGUAGES) is the user's input: one line and exit 4, as
    # `ijr` says it, not pytest's "Error while loading plugin" traceback (pytest lets a UsageError through).
    raise pytest.UsageError(f"indicjr: {exc}") from None

from indicjr.pytest_plugin.fixtures import check_hard_violations

__all__ = ["check_hard_violations"]
