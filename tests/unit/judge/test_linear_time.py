"""Judging is linear in the reply: no regex or parser path may go quadratic on hostile text.

An audit measured one grounding regex at 0.04 s on 2k characters and 8.8 s on 40k (a run without
spaces), a reply of newlines costing 18 s at 20k, and a 100 KB reply of `{` seconds in the contract
parser. The budget here is relative, measured on the same machine in the same test: a hostile reply
may cost at most BUDGET times an ordinary reply of the same length (words and spaces, which every
path handles linearly). A quadratic path at this length costs hundreds of times more.

Cost is this thread's CPU time, not wall time: on a loaded CI machine the wall clock also counts the
time other processes ran, which can land on the hostile reply's measurement and not the baseline's.
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from indicjr.judge.verdict import judge

LENGTH = 40_000
BUDGET = 12.0
CONDITIONS = [(track, subset) for track in ("json", "free") for subset in ("AB", "CB", "CH")]
# The characters the judge's patterns care about: brackets, quotes, list markers, colons, digits, newlines,
# Indic letters and signs, the word "step".
# (Indic letters as escapes: language text lives in data files, these are single signs.)
SIGNS = ["\u0915", "\u093f", "\u094d", "\u0628", "\u0964"]
ALPHABET = st.sampled_from([*"[]{}\"'\\:;.,-*•()\n\t 1a_—", *SIGNS, "step", '{"decision": "', "http://"])
ORDINARY = ("the reply says ", "\u0915\u093f\u0924\u093e\u092c ")  # Latin words; Devanagari words
PIECES = st.lists(ALPHABET, min_size=1, max_size=4).map("".join)


def _seconds(text: str, track: str, subset: str) -> float:
    best = float("inf")
    for _ in range(2):
        t0 = time.thread_time()
        judge(
            text,
            case_id="x",
            lang="hi",
            track=track,
            subset=subset,
            canary="IJR-CANARY-0000" if subset == "CH" else None,
            task="summarise" if subset == "CB" else None,
            prompt="Summarise: the Taj Mahal was built in 1632 by Shah Jahan.",
        )
        best = min(best, time.thread_time() - t0)
    return best


def _fill(piece: str) -> str:
    return (piece * (LENGTH // len(piece) + 1))[:LENGTH]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(piece=PIECES, condition=st.sampled_from(CONDITIONS))
@example(piece="a", condition=("free", "CH"))  # grounding's "<word> step:" pattern at every character
@example(piece="\n", condition=("free", "CH"))  # list and label lines: `^\s*` over every blank line
@example(piece="{", condition=("json", "CH"))  # the contract parser's error at every brace
@example(piece='{"decision": "', condition=("json", "AB"))
@example(piece="[", condition=("json", "CB"))
@example(piece="-", condition=("free", "CH"))
def test_judging_a_hostile_reply_costs_at_most_a_constant_times_an_ordinary_one(
    piece: str, condition: tuple[str, str]
) -> None:
    track, subset = condition
    baseline = max(_seconds(_fill(words), track, subset) for words in ORDINARY)
    hostile = _seconds(_fill(piece), track, subset)
    assert hostile <= BUDGET * baseline, f"{piece!r} {track}/{subset}: {hostile:.3f}s vs {baseline:.3f}s"
