"""Determinism: the same request gives the same reply; another sample is an independent draw."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from indicjr.langs import LANGS
from indicjr.targets.base import Request, Settings
from indicjr.targets.sim import make_sim_target

from .helpers import FAMILIES, ORTHS, synthetic

TARGETS = {
    name: make_sim_target(name, Settings())
    for name in ("reference", "paper-gpt-4o", "paper-llama-3.3-70b", "paper-sarvam-1")
}

requests = st.builds(
    synthetic,
    track=st.sampled_from(("json", "free")),
    subset=st.sampled_from(("AB", "CB", "CH")),
    lang=st.sampled_from(LANGS),
    orth=st.sampled_from(ORTHS),
    family=st.sampled_from(FAMILIES),
    mode=st.sampled_from(("same", "cross")),
    i=st.integers(0, 10**6),
    sample=st.integers(0, 50),
)


@settings(max_examples=200, deadline=None)
@given(req=requests, name=st.sampled_from(sorted(TARGETS)))
def test_same_request_gives_the_same_response(req: Request, name: str) -> None:
    target = TARGETS[name]
    fresh = make_sim_target(name, Settings())
    assert target.respond(req) == fresh.respond(req)
    assert target.decide(req) == target.decide(req)


@settings(max_examples=100, deadline=None)
@given(text=st.text(min_size=1, max_size=200), seed=st.integers(0, 2**31), sample=st.integers(0, 9))
def test_requests_without_conditions_are_answered_deterministically(text: str, seed: int, sample: int) -> None:
    req = Request(case_id="", messages=(("user", text),), settings=Settings(seed=seed), sample=sample)
    assert TARGETS["reference"].respond(req) == TARGETS["reference"].respond(req)


def _replace(req: Request, **kw: object) -> Request:
    fields = {
        "case_id": req.case_id,
        "messages": req.messages,
        "settings": req.settings,
        "sample": req.sample,
        "conditions": req.conditions,
    }
    return Request(**{**fields, **kw})  # type: ignore[arg-type]


def test_different_samples_sometimes_differ_and_sometimes_agree() -> None:
    target = TARGETS["reference"]
    changed = agreed = 0
    for i in range(300):
        req = synthetic("json", "AB", "hi", "native", "roleplay", "same", i)
        decisions = {target.decide(_replace(req, sample=k)).action for k in range(6)}
        changed += len(decisions) > 1
        agreed += len(decisions) == 1
    assert changed > 30 and agreed > 30


def test_the_settings_seed_changes_the_draw() -> None:
    target = TARGETS["reference"]
    reqs = [synthetic("free", "AB", "ta", "mixed", "format", "cross", i) for i in range(200)]
    a = [target.respond(r).text for r in reqs]
    b = [target.respond(_replace(r, settings=Settings(seed=14))).text for r in reqs]
    assert a != b
