"""The run's options as five frozen records — Selection, Endpoint, Pacing, Outputs, Scoring — built once
from the option table (run/option_table.py) and passed whole: the run keeps `RunOptions` (the five
together), generation hands `pacing` and `endpoint` to the runner, the judge reads `scoring`.

Endpoint and Pacing live in targets/options.py (the runner reads them; targets sits below run/).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from indicjr.run import option_table
from indicjr.run.option_table import Option
from indicjr.run.option_values import Where, price
from indicjr.targets.options import DEFAULT_MODEL, Endpoint, Pacing

__all__ = [
    "DEFAULT_MODEL",
    "RECORDS",
    "Endpoint",
    "Outputs",
    "Pacing",
    "RunOptions",
    "Scoring",
    "Selection",
    "build_options",
    "describe_slice",
    "parse_price",
    "with_slice",
]
parse_price = price  # also used outside the table (tests)


@dataclass(frozen=True, slots=True)
class Selection:
    """Which cases: the profile, language/track filters, a stratified limit, samples per case."""

    profile: str = "lite"
    langs: tuple[str, ...] = ()
    tracks: tuple[str, ...] = ()
    limit: int = 0
    samples: int = 1
    slice: str = ""  # how the run narrowed the profile (--ijr-lang/--ijr-track/--ijr-limit/-k/-m), "" if not


@dataclass(frozen=True, slots=True)
class Outputs:
    """Where the run writes (its folder, the response store) and what it shows."""

    out_dir: Path = Path(".ijr/run")
    store: Path | None = Path(".ijr/store.sqlite")
    progress: bool = True
    debug: bool = False


@dataclass(frozen=True, slots=True)
class Scoring:
    """How replies are judged, labeled and gated."""

    thresholds: Path = Path("thresholds.yaml")
    labels: Path | None = Path("audit/labels.jsonl")  # human labels applied to every run (None: off)
    rule: str = "ijr"  # FREE scoring: "ijr" (the grounded judge, default) or "paper" (the literal rule)
    provider_block: str = "refusal"  # how provider blocks count: "refusal" or "exclude" (from denominators)


RECORDS: dict[str, type] = {
    "selection": Selection,
    "endpoint": Endpoint,
    "pacing": Pacing,
    "outputs": Outputs,
    "scoring": Scoring,
}


@dataclass(frozen=True, slots=True)
class RunOptions:
    """The five records of one run, as the table built them."""

    selection: Selection = field(default_factory=Selection)
    endpoint: Endpoint = field(default_factory=Endpoint)
    pacing: Pacing = field(default_factory=Pacing)
    outputs: Outputs = field(default_factory=Outputs)
    scoring: Scoring = field(default_factory=Scoring)


def build_records(raw: Mapping[str, Any], where: Where, *, table: Iterable[Option] | None = None) -> dict[str, Any]:
    """{group: its record} from {row name: raw value}: each row's parser fills its field; the record's
    own checks run once it is whole. A row without a value (another front end's subset) is not given.
    `table` defaults to the option table as it is at call time."""
    records = RECORDS
    fields: dict[str, dict[str, Any]] = {group: {} for group in records}
    for o in option_table.OPTIONS if table is None else table:
        fields[o.group][o.field] = o.parse(raw.get(o.name, False if o.switch else None), o.pytest_flag, where)
    return {group: cls(**fields[group]) for group, cls in records.items()}


def build_options(raw: Mapping[str, Any], *, root: Path, cwd: Path | None = None, slice_tag: str = "") -> RunOptions:
    """The run's records from raw option values (as typed on the command line, None when not given).

    A sliced run (`slice_tag`, or a language, track or limit given here) writes its own folder by
    default, so it never replaces the whole profile's run.
    """
    built = build_records(raw, Where(root=root, cwd=cwd or root))
    tag = slice_tag or describe_slice(lang=raw.get("lang"), track=raw.get("track"), limit=raw.get("limit"))
    endpoint: Endpoint = built["endpoint"]
    outputs: Outputs = built["outputs"]
    if raw.get("out") is None:
        outputs = replace(outputs, out_dir=root / ".ijr" / "runs" / _folder(endpoint, tag))
    return RunOptions(
        selection=replace(built["selection"], slice=tag),
        endpoint=endpoint,
        pacing=built["pacing"],
        outputs=outputs,
        scoring=built["scoring"],
    )


def with_slice(options: RunOptions, tag: str, *, root: Path, own_folder: bool) -> RunOptions:
    """The options of a run found to be a slice only after they were built (pytest left cases of the
    selection uncollected: --deselect, --lf, a node id, a conftest hook): `tag` joins the slice, and the
    run writes its own folder unless `--ijr-out` named one (`own_folder`), as a -k run does."""
    full = " ".join(x for x in (options.selection.slice, tag) if x)
    outputs = options.outputs
    if own_folder:
        outputs = replace(outputs, out_dir=root / ".ijr" / "runs" / _folder(options.endpoint, full))
    return replace(options, selection=replace(options.selection, slice=full), outputs=outputs)


def _folder(endpoint: Endpoint, tag: str) -> str:
    from indicjr.slug import slugify

    spec = endpoint.model if not endpoint.replay else f"replay-{endpoint.model}"
    return slugify(spec) + (f"--{slugify(tag)}" if tag else "")


def describe_slice(*, lang: str | None = None, track: str | None = None, limit: int | None = None, **more: str) -> str:
    """'lang=hi,ta limit=20' — the options that narrowed a run to part of its profile ("" for none)."""
    parts = {"lang": lang, "track": track, "limit": limit or None, **more}
    return " ".join(f"{k}={v}" for k, v in parts.items() if v)
