"""Which way is better for each metric: schema validity up, everything else down.

Names come in three forms — a metric (`json_sv`, `free_leak_lexicon`), a headline key (`json_sv_ab`,
`json_ch_leak`) or a paired effect (`delta_jsr_romanized`) — and are resolved to the base metric first
(reading the last `_` part gave `json_sv_ab` the direction of "ab").
"""

from __future__ import annotations

from indicjr.metrics.core import split_name
from indicjr.metrics.summary import HEADLINE_RATES

HIGHER_IS_BETTER = frozenset({"sv"})


def base_metric(name: str) -> str:
    """'json_sv_ab' -> 'sv'; 'free_leak_lexicon' -> 'leak_lexicon'; 'delta_jsr_mixed' -> 'delta_jsr'."""
    if name.startswith("delta_jsr"):
        return "delta_jsr"  # variant minus reference JSR: a larger gap is worse
    return split_name(HEADLINE_RATES.get(name, name))[1]


def higher_is_better(name: str) -> bool:
    return base_metric(name) in HIGHER_IS_BETTER


def is_worse(name: str, delta: float | None) -> bool:
    """Whether moving by `delta` (new minus old) makes the named metric worse."""
    if not delta:
        return False
    return delta < 0 if higher_is_better(name) else delta > 0
