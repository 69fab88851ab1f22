"""Run options: prices, budgets and paths validated into one record, errors as one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from indicjr.errors import ConfigError
from indicjr.run.options import make_options, parse_price

BLANK: dict[str, Any] = dict.fromkeys(
    (
        "model",
        "api_base",
        "profile",
        "lang",
        "track",
        "limit",
        "out",
        "thresholds",
        "store",
        "replay",
        "concurrency",
        "qps",
        "samples",
        "max_cost",
        "timeout",
        "max_tokens",
        "temperature",
        "top_p",
        "seed",
    ),
)


def test_price_is_usd_per_million_input_and_output_tokens() -> None:
    assert parse_price("2.5,10") == (2.5, 10.0)
    assert parse_price(None) is None


@pytest.mark.parametrize("bad", ["2.5", "a,b", "1,2,3", "-1,2"])
def test_a_malformed_price_names_the_option(bad: str) -> None:
    with pytest.raises(ConfigError, match="--ijr-price"):
        parse_price(bad)


def test_a_budget_without_a_price_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--ijr-max-cost: needs --ijr-price"):
        make_options(**{**BLANK, "max_cost": 5.0}, root=tmp_path)
    opts = make_options(**{**BLANK, "max_cost": 5.0}, price="1,2", root=tmp_path)
    assert opts.max_cost == 5.0 and opts.price_per_mtok == (1.0, 2.0)


def test_defaults_are_the_papers_inference_settings(tmp_path: Path) -> None:
    opts = make_options(**BLANK, root=tmp_path)
    s = opts.settings
    assert (s.max_tokens, s.temperature, s.top_p, s.seed) == (256, 0.3, 0.9, 13)
    assert opts.model == "sim:reference" and opts.profile == "lite"
