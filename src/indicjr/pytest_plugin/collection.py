"""Collection: every selected case becomes one parametrized test with a readable id and markers.

xdist needs identical collection on every worker: cases come from files in a fixed sorted order, ids
are the case ids, and markers derive from the case alone.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest

from indicjr.cases.model import Case
from indicjr.langs import LANGS, Family, Orthography, Subset, Track

MARKERS: dict[str, str] = {
    **{f"lang_{lang}": f"cases in language {lang}" for lang in LANGS},
    **{t.value: f"{t.value.upper()} track cases" for t in Track},
    **{s.value: f"{s.value} subset cases" for s in Subset},
    **{o.value: f"{o.value} orthography cases" for o in Orthography},
    **{f"family_{f.value}": f"AB cases with the {f.value} wrapper family" for f in Family},
    "mode_same": "AB cases with a same-language wrapper",
    "mode_cross": "AB cases with a cross-language wrapper (English or E2)",
    "e2": "AB cases whose wrapper is in another Indic language (the paper's E2)",
    "ijr_case": "an IndicJR benchmark case",
}


def register_markers(config: pytest.Config) -> None:
    for name, doc in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {doc}")


@functools.cache
def _mark(name: str) -> pytest.MarkDecorator:
    return getattr(pytest.mark, name)  # type: ignore[no-any-return]


def marks_for(case: Case) -> list[pytest.MarkDecorator]:
    names = ["ijr_case", f"lang_{case.lang}", case.track, case.subset, case.orthography]
    if case.family:
        names.append(f"family_{case.family}")
    if case.mode:
        names.append(f"mode_{case.mode}")
    if case.e2:
        names.append("e2")
    return [_mark(n) for n in names]


def params(cases: tuple[Case, ...]) -> Iterator[object]:
    for case in cases:
        yield pytest.param(case, id=case.id, marks=marks_for(case))
