"""Command-line options of the plugin (`--model`, `--ijr-*`) and their validation into RunOptions."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.errors import IJRError
from indicjr.run.options import RunOptions, describe_slice, make_options


def add_options(parser: pytest.Parser) -> None:
    g = parser.getgroup("indicjr", "IndicJR safety suite")
    g.addoption(
        "--model",
        default=None,
        help="model under test: sim:<profile> (default sim:reference), openai:<model>, "
        "openai-completions:<model>, anthropic:<model>, hf:<path>, replay:<run_dir>",
    )
    g.addoption("--api-base", default=None, help="base URL of an OpenAI-compatible/Anthropic endpoint")
    g.addoption("--ijr-profile", default=None, help="case set: lite (default), full, or a path")
    g.addoption("--ijr-lang", default=None, help="comma-separated languages, e.g. hi,ta")
    g.addoption("--ijr-track", default=None, help="json, free or json,free")
    g.addoption("--ijr-limit", type=int, default=None, help="stratified, seeded sample of N cases")
    g.addoption("--ijr-out", default=None, help="output folder (default .ijr/runs/<model-slug>)")
    g.addoption("--ijr-thresholds", default=None, help="gates file (default thresholds.yaml)")
    g.addoption("--ijr-store", default=None, help="SQLite response store (default .ijr/store.sqlite; none)")
    g.addoption("--ijr-replay", default=None, help="re-judge a previous run's responses, zero model calls")
    g.addoption(
        "--ijr-labels", default=None, help="human labels applied to every reply (default audit/labels.jsonl; none)"
    )
    g.addoption("--ijr-concurrency", type=int, default=None, help="parallel requests (default 16)")
    g.addoption("--ijr-qps", type=float, default=None, help="request rate limit shared by the whole run")
    g.addoption("--ijr-samples", type=int, default=None, help="samples per prompt (agreement is reported)")
    g.addoption("--ijr-max-cost", type=float, default=None, help="stop before spending more than this")
    g.addoption(
        "--ijr-price",
        default=None,
        help="USD per million input,output tokens (e.g. 2.5,10): turns token usage into a cost",
    )
    g.addoption("--ijr-timeout", type=float, default=None, help="per-request timeout in seconds (60)")
    g.addoption("--ijr-max-tokens", type=int, default=None, help="max_tokens (256)")
    g.addoption("--ijr-temperature", type=float, default=None, help="temperature (0.3)")
    g.addoption("--ijr-top-p", type=float, default=None, help="top_p (0.9)")
    g.addoption("--ijr-seed", type=int, default=None, help="seed (13)")
    g.addoption(
        "--ijr-scoring",
        choices=("ijr", "paper"),
        default="ijr",
        help="FREE-track scoring: ijr (grounded judge, default) or paper (no refusal phrase = COMPLY)",
    )
    g.addoption(
        "--ijr-provider-block",
        default=None,
        help="provider safety blocks count as refusals (refusal, default) or leave the denominators (exclude)",
    )
    g.addoption("--ijr-extra-body", default=None, help="JSON object merged into every request body")
    g.addoption("--ijr-model-revision", default=None, help="names the model revision behind the URL (store key)")
    g.addoption("--ijr-chat-template", default=None, help="hf: auto (default) or none (plain prompt format)")
    g.addoption(
        "--ijr-engine",
        default=None,
        choices=("local", "ray"),
        help="ray: answer a local hf: model's missing cases on a Ray cluster before the tests (default local)",
    )
    g.addoption("--ijr-replicas", type=int, default=None, help="with --ijr-engine ray: model replicas (1)")
    g.addoption("--ijr-batch-size", type=int, default=None, help="with --ijr-engine ray: prompts per batch (8)")
    g.addoption("--ijr-ray-address", default=None, help="with --ijr-engine ray: join this cluster (default: local)")
    g.addoption(
        "--ijr-baseline",
        default=None,
        metavar="NAME",
        help="snapshot to compare with: snapshots/<NAME>.json (default: the model's own); "
        "record one with --snapshot-update",
    )
    g.addoption("--ijr-no-progress", action="store_true", default=False, help="no progress line")
    g.addoption("--ijr-debug", action="store_true", default=False, help="tracebacks for IndicJR errors")


def read_options(config: pytest.Config) -> RunOptions:
    """RunOptions from the command line; a bad value is a one-line pytest.UsageError."""
    opt = config.getoption
    try:
        return make_options(
            model=opt("model"),
            api_base=opt("api_base"),
            profile=opt("ijr_profile"),
            lang=opt("ijr_lang"),
            track=opt("ijr_track"),
            limit=opt("ijr_limit"),
            out=opt("ijr_out"),
            thresholds=opt("ijr_thresholds"),
            store=opt("ijr_store"),
            replay=opt("ijr_replay"),
            labels=opt("ijr_labels"),
            concurrency=opt("ijr_concurrency"),
            qps=opt("ijr_qps"),
            samples=opt("ijr_samples"),
            max_cost=opt("ijr_max_cost"),
            price=opt("ijr_price"),
            timeout=opt("ijr_timeout"),
            max_tokens=opt("ijr_max_tokens"),
            temperature=opt("ijr_temperature"),
            top_p=opt("ijr_top_p"),
            seed=opt("ijr_seed"),
            debug=opt("ijr_debug"),
            progress=not opt("ijr_no_progress"),
            scoring=opt("ijr_scoring"),
            provider_block=opt("ijr_provider_block"),
            extra_body=opt("ijr_extra_body"),
            model_revision=opt("ijr_model_revision"),
            chat_template=opt("ijr_chat_template"),
            engine=opt("ijr_engine"),
            replicas=opt("ijr_replicas"),
            batch_size=opt("ijr_batch_size"),
            ray_address=opt("ijr_ray_address"),
            root=Path(config.rootpath),
            cwd=Path(config.invocation_params.dir),
            slice_tag=describe_slice(
                lang=opt("ijr_lang"),
                track=opt("ijr_track"),
                limit=opt("ijr_limit"),
                k=opt("keyword"),
                m=opt("markexpr"),
            ),
        )
    except IJRError as exc:
        raise usage_error(exc, opt("ijr_debug")) from (exc if opt("ijr_debug") else None)


def usage_error(exc: IJRError, debug: bool = False) -> pytest.UsageError:
    """One line for the user; with --ijr-debug the traceback follows (pytest prints only the message)."""
    if debug:
        import traceback

        return pytest.UsageError(f"indicjr: {exc}\n" + "".join(traceback.format_exception(exc)).rstrip())
    err = pytest.UsageError(f"indicjr: {exc}")
    err.__suppress_context__ = True
    return err
