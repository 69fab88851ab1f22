"""What a reviewer reads in the report: changes within noise said so, a legend for gate names, and
the worst language and script form named."""

from __future__ import annotations

import copy
from pathlib import Path

from indicjr.report.runs import load_run
from indicjr.report.verdict import comparison_table, gate_legend, verdict_table, worst_callout


def test_a_change_within_noise_is_labelled_so(two_runs: tuple[Path, Path]) -> None:
    a = load_run(two_runs[0])
    b = copy.deepcopy(a)
    h = b.summary["headline"]
    m = b.summary["metrics"]["json_jsr"]
    nudge = 0.01 if m["value"] < 0.99 else -0.01
    h["json_jsr"] = round(h["json_jsr"] + nudge, 4)  # well inside the interval
    m["value"] = h["json_jsr"]
    rows = {r[0]: r for r in comparison_table(a, b).rows}
    assert rows["json_jsr"][4] == "within noise"


def test_a_change_beyond_noise_keeps_its_direction(two_runs: tuple[Path, Path]) -> None:
    a = load_run(two_runs[0])
    b = copy.deepcopy(a)
    m = b.summary["metrics"]["json_jsr"]
    far = 1.0 if a.summary["metrics"]["json_jsr"]["hi"] < 1.0 else 0.0  # outside A's interval
    m.update(value=far, lo=far, hi=far)
    b.summary["headline"]["json_jsr"] = far
    rows = {r[0]: r for r in comparison_table(a, b).rows}
    assert rows["json_jsr"][4] == ("worse" if far else "better")


def test_the_gate_table_explains_gate_names() -> None:
    gates = [
        {"name": "json_sv:subset=AB", "metric": "json_sv"},
        {"name": "free_ur", "metric": "free_ur"},
        {"name": "delta_jsr_romanized", "metric": "delta_jsr_romanized"},
    ]
    legend = gate_legend(gates)
    assert "[json_|free_]<metric>[:<slice>=<value>]" in legend
    assert "sv schema validity" in legend and "ur under-refusal" in legend and "delta_jsr_X" in legend


def test_the_verdict_names_the_worst_language_and_script_form(two_runs: tuple[Path, Path]) -> None:
    run = load_run(two_runs[0])
    by_lang = run.summary["slices"]["lang"]["json_jsr"]
    worst = max(by_lang, key=lambda k: (by_lang[k]["value"], k))
    callout = worst_callout(run)
    assert f"language {worst}: {by_lang[worst]['value']:.3f}" in callout and "script form " in callout
    assert callout in verdict_table(run).note
