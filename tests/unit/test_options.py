"""Run options: prices, budgets and paths validated into one record, errors as one line."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields, replace
from pathlib import Path

import pytest

from indicjr.errors import ConfigError
from indicjr.run.option_table import GROUPS, OPTIONS
from indicjr.run.options import RECORDS, Outputs, RunOptions, build_options, parse_price


def test_price_is_usd_per_million_input_and_output_tokens() -> None:
    assert parse_price("2.5,10") == (2.5, 10.0)
    assert parse_price(None) is None


@pytest.mark.parametrize("bad", ["2.5", "a,b", "1,2,3", "-1,2"])
def test_a_malformed_price_names_the_option(bad: str) -> None:
    with pytest.raises(ConfigError, match="--ijr-price"):
        parse_price(bad)


def test_a_budget_without_a_price_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--ijr-max-cost: needs --ijr-price"):
        build_options({"max-cost": 5.0}, root=tmp_path)
    opts = build_options({"max-cost": 5.0, "price": "1,2"}, root=tmp_path)
    assert opts.pacing.max_cost == 5.0 and opts.pacing.price_per_mtok == (1.0, 2.0)


def test_defaults_are_the_papers_inference_settings(tmp_path: Path) -> None:
    opts = build_options({}, root=tmp_path)
    s = opts.endpoint.settings
    assert (s.max_tokens, s.temperature, s.top_p, s.seed) == (256, 0.3, 0.9, 13)
    assert opts.endpoint.model == "sim:reference" and opts.selection.profile == "lite"


def test_every_row_fills_a_field_of_its_groups_record_and_every_field_but_the_slice_has_a_row() -> None:
    by_group = {g: {o.field for o in OPTIONS if o.group == g} for g in GROUPS}
    assert set(RECORDS) == set(GROUPS) == {f.name for f in fields(RunOptions)}
    for group, cls in RECORDS.items():
        assert by_group[group] == {f.name for f in fields(cls)} - {"slice"}, group
    assert len({(o.group, o.field) for o in OPTIONS}) == len(OPTIONS)  # no two rows fill one field


def test_nothing_given_builds_the_records_defaults() -> None:
    """A row's parser turns "not given" into the same default the record declares, so a record built
    in code (tests, the runner) and one built from an empty command line agree."""
    built = build_options({}, root=Path("."))
    assert built.outputs.out_dir == Path(".ijr/runs/sim-reference")  # named after the model
    assert replace(built, outputs=replace(built.outputs, out_dir=Outputs().out_dir)) == RunOptions()


def test_the_records_are_frozen(tmp_path: Path) -> None:
    built = build_options({"concurrency": 4}, root=tmp_path)
    with pytest.raises(FrozenInstanceError):
        built.pacing.concurrency = 8  # type: ignore[misc]


def test_a_seed_of_zero_is_kept(tmp_path: Path) -> None:
    assert build_options({"seed": 0}, root=tmp_path).endpoint.seed == 0
