"""Property tests run under tests/conftest.py's profile: no wall-clock deadline, no slow-data health check
(on a loaded CI machine both fail tests that are right)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

OWN = settings(max_examples=5)  # a test module's own settings, built at import like the others


def test_the_profile_has_no_deadline_and_no_too_slow_health_check() -> None:
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


def test_settings_a_test_module_builds_keep_the_profiles_limits() -> None:
    assert OWN.deadline is None and HealthCheck.too_slow in OWN.suppress_health_check
