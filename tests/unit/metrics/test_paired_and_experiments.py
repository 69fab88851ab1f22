"""Paired effects, RRI, the E2 transfer matrix, E6, E7 and sample agreement on hand-sized fixtures."""

from __future__ import annotations

import pytest
from scipy.stats import pearsonr

from indicjr.metrics.agreement import agreement, fleiss_kappa
from indicjr.metrics.correlations import feature_correlations, item_deltas
from indicjr.metrics.paired import effect, mcnemar_exact, paired_delta
from indicjr.metrics.rates import Rate
from indicjr.metrics.reproducibility import reproducibility
from indicjr.metrics.rri import rri
from indicjr.metrics.transfer import transfer_matrix, transfer_summary

from .rowkit import row


def ortho_rows() -> list[dict[str, object]]:
    """Three cores: native jailbroken on c1, c2; romanized jailbroken on c3 only; noisy on c1, c2, c3."""
    rows = []
    for core, nat, rom, noisy in (("c1", 1, 0, 1), ("c2", 1, 0, 1), ("c3", 0, 1, 1)):
        for orth, hit in (("native", nat), ("romanized", rom), ("noisy", noisy)):
            rows.append(
                row(
                    f"{core}-{orth}",
                    core=core,
                    orthography=orth,
                    decision="COMPLY" if hit else "REFUSE",
                    features={
                        "latin_share": {"native": 0.0, "romanized": 1.0, "noisy": 0.9}[orth]
                        + (0.05 if core == "c3" else 0.0)
                    },
                )
            )
    return rows


def test_delta_romanized_by_hand_with_mcnemar_counts() -> None:
    d = effect(ortho_rows(), "romanized")
    assert d.value == pytest.approx(1 / 3 - 2 / 3)
    assert (d.n_pairs, d.n_clusters, d.b, d.c) == (3, 3, 1, 2)
    assert d.p_mcnemar == pytest.approx(1.0)
    assert d.lo is not None and d.hi is not None and d.lo <= d.value <= d.hi


def test_delta_noisy_is_reported_like_the_others() -> None:
    d = effect(ortho_rows(), "noisy")
    assert (d.value, d.b, d.c) == (pytest.approx(1 / 3), 1, 0)


def test_wrapper_effects_pair_cross_and_e2_against_same_language() -> None:
    rows = [
        row("s1", core="c1"),
        row("e1", core="c1", wrapper_lang="en", decision="COMPLY"),
        row("x1", core="c1", wrapper_lang="ta", decision="COMPLY"),
        row("s2", core="c2", decision="COMPLY"),
        row("e2", core="c2", wrapper_lang="en", decision="COMPLY"),
    ]
    cross = effect(rows, "cross_same")
    assert (cross.value, cross.n_pairs, cross.b, cross.c) == (pytest.approx(0.5), 2, 1, 0)
    e2 = effect(rows, "e2_same")
    assert (e2.value, e2.n_pairs) == (pytest.approx(1.0), 1)


def test_bootstrap_needs_two_clusters_and_no_pairs_gives_none() -> None:
    one = paired_delta(
        [row("a"), row("b", orthography="romanized", decision="COMPLY")], "orthography", "romanized", "native"
    )
    assert one.value == 1.0 and one.lo is None
    assert effect([row("a")], "mixed").value is None


def test_rri_section5_form_by_hand() -> None:
    rows = [
        row("ab1", decision="COMPLY"),
        row("ab2"),
        row("ab3"),
        row("ab4", decision="COMPLY"),
        row("cb1", subset="CB", decision="COMPLY"),
        row("cb2", subset="CB", decision="COMPLY"),
        row("cb3", subset="CB", decision="COMPLY"),
        row("cb4", subset="CB"),
    ]
    r = rri(rows, "rri_s5", "json")
    assert (r.attack, r.benign) == (Rate(2, 4), Rate(3, 4))
    assert r.value == pytest.approx(1 - 0.5 / 0.75) and r.reason is None


def test_rri_table4_form_excludes_partials_from_core_success() -> None:
    rows = [
        row("a", track="free", decision="COMPLY"),
        row("b", track="free", decision="COMPLY", partial=True),
        row("c", track="free", subset="CB", decision="COMPLY"),
        row("d", track="free", subset="CB"),
    ]
    t4, s5 = rri(rows, "rri_t4", "free"), rri(rows, "rri_s5", "free")
    assert t4.value == pytest.approx(1 - 0.5 / 0.5) and s5.value == pytest.approx(1 - 1.0 / 0.5)


def test_rri_is_undefined_not_a_number_when_benign_rate_is_zero() -> None:
    r = rri([row("ab", decision="COMPLY"), row("cb", subset="CB")], "rri_s5", "json")
    assert r.value is None and r.reason is not None and "division by zero" in r.reason
    assert rri([row("ab")], "rri_s5", "json").reason == "no CB responses in this slice"


def test_transfer_matrix_cells_by_hand() -> None:
    rows = [
        row("a", lang="hi", wrapper_lang="en", decision="COMPLY"),
        row("b", lang="hi", wrapper_lang="en"),
        row("c", lang="ta", wrapper_lang="hi", decision="COMPLY"),
        row("d", lang="ta"),
        row("e", lang="ta", subset="CB"),
    ]
    m = transfer_matrix(rows)
    assert m.wrappers == ("en", "hi", "ta") and m.cores == ("hi", "ta")
    assert (m.cell("en", "hi"), m.cell("hi", "ta"), m.cell("ta", "ta"), m.cell("hi", "hi")) == (
        Rate(1, 2),
        Rate(1, 1),
        Rate(0, 1),
        Rate(0, 0),
    )
    pools = transfer_summary(m)
    assert pools == {"en_to_indic": Rate(1, 2), "indic_to_indic": Rate(1, 1), "same_language": Rate(0, 1)}


def test_e6_items_are_variant_minus_native_and_match_scipy() -> None:
    rows = ortho_rows()
    items = item_deltas(rows, ("romanized", "noisy"))
    # romanized: c1 -1, c2 -1, c3 +1; noisy: c1 0, c2 0, c3 +1
    assert sorted(d for _, d in items) == [-1, -1, 0, 0, 1, 1]
    c = feature_correlations(rows, ("latin_share",), variants=("romanized", "noisy"))["latin_share"]
    xs = [r["features"]["latin_share"] for r, _ in items]
    ys = [d for _, d in items]
    assert c.n == 6 and c.pearson == pytest.approx(pearsonr(xs, ys).statistic)


def test_e7_identical_runs_correlate_perfectly_and_only_shared_languages_count() -> None:
    rows = ortho_rows()
    out = reproducibility([*rows, row("t", lang="ta", decision="COMPLY")], rows)
    pooled = out["pooled_extra"]
    assert pooled["hi"].pearson == pytest.approx(1.0) and pooled["hi"].spearman == pytest.approx(1.0)
    assert "ta" not in pooled and set(pooled) == {"hi", "all"}
    assert out["shared_answers"] == {"shared_cases": len(rows), "identical_answers": len(rows), "share": 1.0}


def test_agreement_across_samples_by_hand() -> None:
    decisions = [
        ("a", "REFUSE", "REFUSE"),
        ("b", "REFUSE", "COMPLY"),
        ("c", "COMPLY", "COMPLY"),
        ("d", "COMPLY", "COMPLY"),
    ]
    rows = [row(i, sample=s, decision=d) for i, *ds in decisions for s, d in enumerate(ds)]
    ag = agreement(rows)
    assert ag.items == 4 and ag.unanimity == Rate(3, 4) and ag.pairwise == pytest.approx(0.75)
    # Fleiss: P̄ = 0.75; p_R = 3/8, p_C = 5/8; Pe = 34/64.
    assert ag.fleiss_kappa == pytest.approx((0.75 - 34 / 64) / (1 - 34 / 64))
    assert fleiss_kappa([["R", "R"], ["R", "R"]]) is None
    assert agreement([row("x")]).reason is not None


def test_mcnemar_p_keeps_full_precision_in_summary_json_and_the_report() -> None:
    from indicjr.metrics.paired import Delta
    from indicjr.report.tables import fmt_p

    d = Delta(0.5, 0.4, 0.6, 100, 50, 60, 0, mcnemar_exact(60, 0))
    p = d.to_dict()["p_mcnemar"]
    assert p is not None and 0 < p < 1e-15 and p == mcnemar_exact(60, 0)  # not rounded to 0.0
    assert fmt_p(p) == f"{p:.1e}" and fmt_p(0.01234) == "0.0123"
