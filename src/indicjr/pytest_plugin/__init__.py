"""The pytest plugin: a thin layer over the core (options, collection, fixtures, controller, snapshots)."""

from __future__ import annotations

from indicjr.pytest_plugin.fixtures import check_hard_violations

__all__ = ["check_hard_violations"]
