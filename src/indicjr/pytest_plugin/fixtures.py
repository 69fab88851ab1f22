"""Fixtures of a case test: case, target, response, judge, verdict — and the hard per-case check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from indicjr.cases.model import Case
from indicjr.judge.verdict import Verdict
from indicjr.pytest_plugin.state import RunState, get_state, rows_for
from indicjr.run.results import verdict_for
from indicjr.targets.base import Response

ROWS_ATTR = "ijr_rows"  # on the call report: the rows, shipped to the controller (JSON-able)
OUTCOME_ATTR = "ijr_outcome"  # on the call report: the progress letter
CASE_TEST_ATTR = "ijr_case_test"  # on the setup report of a case test: tells the xdist controller which
# collected node ids are the run's cases (a project's own parametrized tests are not)
REPLY_CHARS = 100  # how much of a leaking reply a failure message shows
LEAK_PREFIX = "canary leak on "  # the first line of a leak failure (the IndicJR section lists these)


def _state(request: pytest.FixtureRequest) -> RunState:
    state = get_state(request.config)
    if state is None:
        pytest.fail("indicjr: the plugin is not configured in this session", pytrace=False)
    if state.error:
        pytest.fail(f"indicjr: generation stopped: {state.error}", pytrace=False)
    return state


@pytest.fixture
def case(request: pytest.FixtureRequest) -> Case:
    """The benchmark case of this test (parametrized by the plugin)."""
    return request.param  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def target(request: pytest.FixtureRequest) -> str:
    """The model under test, as its --model spec (generation already ran ahead of the tests)."""
    return _state(request).options.endpoint.model


@pytest.fixture(scope="session")
def ijr_state(request: pytest.FixtureRequest) -> RunState:
    """The run's state, once per session: per-case fixtures take it instead of `request`, which pytest
    builds a new fixture definition for every time it is asked (an inspect.signature call per case)."""
    return _state(request)


@pytest.fixture
def response(ijr_state: RunState, case: Case) -> Response:
    """The model's response to this case (sample 0), from the run's generation phase."""
    assert ijr_state.generation is not None
    r = ijr_state.generation.responses.get((case.id, 0))
    if r is None:
        why = ijr_state.generation.stop_error or "no response was generated"
        pytest.fail(f"indicjr: {case.id}: {why}", pytrace=False)
    return r


@pytest.fixture
def judge(ijr_state: RunState, case: Case) -> Callable[[Response], Verdict]:
    """The deterministic judge bound to this case's conditions."""
    return lambda resp: verdict_for(case, resp, scoring=ijr_state.options.scoring.rule)


@pytest.fixture
def verdict(ijr_state: RunState, case: Case, response: Response) -> Verdict:
    """The verdict on this case; its rows go on the test's call report (see case_rows) so that the
    controller can aggregate them."""
    return ijr_state.judged.verdict(case, response)  # judged once: the rows read the same cache


def case_rows(item: pytest.Item) -> tuple[list[dict[str, Any]], str] | None:
    """The result rows and progress letter of a case test that used the verdict fixture, else None."""
    funcargs: dict[str, Any] = getattr(item, "funcargs", {})
    v = funcargs.get("verdict")
    case = funcargs.get("case")
    state = get_state(item.config)
    if not isinstance(v, Verdict) or not isinstance(case, Case) or state is None:
        return None
    return rows_for(state, case), v.outcome  # direct lookups: a scan per case made runs quadratic


def check_hard_violations(
    case: Case,
    verdict: Verdict,
    subsets: frozenset[str] = frozenset({"CH"}),
    *,
    reply: str = "",
    results: str = "results.jsonl",
) -> None:
    """Fail the case test only for what thresholds.yaml declares a hard per-case violation.

    The failure is one short message a reviewer can act on — case id, what leaked, the reply's first
    characters, where its results row is — and no traceback (the traceback would only show this line).
    """
    if verdict.error:
        return  # an inference error is counted and reported, not a safety failure
    if verdict.leak_canary and case.subset in subsets:
        pytest.fail(leak_message(case, reply, results), pytrace=False)


def leak_message(case: Case, reply: str, results: str) -> str:
    head = " ".join(reply.split())
    head = head[:REPLY_CHARS] + ("…" if len(head) > REPLY_CHARS else "")
    return (
        f"{LEAK_PREFIX}{case.id} ({case.lang}, {case.track}, {case.orthography}): the reply repeats "
        f'{case.canary}\n  reply: {head!r}\n  row: {results} ("id": "{case.id}")'
    )


def rows_of(report: Any) -> list[dict[str, Any]]:
    """The result rows a case test's call report carries (empty for other reports)."""
    return list(getattr(report, ROWS_ATTR, None) or ())
