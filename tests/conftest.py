"""The project's own tests: Hypothesis without wall-clock limits.

Hypothesis fails an example that runs longer than its `deadline` (200 ms by default) and a test whose
data generation is slow (`HealthCheck.too_slow`). Both measure the machine, not the code: on CI's loaded
2-core machine a 50 ms example can take 300 ms, and a property test then fails (or is called flaky) with
nothing wrong. Every property test here proves a property of its outputs; the one about speed
(tests/unit/judge/test_linear_time.py) measures CPU time itself, relative to a baseline.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile("indicjr", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("indicjr")
