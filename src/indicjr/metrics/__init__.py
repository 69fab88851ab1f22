"""Metrics: rates with intervals per slice, paired effects, correlations — pure functions of result rows."""
