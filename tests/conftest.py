"""Shared test settings."""

from hypothesis import HealthCheck, settings

# CI runs on 2 cores: keep property tests deterministic and bounded.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")
