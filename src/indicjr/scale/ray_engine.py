"""The Ray driver: send what the store is missing through Ray Data to N model replicas, store answers.

Data flow: requests -> keys -> store.get_many (already answered: skipped) -> Ray Data dataset (sorted by
prompt length, so a batch pads little) -> `map_batches(HFReplica, concurrency=N)` -> streamed back to
the driver -> `Store.put_many`, batch by batch. The driver is the only writer, with the same keys as
every other target, so `pytest --model hf:PATH` afterwards finds every answer stored and calls no model.

Failures: Ray Data restarts a replica whose process dies and re-runs its batch (actor pools default to
unlimited restarts and task retries); the driver writes a key at most once per run (a re-run batch's
duplicate rows are counted and dropped), and the store never overwrites an answer. Ctrl-C stops the
stream: every batch already received is in the store, a rerun requests only what is missing.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from indicjr.errors import ConfigError, Interrupted
from indicjr.scale.replica import COLUMNS, HFReplica, encode_request
from indicjr.targets.base import Request, Response
from indicjr.targets.progress import ProgressSnapshot, make_progress
from indicjr.targets.store import Store, StoreRow

INSTALL_HINT = "--engine ray needs `pip install 'indicjr[ray]'` (and the hf extra for the model)"


@dataclass(frozen=True, slots=True)
class RayPlan:
    """How to spread the work: replicas, batch size, resources per replica, where the cluster is."""

    replicas: int = 1
    batch_size: int = 8
    cpus_per_replica: float = 1.0
    gpus_per_replica: float = 0.0
    address: str | None = None  # None: start a local cluster; "auto" or ray://...: join one
    engine: str = "auto"  # replica backend: auto | hf | vllm
    chat_template: str = "auto"  # as --ijr-chat-template: "none" renders the plain prompt format


@dataclass(frozen=True, slots=True)
class RayRunStats:
    n_requests: int
    n_stored_before: int
    n_generated: int
    n_errors: int
    n_duplicates_dropped: int
    replicas_seen: int
    startup_s: float
    wall_s: float
    interrupted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def hf_path(model: str) -> str:
    """The model folder of an `hf:PATH` spec; ConfigError for any other scheme."""
    scheme, _, path = model.partition(":")
    if scheme.strip().lower() != "hf" or not path.strip():
        raise ConfigError(f"--engine ray: --model must be hf:PATH (a local transformers model), got {model!r}")
    return path.strip()


def missing(requests: Sequence[Request], store: Store, model: str) -> tuple[list[tuple[str, Request]], int]:
    """(key, request) pairs with no stored answer (first occurrence of each key), and how many had one."""
    keyed = [(r.key(model), r) for r in requests]
    answered = store.get_many(k for k, _ in keyed)
    seen: set[str] = set()
    todo = []
    for key, req in keyed:
        if key not in answered and key not in seen:
            seen.add(key)
            todo.append((key, req))
    return todo, len({k for k, _ in keyed if k in answered})


def generate_with_ray(
    requests: Sequence[Request],
    *,
    model: str,
    store: Store,
    key_model: str | None = None,
    plan: RayPlan = RayPlan(),
    progress: bool | Callable[[ProgressSnapshot], None] = True,
) -> RayRunStats:
    """Answer every request missing from the store on Ray replicas; returns what happened.

    `model` is the `hf:PATH` spec; `key_model` the identity the store keys use (the run's
    store_key_model, the same as the in-process target's), `model` itself when not given.
    """
    path = hf_path(model)
    key_model = key_model or model
    todo, n_before = missing(requests, store, key_model)
    if not todo:  # a rerun: nothing to do, and no cluster is started for it
        return RayRunStats(len(requests), n_before, 0, 0, 0, 0, 0.0, 0.0)
    try:
        import ray
    except ImportError:
        raise ConfigError(INSTALL_HINT) from None
    t0 = time.perf_counter()
    started_here = _connect(ray, plan.address)
    startup = time.perf_counter() - t0
    bar = make_progress(progress, len(todo))
    by_key = {k: r for k, r in todo}
    written: set[str] = set()
    n_err = n_dup = tok_in = tok_out = 0
    replicas: set[str] = set()
    interrupted = False
    try:
        for batch in _quiet(_stream(ray, todo, path=path, name=model, plan=plan)):
            rows, dup = _rows(batch, by_key, written, key_model)
            n_dup += dup
            if rows:
                store.put_many(rows)
            n_err += sum(1 for r in rows if r.response.error)
            tok_in += sum(r.response.input_tokens for r in rows)
            tok_out += sum(r.response.output_tokens for r in rows)
            replicas.update(str(x) for x in batch["replica"])
            if bar is not None:
                bar.update(done=len(written), errors=n_err, tokens_in=tok_in, tokens_out=tok_out)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        try:
            if bar is not None:
                bar.update(done=len(written), errors=n_err, tokens_in=tok_in, tokens_out=tok_out, final=True)
        except KeyboardInterrupt:  # a second Ctrl-C while reporting: still stop cleanly
            interrupted = True
        if started_here:
            ray.shutdown()
    stats = RayRunStats(
        n_requests=len(requests),
        n_stored_before=n_before,
        n_generated=len(written),
        n_errors=n_err,
        n_duplicates_dropped=n_dup,
        replicas_seen=len(replicas),
        startup_s=round(startup, 3),
        wall_s=round(time.perf_counter() - t0, 3),
        interrupted=interrupted,
    )
    if interrupted:
        raise RayInterrupted(stats)
    return stats


class RayInterrupted(Interrupted):
    """Ctrl-C during a Ray run, carrying the stats (everything received is already in the store)."""

    def __init__(self, stats: RayRunStats) -> None:
        super().__init__("interrupted during ray generation")
        self.stats = stats


def _connect(ray: Any, address: str | None) -> bool:
    """Join the cluster at `address`, or start a local one; True when this call started Ray."""
    if ray.is_initialized():
        return False
    import logging

    for name in ("ray", "ray.data"):  # Ray's INFO/WARNING chatter would bury the progress line
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    except ConnectionError as exc:
        raise ConfigError(f"--ray-address {address!r}: cannot reach a Ray cluster: {exc}") from None
    return True


def _stream(ray: Any, todo: Sequence[tuple[str, Request]], *, path: str, name: str, plan: RayPlan) -> Any:
    """Output batches of the replicas, as they finish (order not preserved)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return _dataset(ray, todo, path=path, name=name, plan=plan)


def _dataset(ray: Any, todo: Sequence[tuple[str, Request]], *, path: str, name: str, plan: RayPlan) -> Any:
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.execution_options.preserve_order = False
    # Longest prompts first: equal-length neighbours pad little, and the slowest batches start early.
    items = sorted(todo, key=lambda kr: -sum(len(c) for _, c in kr[1].messages))
    ds = ray.data.from_items([{"key": k, "payload": encode_request(r)} for k, r in items])
    answered = ds.map_batches(
        HFReplica,
        fn_constructor_kwargs={
            "path": path,
            "name": name,
            "engine": plan.engine,
            "threads": _threads(plan),
            "chat_template": plan.chat_template,
        },
        batch_size=plan.batch_size,
        batch_format="numpy",
        compute=ray.data.ActorPoolStrategy(size=plan.replicas),
        num_cpus=plan.cpus_per_replica,
        num_gpus=plan.gpus_per_replica,
    )
    return answered.iter_batches(batch_size=None, batch_format="numpy")


def _quiet(batches: Any) -> Iterator[dict[str, Any]]:
    """Iterate with Ray's internal DeprecationWarnings silenced: they are Ray's, not the user's, and
    under pytest's `filterwarnings = error` they would abort a run."""
    it = iter(batches)
    while True:
        _console_warnings_only()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                batch = next(it)
            except StopIteration:
                return
        yield batch


def _console_warnings_only() -> None:
    """Ray Data logs each execution's start and end to the console at INFO, over our progress line;
    its log file (in the Ray session folder) keeps everything. Ray re-configures its logging when an
    execution starts, hence a check per batch (a loop over one or two handlers)."""
    import logging

    for handler in logging.getLogger("ray.data").handlers:
        if isinstance(handler, logging.StreamHandler) and handler.level < logging.WARNING:
            handler.setLevel(logging.WARNING)


def _threads(plan: RayPlan) -> int | None:
    return max(1, int(plan.cpus_per_replica)) if plan.gpus_per_replica == 0 else None


def _rows(
    batch: dict[str, Any], by_key: dict[str, Request], written: set[str], model: str
) -> tuple[list[StoreRow], int]:
    """Store rows for keys not yet written in this run; (rows, duplicates dropped)."""
    rows: list[StoreRow] = []
    dup = 0
    cols = [list(batch[c]) for c in COLUMNS]
    for key, text, finish, tin, tout, lat, err, _replica in zip(*cols, strict=True):
        key = str(key)
        if key in written or key not in by_key:
            dup += 1
            continue
        written.add(key)
        req = by_key[key]
        resp = Response(
            text=str(text),
            finish_reason=str(finish),
            input_tokens=int(tin),
            output_tokens=int(tout),
            latency_s=float(lat),
            error=str(err) or None,
        )
        rows.append(StoreRow(key=key, model=model, case_id=req.case_id, sample=req.sample, response=resp))
    return rows, dup


def print_stats(stats: RayRunStats, *, stream: Any = sys.stderr) -> None:
    """One summary line for the CLI and the pytest plugin."""
    print(
        f"ijr generate (ray): {stats.n_generated} answered by {stats.replicas_seen} replica(s), "
        f"{stats.n_stored_before} already in the store, {stats.n_errors} errors, "
        f"{stats.n_duplicates_dropped} duplicate rows dropped; ray start {stats.startup_s:.1f} s, "
        f"wall {stats.wall_s:.1f} s" + ("; INTERRUPTED — rerun to finish" if stats.interrupted else ""),
        file=stream,
    )
