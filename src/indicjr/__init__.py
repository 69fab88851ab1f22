"""IndicJR: judge-free jailbreak-robustness regression suite for 12 South Asian languages."""

from __future__ import annotations

__version__ = "0.1.0"
