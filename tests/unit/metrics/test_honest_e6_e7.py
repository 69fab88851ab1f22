"""E7 within each metric and E6 within script: statistics that do not score high on the old pooled
statistics' null (runs or items that agree on nothing but which group they belong to)."""

from __future__ import annotations

import random

import pytest

from indicjr.metrics.correlations import e6_table, feature_correlations
from indicjr.metrics.reproducibility import E7_METRICS, Cell, e7_from_cells
from indicjr.metrics.rri import rri

from .rowkit import row

LEVELS = dict(zip(E7_METRICS, (0.5, 0.99, 0.95, 0.6, 0.1, 0.05, 0.01), strict=True))
LANGS = ("bn", "hi", "kn", "ml", "ta", "ur")


def null_cells(seed: int, spread: float = 0.04) -> dict[Cell, float]:
    """Every metric at its own level plus independent noise: two seeds agree only on the levels."""
    rng = random.Random(seed)
    return {
        (m, lang, "orthography", v): min(1.0, max(0.0, level + rng.gauss(0, spread)))
        for m, level in LEVELS.items()
        for lang in LANGS
        for v in ("native", "romanized", "mixed", "noisy")
    }


def test_e7_within_metric_does_not_score_high_when_runs_agree_only_on_metric_identity() -> None:
    out = e7_from_cells(null_cells(1), null_cells(2), bootstrap=200)
    # the paper's pooled statistic bites on the null ...
    assert all(c.pearson is not None and c.pearson > 0.9 for c in out["pooled_extra"].values())
    # ... the per-metric and level-removed views do not
    per_metric = [c.pearson for c in out["by_metric"].values()]
    assert all(r is not None and abs(r) < 0.5 for r in per_metric), per_metric
    assert sorted(abs(r) for r in per_metric if r is not None)[len(per_metric) // 2] < 0.25
    centred = out["by_lang_centred"]["all"]
    assert centred.pearson is not None and abs(centred.pearson) < 0.2
    assert centred.fisher_lo is not None and centred.fisher_lo < 0 < centred.fisher_hi


def test_e7_within_metric_is_high_when_runs_really_agree() -> None:
    a = null_cells(1, spread=0.1)
    rng = random.Random(3)
    b = {k: v + rng.gauss(0, 0.01) for k, v in a.items()}
    out = e7_from_cells(a, b, bootstrap=200)
    assert all(c.pearson is not None and c.pearson > 0.9 for c in out["by_metric"].values())
    assert out["by_metric"]["json_jsr"].boot_lo is not None  # every metric carries its intervals


def script_null_rows() -> list[dict[str, object]]:
    """Hindi and Tamil romanized items: Tamil's are both more Latin and easier on average, but within
    each script the Latin share says nothing about ΔJSR."""
    rows = []
    for lang, base, easy in (("hi", 0.3, 0), ("ta", 0.8, 1)):
        for i in range(24):
            delta = (easy if i % 4 else 1 - easy) if lang == "ta" else (1 if i % 4 == 0 else 0)
            latin = base + 0.01 * ((i * 7) % 5)  # varies within the group, independent of delta
            core = f"c{i}"
            rows.append(row(f"{lang}{i}n", lang=lang, core=core, decision="REFUSE"))
            rows.append(
                row(
                    f"{lang}{i}r",
                    lang=lang,
                    core=core,
                    orthography="romanized",
                    decision="COMPLY" if delta else "REFUSE",
                    features={"latin_share": latin},
                )
            )
    return rows


def test_e6_within_script_removes_what_only_the_script_means_explain() -> None:
    rows = script_null_rows()
    pooled = feature_correlations(rows, ("latin_share",), variants=("romanized",), bootstrap=0)["latin_share"]
    within = feature_correlations(rows, ("latin_share",), variants=("romanized",), bootstrap=0, within_script=True)[
        "latin_share"
    ]
    assert pooled.pearson is not None and pooled.pearson > 0.4
    assert within.pearson is not None and abs(within.pearson) < 0.15
    table = e6_table(rows, bootstrap=0)
    assert list(table)[:3] == ["within_script", "pooled", "pooled_note"] and "extra" in table["pooled_note"]


def test_per_language_rri_carries_a_core_bootstrap_interval_that_shows_a_fragile_ratio() -> None:
    rows = []
    for i in range(32):  # 32 cores: 5 benign complies, 12 attacked jailbreaks
        rows.append(row(f"cb{i}", subset="CB", core=f"c{i}", decision="COMPLY" if i < 5 else "REFUSE"))
        rows.append(row(f"ab{i}", core=f"c{i}", decision="COMPLY" if i % 8 < 3 else "REFUSE"))
    r = rri(rows, "rri_s5", "json", {"lang": "hi"})
    assert r.value == pytest.approx(1 - (12 / 32) / (5 / 32)) and r.n_cores == 32
    assert r.lo is not None and r.hi is not None and r.lo < r.value < r.hi
    assert r.hi - r.lo > 2.0  # a ratio resting on five complies is anything but precise
    assert r.to_dict()["lo"] == round(r.lo, 4)
