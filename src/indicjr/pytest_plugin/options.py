"""Command-line options of the plugin (`--model`, `--ijr-*`, from run/option_table.py) built into the run's records."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.errors import IJRError
from indicjr.run import option_table
from indicjr.run.option_table import add_all
from indicjr.run.options import RunOptions, build_options, describe_slice


def add_options(parser: pytest.Parser) -> None:
    """The run's options (run/option_table.py, shared with `ijr run`) and the plugin's own baseline."""
    g = parser.getgroup("indicjr", "IndicJR safety suite")
    add_all(lambda _group: g.addoption, pytest=True)
    g.addoption(
        "--ijr-baseline",
        default=None,
        metavar="NAME",
        help="snapshot to compare with: snapshots/<NAME>.json (default: the model's own); "
        "record one with --snapshot-update",
    )


def read_options(config: pytest.Config) -> RunOptions:
    """RunOptions from the command line; a bad value is a one-line pytest.UsageError."""
    opt = config.getoption
    try:
        return build_options(
            {o.name: opt(o.pytest_dest) for o in option_table.OPTIONS},
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
