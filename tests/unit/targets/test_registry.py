"""The --model spec grammar, scheme dispatch, keys and the replay target."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indicjr.errors import ConfigError, IJRError, TargetError
from indicjr.targets.base import PermanentError, Request, Response, Settings
from indicjr.targets.registry import make_target, parse_model_spec

from .conftest import SECRET


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ("openai:gpt-4o-mini", ("openai", "gpt-4o-mini")),
        ("  Anthropic:claude-x ", ("anthropic", "claude-x")),
        ("hf:/models/tiny", ("hf", "/models/tiny")),
        ("sim:paper-gpt-4o", ("sim", "paper-gpt-4o")),
        ("replay:runs/2024-01:a", ("replay", "runs/2024-01:a")),
    ],
)
def test_specs_parse_into_scheme_and_name(spec: str, parsed: tuple[str, str]) -> None:
    assert parse_model_spec(spec) == parsed


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-4o", "expected <scheme>:<name>"),
        ("azure:gpt", "unknown scheme 'azure'"),
        ("openai:", "empty model name"),
        ("openai:\n", "empty model name"),
    ],
)
def test_bad_specs_are_one_line_config_errors(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        parse_model_spec(spec)
    assert "\n" not in str(info.value)


@given(st.text(max_size=40))
def test_any_spec_parses_or_fails_with_one_line(spec: str) -> None:
    try:
        parse_model_spec(spec)
    except ConfigError as e:
        assert "\n" not in str(e) and "\r" not in str(e)


def test_missing_keys_are_one_line_target_errors() -> None:
    with pytest.raises(TargetError, match=r"^anthropic:claude: ANTHROPIC_API_KEY is not set$"):
        make_target("anthropic:claude", settings=Settings(), env={})
    with pytest.raises(TargetError, match="OPENAI_API_KEY is not set"):
        make_target("openai:gpt-4o", settings=Settings(), env={})
    local = make_target("openai:llama", settings=Settings(), env={"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"})
    assert local.name == "openai:llama" and not local.simulated


def test_key_is_not_in_any_error_or_repr() -> None:
    env = {"OPENAI_API_KEY": SECRET, "ANTHROPIC_API_KEY": SECRET}
    for spec in ("openai:m", "anthropic:m"):
        target = make_target(spec, settings=Settings(), api_base="http://127.0.0.1:9", env=env)
        with pytest.raises(IJRError) as info:
            target.check()
        assert SECRET not in str(info.value) and SECRET not in repr(target)


def test_sim_scheme_dispatches_to_the_simulator() -> None:
    assert make_target("sim:reference", settings=Settings()).simulated is True


def test_hf_without_the_extra_is_a_clear_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # Make the optional extra look absent even where it is installed (a None entry makes import fail).
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(ConfigError, match=r"^hf: targets need `pip install indicjr\[hf\]`$"):
        make_target("hf:/nowhere", settings=Settings())


def _replay(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return tmp_path


def test_replay_serves_recorded_responses_by_case_and_sample(tmp_path: Path) -> None:
    run_dir = _replay(
        tmp_path,
        [
            {"id": "a", "response": "first"},
            {"id": "a", "sample": 1, "response": "second"},
            {"id": "b", "response": None, "error": "HTTP 500"},
        ],
    )
    target = make_target(f"replay:{run_dir}", settings=Settings())
    target.check()

    async def ask(case_id: str, sample: int = 0) -> Response:
        return await target.generate(Request(case_id=case_id, messages=(("user", "x"),), sample=sample))

    assert asyncio.run(ask("a")).text == "first" and asyncio.run(ask("a", 1)).text == "second"
    for case_id in ("b", "missing"):
        with pytest.raises(PermanentError):
            asyncio.run(ask(case_id))


def test_replay_errors_name_the_file_and_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        make_target(f"replay:{tmp_path}", settings=Settings())
    (tmp_path / "results.jsonl").write_text('{"id": "a", "response": "x"}\n{oops\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"results.jsonl:2: not a result row"):
        make_target(f"replay:{tmp_path}", settings=Settings())
