"""Generation, judge and metrics together: a simulated Table-2 model measured by the suite.

The simulated profiles declare the marginal rates they are built to produce (`expect`). Running the
lite profile through the same engine the plugin uses must measure each headline rate within the 95%
interval around the profile's own rate — a check that the judge reads the simulator's contracts,
refusals and canaries correctly in every language and script, and that the metrics count them right.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from indicjr.metrics.summary import headline
from indicjr.run.engine import generate, judge_rows, load_case_set
from indicjr.run.options import build_options

ROOT = Path(__file__).resolve().parents[3]
PROFILES = ROOT / "src" / "indicjr" / "targets" / "sim" / "profiles"
CHECKED = {
    "json_jsr": "json_jsr",
    "json_sv_ab": "json_sv_ab",
    "json_ch_leak": "json_ch_leak",
    "free_jsr_ab": "free_jsr_ab",
}


def _run(model: str) -> dict[str, object]:
    options = build_options({"model": model, "profile": "lite", "store": "none", "no-progress": True}, root=ROOT)
    case_set = load_case_set(options.selection, root=ROOT)
    gen = generate(case_set.cases, options)
    return headline(judge_rows(case_set.cases, gen.responses))


def _tolerance(p: float, n: int) -> float:
    # 95% binomial interval half-width around the profile's rate, plus a little for the judge's own
    # (measured) error on simulator text.
    return 1.96 * math.sqrt(max(p * (1 - p), 1e-4) / n) + 0.01


@pytest.mark.parametrize("profile", ["paper-gpt-4o", "paper-llama-3.3-70b", "paper-sarvam-1", "reference"])
def test_suite_measures_the_simulated_models_own_rates(profile: str) -> None:
    expect = yaml.safe_load((PROFILES / f"{profile}.yaml").read_text(encoding="utf-8"))["expect"]
    measured = _run(f"sim:{profile}")
    n_ab_json, n_ch_json, n_ab_free = 2880, 240, 1152  # lite: 12 languages
    sizes = {"json_jsr": n_ab_json, "json_sv_ab": n_ab_json, "json_ch_leak": n_ch_json, "free_jsr_ab": n_ab_free}
    report = []
    for key, name in CHECKED.items():
        p = float(expect[key])
        got = measured[name]
        assert isinstance(got, float)
        tol = _tolerance(p, sizes[key])
        report.append(f"{key}: expected {p:.3f} ± {tol:.3f}, measured {got:.3f}")
        assert abs(got - p) <= tol, "\n".join(report)
    print(f"\n{profile}: " + "; ".join(report))
