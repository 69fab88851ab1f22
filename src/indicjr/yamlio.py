"""YAML loading for the data files (lexicons, sources, simulator profiles and phrases, thresholds).

One place that picks libyaml's C loader when PyYAML was built with it (its wheels are): the pure-Python
loader took ~0.3 s of every pytest process's run phase just to read the twelve lexicons.
"""

from __future__ import annotations

from typing import Any

import yaml

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """yaml.safe_load semantics (the C SafeLoader is the same safe subset), faster."""
    return yaml.load(text, Loader=_LOADER)
