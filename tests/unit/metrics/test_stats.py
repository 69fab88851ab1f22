"""Intervals, tests and correlations against scipy reference values and hand arithmetic."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest, norm, pearsonr, spearmanr

from indicjr.metrics.paired import mcnemar_exact
from indicjr.metrics.rates import wilson
from indicjr.metrics.stats import correlate, fisher_interval, holm, two_proportion_p


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 3), (7, 30), (15, 15), (512, 1000), (1, 2000)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson(k, n)  # type: ignore[misc]
    assert lo == pytest.approx(ci.low, abs=1e-9) and hi == pytest.approx(ci.high, abs=1e-9)


def test_wilson_is_undefined_for_empty_slices() -> None:
    assert wilson(0, 0) is None


def test_mcnemar_exact_by_hand() -> None:
    # b=1, c=6: two-sided binomial p = 2 * (C(7,0) + C(7,1)) / 2^7 = 16/128.
    assert mcnemar_exact(1, 6) == pytest.approx(0.125)
    assert mcnemar_exact(0, 0) is None


def test_two_proportion_test_by_hand() -> None:
    pooled = 75 / 200
    z = (0.30 - 0.45) / math.sqrt(pooled * (1 - pooled) * (2 / 100))
    assert two_proportion_p(30, 100, 45, 100) == pytest.approx(2 * norm.sf(abs(z)))
    assert two_proportion_p(1, 0, 1, 5) is None


def test_holm_adjustment_by_hand() -> None:
    assert holm([0.01, 0.04, 0.03, None]) == pytest.approx([0.03, 0.06, 0.06, None])  # type: ignore[arg-type]


def test_pearson_fisher_and_spearman_match_scipy() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=60)
    y = 0.4 * x + rng.normal(size=60)
    c = correlate(list(x), list(y))
    ref = pearsonr(x, y)
    ci = ref.confidence_interval(0.95)  # scipy's interval is the Fisher-z one
    assert c.pearson == pytest.approx(ref.statistic) and c.p_pearson == pytest.approx(ref.pvalue)
    assert (c.fisher_lo, c.fisher_hi) == (pytest.approx(ci.low), pytest.approx(ci.high))
    assert c.spearman == pytest.approx(spearmanr(x, y).statistic)
    assert c.boot_lo is not None and c.boot_hi is not None
    assert c.boot_lo < c.pearson < c.boot_hi and c.boot_hi - c.boot_lo < 0.6


def test_fisher_interval_by_hand() -> None:
    lo, hi = fisher_interval(0.5, 28)  # type: ignore[misc]
    half = 1.959963984540054 / 5
    assert (lo, hi) == (
        pytest.approx(math.tanh(math.atanh(0.5) - half)),
        pytest.approx(math.tanh(math.atanh(0.5) + half)),
    )
    assert fisher_interval(0.5, 3) is None


@pytest.mark.parametrize(
    ("x", "y", "reason"),
    [
        ([1.0, 2.0], [1.0, 2.0], "only 2 paired values"),
        ([1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0], "first variable is constant"),
        ([1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0], "second variable is constant"),
    ],
)
def test_undefined_correlation_is_none_with_a_reason(x: list[float], y: list[float], reason: str) -> None:
    c = correlate(x, y)
    assert c.pearson is None and c.spearman is None and c.fisher_lo is None
    assert c.reason is not None and reason in c.reason


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1500), st.integers(0, 1500))
def test_mcnemar_exact_equals_scipy_binomtest(b: int, c: int) -> None:
    """Both branches (exact integers up to 1,000 discordant pairs, the float tail beyond) equal scipy."""
    if b + c == 0:
        assert mcnemar_exact(b, c) is None
        return
    ref = binomtest(b, b + c, 0.5).pvalue
    assert mcnemar_exact(b, c) == pytest.approx(ref, rel=1e-9, abs=1e-250)  # scipy underflows to 0 first


def test_mcnemar_exact_at_full_scale() -> None:
    for b, c in ((9_000, 9_400), (100, 20_000), (10_000, 10_000), (5_000, 5_200)):
        assert mcnemar_exact(b, c) == pytest.approx(
            binomtest(b, b + c, 0.5).pvalue, rel=1e-9, abs=1e-250
        )  # scipy underflows to 0 first


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.floats(-3, 3, allow_nan=False)), min_size=3, max_size=60),
    st.floats(-1, 1),
)
def test_correlate_equals_scipy_with_ties(pairs: list[tuple[int, float]], slope: float) -> None:
    """Pearson and Spearman (average ranks for ties) and both p-values equal scipy.stats."""
    x = [float(a) for a, _ in pairs]
    y = [slope * a + e for a, e in pairs]
    c = correlate(x, y, bootstrap=0)
    if c.reason:
        return
    pr, sr = pearsonr(x, y), spearmanr(x, y)
    assert c.pearson == pytest.approx(pr.statistic, abs=1e-9)
    assert c.p_pearson == pytest.approx(pr.pvalue, rel=1e-6, abs=1e-7)  # |r| = 1 - eps: noise
    assert c.spearman == pytest.approx(sr.statistic, abs=1e-9)
    assert c.p_spearman == pytest.approx(sr.pvalue, rel=1e-6, abs=1e-7)


def test_summarizing_imports_no_scipy_stats() -> None:
    """scipy.stats takes ~0.65 s to import; the run's own processes must not pay it."""
    code = (
        "import sys; from indicjr.metrics.stats import correlate; from indicjr.metrics.paired import mcnemar_exact;"
        "correlate([1.0, 2.0, 3.0, 5.0], [2.0, 1.0, 4.0, 3.0]); mcnemar_exact(3, 9);"
        "assert 'scipy.stats' not in sys.modules, 'scipy.stats imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
