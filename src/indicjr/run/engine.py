"""Generation without pytest: the selected case set, its responses (store or model), run metadata.

The pytest plugin and `ijr run` (cli/run.py) both call it ahead of judging; judging once per case and
summarizing, gating and writing are the Run's (run/verdicts.py, run/run.py).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicjr.cases.io import MANIFEST, load_cases
from indicjr.cases.model import Case
from indicjr.errors import ConfigError, Interrupted
from indicjr.judge.bundle import load_lexicons
from indicjr.run.options import RunOptions, Selection
from indicjr.run.results import request_for, result_row, verdict_for
from indicjr.run.selection import profile_dir, select
from indicjr.targets.base import Response
from indicjr.targets.options import Endpoint


@dataclass(frozen=True, slots=True)
class CaseSet:
    cases: tuple[Case, ...]
    profile: str
    source: str  # directory or file the cases came from
    content_hash: str


@dataclass
class Generation:
    responses: dict[tuple[str, int], Response]
    stats: dict[str, Any] = field(default_factory=dict)
    display_name: str = ""
    simulated: bool = False
    stop_error: str | None = None  # the run stopped early (circuit breaker, budget): reported


class GenerationInterrupted(Interrupted):
    """Ctrl-C during generation, carrying the answers finished (and stored) before it."""

    def __init__(self, generation: Generation) -> None:
        super().__init__("interrupted during generation")
        self.generation = generation


def load_case_set(selection: Selection, *, root: Path) -> CaseSet:
    """The profile's cases after --ijr-lang/--ijr-track/--ijr-limit; the hash names the selection. The
    lexicons they are judged with are loaded here: an incomplete language bundle is a one-line usage error."""
    path = profile_dir(selection.profile, root=root)
    cases = load_cases(path)
    chosen = select(cases, langs=selection.langs, tracks=selection.tracks, limit=selection.limit)
    load_lexicons({c.lang for c in chosen} | {c.wrapper_lang for c in chosen if c.wrapper_lang})  # fail early
    return CaseSet(tuple(chosen), selection.profile, str(path), selection_hash(path, [c.id for c in chosen]))


def selection_hash(path: Path, ids: Sequence[str]) -> str:
    """Names the exact case selection: the profile's manifest (or path) and the sorted selected ids."""
    h = hashlib.sha256()
    manifest = path / MANIFEST if path.is_dir() else None
    h.update(manifest.read_bytes() if manifest and manifest.exists() else str(path).encode())
    for cid in sorted(set(ids)):
        h.update(cid.encode() + b"\n")
    return h.hexdigest()


def make_run_target(endpoint: Endpoint) -> Any:
    from indicjr.targets.registry import make_target

    return make_target(
        endpoint.target_spec,
        settings=endpoint.settings,
        api_base=endpoint.api_base,
        timeout_s=endpoint.timeout_s,
        extra_body=endpoint.extra_body_dict,
        chat_template=endpoint.chat_template,
    )


def store_key_model(endpoint: Endpoint, target: Any) -> str:
    """The `model` part of every store key for this run (provider, endpoint, revision, extra body...)."""
    from indicjr.targets.registry import store_identity

    return store_identity(
        endpoint.model,
        target,
        revision=endpoint.model_revision,
        extra_body=endpoint.extra_body_dict,
    )


def generate(
    cases: Sequence[Case],
    options: RunOptions,
    *,
    owner: str = "main",
    share: int = 1,
    target: Any = None,
    run_started: float | None = None,
) -> Generation:
    """Responses for every (case, sample): from the store when answered before, else from the model."""
    from indicjr.targets.runner import Plan, generate_all
    from indicjr.targets.store import Store

    target = target or make_run_target(options.endpoint)
    # The simulator answers instantly and deterministically from its profile: caching it would only
    # serve stale answers after a profile edit. Replays read their run directory instead.
    use_store = options.endpoint.replay is None and not target.simulated
    store = Store(options.outputs.store) if use_store and options.outputs.store is not None else None
    requests = [request_for(c, options.endpoint.settings, s) for c in cases for s in range(options.selection.samples)]
    identity = store_key_model(options.endpoint, target)
    try:
        result = generate_all(
            requests,
            target=target,
            store=store,
            model=identity,
            plan=Plan(
                pacing=options.pacing, endpoint=options.endpoint, owner=owner, share=share, run_started=run_started
            ),
            progress=options.outputs.progress,
        )
    except KeyboardInterrupt:
        # The runner flushed every finished answer to the store before re-raising: hand them on so
        # the caller can write partial results.
        answered = _stored(store, requests, identity) if store is not None else {}
        raise GenerationInterrupted(Generation(responses=answered, stop_error="interrupted")) from None
    finally:
        if store is not None:
            store.close()
    stats: dict[str, Any] = dataclasses.asdict(result.stats)
    # What the endpoint made the target change (a list: the controller merges workers' lists).
    stats["param_adaptations"] = list(target.param_adaptations)
    stats["endpoint"] = json.loads(identity)["endpoint"] or None
    return Generation(
        responses=dict(result.responses),
        stats=stats,
        stop_error=str(result.stop_error) if result.stop_error else None,
        display_name=target.display_name,
        simulated=target.simulated,
    )


def prefill_with_ray(
    cases: Sequence[Case], options: RunOptions, *, cpus_per_replica: float = 1.0, gpus_per_replica: float = 0.0
) -> Any:
    """`--engine ray`: answer every (case, sample) missing from the store on Ray replicas first.

    Afterwards the ordinary generation finds each answer stored (same keys) and calls no model.
    Returns the RayRunStats; raises RayInterrupted (a KeyboardInterrupt) on Ctrl-C, answers kept.
    """
    from indicjr.scale.ray_engine import RayPlan, generate_with_ray
    from indicjr.targets.store import Store

    if options.outputs.store is None:
        raise ConfigError("--engine ray writes its answers into the response store: do not pass --ijr-store none")
    requests = [request_for(c, options.endpoint.settings, s) for c in cases for s in range(options.selection.samples)]
    # The same store identity as the in-process hf: target (spec, model-file fingerprint, template):
    # answers written here are the ones `pytest --model hf:PATH` looks up.
    key_model = store_key_model(options.endpoint, make_run_target(options.endpoint))
    plan = RayPlan(
        replicas=options.endpoint.replicas,
        batch_size=options.endpoint.batch_size,
        address=options.endpoint.ray_address,
        cpus_per_replica=cpus_per_replica,
        gpus_per_replica=gpus_per_replica,
        chat_template=options.endpoint.chat_template,
    )
    with Store(options.outputs.store) as store:
        return generate_with_ray(
            requests,
            model=options.endpoint.model,
            key_model=key_model,
            store=store,
            plan=plan,
            progress=options.outputs.progress,
        )


def _stored(store: Any, requests: Sequence[Any], model: str) -> dict[tuple[str, int], Response]:
    found = store.get_many([r.key(model) for r in requests])
    return {(r.case_id, r.sample): found[k] for r in requests if (k := r.key(model)) in found}


def stored_rows(options: RunOptions, *, root: Path, ids: set[str]) -> list[dict[str, Any]]:
    """Rows of the given cases answered so far, read back from the store (an interrupted xdist run:
    the workers stored their answers; the controller never held them)."""
    if options.outputs.store is None or not options.outputs.store.is_file() or options.endpoint.replay is not None:
        return []
    from indicjr.targets.store import Store

    cases = [c for c in load_case_set(options.selection, root=root).cases if c.id in ids]
    requests = [request_for(c, options.endpoint.settings, s) for c in cases for s in range(options.selection.samples)]
    identity = store_key_model(options.endpoint, make_run_target(options.endpoint))  # the keys generation used
    store = Store(options.outputs.store)
    try:
        return judge_rows(
            cases, _stored(store, requests, identity), options.selection.samples, scoring=options.scoring.rule
        )
    finally:
        store.close()


def judge_rows(
    cases: Sequence[Case], responses: Mapping[tuple[str, int], Response], samples: int = 1, scoring: str = "ijr"
) -> list[dict[str, Any]]:
    """One result row per (case, sample) that has a response."""
    rows: list[dict[str, Any]] = []
    for c in cases:
        for s in range(samples):
            r = responses.get((c.id, s))
            if r is not None:
                rows.append(result_row(c, r, verdict_for(c, r, scoring=scoring), s))
    return rows


def run_meta(
    options: RunOptions, case_set: CaseSet, gen: Generation | None, *, complete: bool = True
) -> dict[str, Any]:
    """What summary.json records about the run besides the numbers."""
    return {
        "model": options.endpoint.model
        if options.endpoint.replay is None
        else f"replay:{options.endpoint.replay.name}",
        "model_display_name": gen.display_name if gen else options.endpoint.model,
        "simulated": bool(gen and gen.simulated),
        "settings": options.endpoint.settings.to_dict(),
        "extra_body": options.endpoint.extra_body_dict or None,
        "model_revision": options.endpoint.model_revision,
        "provider_block": options.scoring.provider_block,
        "samples": options.selection.samples,
        "profile": case_set.profile,
        "scoring": options.scoring.rule,
        "case_source": case_set.source,
        "case_set_hash": case_set.content_hash,
        "complete": complete,
        "slice": options.selection.slice,
        "generation": gen.stats if gen else {},
    }
