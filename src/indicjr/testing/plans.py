"""`plan_of(concurrency=4, max_retries=2, timeout_s=0.8)`: a runner Plan from flat field names, for tests,
benchmarks and JSON-driven worker scripts that set a few knobs. Each name goes to the record that has
that field (Pacing, Endpoint, RetryPolicy, else the Plan itself); an unknown name is a TypeError."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from indicjr.targets.generation import Plan, RetryPolicy
from indicjr.targets.options import Endpoint, Pacing

_PARTS: dict[str, type] = {"pacing": Pacing, "endpoint": Endpoint, "policy": RetryPolicy}


def plan_of(**flat: Any) -> Plan:
    parts: dict[str, dict[str, Any]] = {name: {} for name in _PARTS}
    own: dict[str, Any] = {}
    for key, value in flat.items():
        home = next((name for name, cls in _PARTS.items() if key in {f.name for f in fields(cls)}), None)
        (parts[home] if home else own)[key] = value
    return Plan(**{name: cls(**parts[name]) for name, cls in _PARTS.items()}, **own)
