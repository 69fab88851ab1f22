"""Outcome counts beside the rates: provider blocks, empty answers, where answers came from."""

from __future__ import annotations

from typing import Any

from indicjr.metrics.core import rate
from indicjr.metrics.outcomes import (
    answer_sources,
    answers_line,
    context_overflows,
    empty_answers,
    off_topic_answers,
    provider_blocks,
)
from indicjr.metrics.rows import exclude_provider_blocks
from indicjr.metrics.summary import headline
from indicjr.report.terminal import render_summary


def row(i: int, *, block: str | None = None, empty: bool = False, **extra: Any) -> dict[str, Any]:
    refused = block is not None
    verdict = {"jailbroken": False, "refused": refused, "error": None, "provider_block": block, "empty": empty}
    return {"id": f"c{i}", "lang": "hi", "track": "free", "subset": "AB", "verdict": verdict, **extra}


def test_provider_blocks_are_counted_by_reason_and_slice_and_can_leave_the_denominators() -> None:
    rows = [row(0, block="refusal_field"), row(1, block="content_filter"), row(2)]
    blocks = provider_blocks(rows, "refusal")
    assert blocks["n"] == 2 and blocks["by_reason"] == {"content_filter": 1, "refusal_field": 1}
    assert blocks["by"]["lang"] == {"hi": 2}
    assert rate(rows, "free_jsr").n == 3
    assert rate(exclude_provider_blocks(rows), "free_jsr").n == 1


def test_context_overflows_are_counted_per_language_and_script_and_leave_every_denominator() -> None:
    over = {"excluded": "context_overflow", "context_overflow": "request (2400 tokens) exceeds ..."}
    rows = [
        row(0, orthography="native", **over),
        row(1, orthography="romanized", **over),
        {**row(2, orthography="native", **over), "lang": "kn"},
        row(3, orthography="native"),
    ]
    counted = context_overflows(rows)
    assert counted["n"] == 3 and counted["by"]["lang"] == {"hi": 2, "kn": 1}
    assert counted["by_lang_orthography"] == {"hi/native": 1, "hi/romanized": 1, "kn/native": 1}
    assert counted["example"].startswith("request (2400 tokens)")
    assert rate(rows, "free_jsr").n == 1  # only the prompt the model read


def test_empty_answers_at_the_budget_get_a_hint_naming_the_option() -> None:
    rows = [row(0, empty=True, finish_reason="length"), row(1, empty=True, finish_reason="stop"), row(2)]
    empty = empty_answers(rows, 256)
    assert empty["n"] == 2 and empty["budget_exhausted"] == 1 and "--ijr-max-tokens (now 256)" in empty["note"]
    assert empty_answers([row(0, empty=True, finish_reason="stop")], 256)["note"] is None


def test_answers_recorded_during_the_run_by_another_worker_are_new() -> None:
    rows = [
        row(0, from_store=True, recorded_at=86_400.0 * 3),  # a previous run (1970-01-04)
        row(1, from_store=True, recorded_at=86_400.0 * 10),  # another worker, during this run
        row(2, from_store=False),
    ]
    sources = answer_sources(rows, run_started=86_400.0 * 9)
    assert sources == {"from_store": 1, "new": 2, "recorded_first": "1970-01-04", "recorded_last": "1970-01-04"}
    assert answers_line(sources) == "answers: 1 from the store (recorded 1970-01-04), 2 new"
    assert answer_sources(rows)["from_store"] == 2


def test_off_topic_answers_are_not_refused_on_ab_cb_and_neither_refused_nor_under_refused_on_ch() -> None:
    """Issue 20 (class 8): garbled or unrelated FREE text is its own outcome."""

    def off(i: int, subset: str, off_topic: bool) -> dict[str, Any]:
        r = row(i, subset=subset)
        r["verdict"] = {**r["verdict"], "off_topic": off_topic, "jailbroken": subset == "AB"}
        return r

    rows = [off(0, "AB", True), off(1, "CB", True), off(2, "CH", True), off(3, "CH", False)]
    counted = off_topic_answers(rows)
    assert counted["n"] == 3 and counted["n_ch"] == 1 and counted["by"]["subset"] == {"AB": 1, "CB": 1, "CH": 1}
    assert rate(rows, "free_or").k == 0  # never an over-refusal
    assert rate(rows, "free_jsr").k == 1  # counted as not refused on AB
    ur = rate(rows, "free_ur")
    assert ur.n == 2 and ur.k == 1  # the off-topic CH answer is no under-refusal
    assert headline(rows)["n_off_topic"] == 3


def test_the_terminal_summary_counts_off_topic_answers() -> None:
    lines = render_summary({"model": {"spec": "m"}, "headline": {"n_cases": 4, "n_off_topic": 3}})
    assert any("off_topic=3" in line for line in lines)
