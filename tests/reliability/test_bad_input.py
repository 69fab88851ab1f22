"""Bad input: each mistake is one line naming the file/line/option and the problem, exit 4 (a usage
error, never 1 = a gate failure), and no traceback unless --ijr-debug."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from indicjr.testing.fake_server import FakeServer
from tests.reliability.conftest import case_rows, openai_args, run_suite

USAGE = 4


def assert_one_line_usage_error(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The run failed with exit 4 and exactly one non-empty stderr line holding every needle."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == USAGE, (result.returncode, result.stdout[-1500:], result.stderr[-1500:])
    assert len(lines) == 1, result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert "Traceback" not in result.stdout + result.stderr
    return lines[0]


def doctor(tiny: Path, dest: Path, edit: Callable[[list[dict[str, Any]]], list[str]]) -> Path:
    """A copy of the tiny profile whose hi.jsonl is rewritten by `edit` (rows -> raw lines)."""
    shutil.copytree(tiny, dest)
    rows = case_rows(tiny)
    (dest / "hi.jsonl").write_text("\n".join(edit(rows)) + "\n", encoding="utf-8")
    return dest


def _dump(rows: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(r, ensure_ascii=False) for r in rows]


def _first_ch(rows: list[dict[str, Any]]) -> int:
    return next(i for i, r in enumerate(rows) if r["subset"] == "CH")


def _bad_json(rows: list[dict[str, Any]]) -> list[str]:
    lines = _dump(rows)
    lines[2] = lines[2][:40]
    return lines


def _missing_field(rows: list[dict[str, Any]]) -> list[str]:
    del rows[2]["core_id"]
    return _dump(rows)


def _unknown_lang(rows: list[dict[str, Any]]) -> list[str]:
    rows[2]["lang"] = "xx"
    return _dump(rows)


def _ch_without_canary(rows: list[dict[str, Any]]) -> list[str]:
    rows[_first_ch(rows)]["canary"] = None
    return _dump(rows)


def _duplicate_id(rows: list[dict[str, Any]]) -> list[str]:
    rows[3]["id"] = rows[2]["id"]
    return _dump(rows)


def _non_string_id(rows: list[dict[str, Any]]) -> list[str]:
    rows[2]["id"] = 12345
    return _dump(rows)


def _lone_surrogate_prompt(rows: list[dict[str, Any]]) -> list[str]:
    rows[2]["messages"][-1]["content"] += "\ud83d"  # written as the JSON escape "\ud83d"
    return [json.dumps(r, ensure_ascii=True) for r in rows]


def _brackets(rows: list[dict[str, Any]]) -> list[str]:
    lines = _dump(rows)
    lines[2] = "[" * 100_000
    return lines


def _thirty_megabytes(rows: list[dict[str, Any]]) -> list[str]:
    rows[2]["messages"][-1]["content"] = "x" * 30_000_000
    return _dump(rows)


CASE_FILE_DEFECTS = [
    pytest.param(_non_string_id, 3, "id must be a non-empty string, got 12345", id="non-string-id"),
    pytest.param(_lone_surrogate_prompt, 3, "messages[1] holds a lone surrogate", id="lone-surrogate-prompt"),
    pytest.param(_brackets, 3, "bad JSON: nested too deeply", id="100k-brackets"),
    pytest.param(_thirty_megabytes, 3, "line longer than 1 MB", id="30-MB-line"),
    pytest.param(_bad_json, 3, "bad JSON", id="bad-json"),
    pytest.param(_missing_field, 3, "missing field 'core_id'", id="missing-field"),
    pytest.param(_unknown_lang, 3, "unknown lang 'xx'", id="unknown-language"),
    pytest.param(_ch_without_canary, None, "has no canary", id="ch-without-canary"),
    pytest.param(_duplicate_id, 4, "duplicate id", id="duplicate-id"),
]


@pytest.mark.parametrize(("edit", "line", "problem"), CASE_FILE_DEFECTS)
def test_malformed_case_file_is_one_line_naming_file_line_and_problem(
    suite: pytest.Pytester,
    tiny_cases: Path,
    edit: Callable[[list[dict[str, Any]]], list[str]],
    line: int | None,
    problem: str,
) -> None:
    bad = doctor(tiny_cases, suite.path / "doctored", edit)
    if line is None:
        line = _first_ch(case_rows(tiny_cases)) + 1
    result = run_suite(suite, bad)
    assert_one_line_usage_error(result, f"{bad / 'hi.jsonl'}:{line}:", problem)


def test_a_case_line_in_invalid_utf8_is_one_line_naming_file_line_and_byte(
    suite: pytest.Pytester, tiny_cases: Path
) -> None:
    bad = doctor(tiny_cases, suite.path / "doctored", _dump)
    lines = (bad / "hi.jsonl").read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"messages"', b'"mess\xffages"', 1)
    (bad / "hi.jsonl").write_bytes(b"\n".join(lines))
    result = run_suite(suite, bad)
    assert_one_line_usage_error(result, f"{bad / 'hi.jsonl'}:3:", "not UTF-8 text (byte 0xff")


def test_thresholds_in_invalid_utf8_is_one_line_naming_file_line_and_byte(
    suite: pytest.Pytester, tiny_cases: Path
) -> None:
    suite.path.joinpath("thresholds.yaml").write_bytes(b"rule: point\ngates:\n  - metric: json_jsr # \xe9t\xe9\n")
    result = run_suite(suite, tiny_cases)
    assert_one_line_usage_error(result, "thresholds.yaml:3:", "not UTF-8 text (byte 0xe9)")


BAD_OPTIONS = [
    pytest.param("--ijr-timeout=inf", "--ijr-timeout: must be a finite number", id="timeout-inf"),
    pytest.param("--ijr-timeout=nan", "--ijr-timeout: must be a finite number", id="timeout-nan"),
    pytest.param("--ijr-timeout=1e9", "--ijr-timeout: at most 3600 seconds", id="timeout-huge"),
    pytest.param("--ijr-max-cost=nan", "--ijr-max-cost: must be a finite number", id="max-cost-nan"),
    pytest.param("--ijr-qps=1e-9", "--ijr-qps: at least 0.01 requests per second", id="qps-tiny"),
    pytest.param("--api-base=notaurl", "--api-base: expected an http:// or https:// URL", id="api-base-not-a-url"),
    pytest.param("--api-base=http://h:port/v1", "--api-base: the port is not a number", id="api-base-bad-port"),
]


@pytest.mark.parametrize(("option", "problem"), BAD_OPTIONS)
def test_bad_option_values_are_one_line_naming_the_option_before_any_model_call(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, option: str, problem: str
) -> None:
    args = [a for a in openai_args(fake) if not a.startswith(option.split("=")[0] + "=")]
    result = run_suite(suite, tiny_cases, *args, option, "--ijr-price=1,1")
    assert_one_line_usage_error(result, problem)
    assert fake.total() == 0


def test_ijr_debug_shows_the_traceback_of_a_bad_case_file(suite: pytest.Pytester, tiny_cases: Path) -> None:
    bad = doctor(tiny_cases, suite.path / "doctored", _unknown_lang)
    result = run_suite(suite, bad, "--ijr-debug")
    assert result.returncode == USAGE
    assert "Traceback" in result.stdout + result.stderr and "CaseFileError" in result.stdout + result.stderr


def test_unknown_profile_is_one_line_naming_the_option(suite: pytest.Pytester, tiny_cases: Path) -> None:
    result = run_suite(suite, tiny_cases, "--ijr-profile=no-such-profile")
    assert_one_line_usage_error(result, "--ijr-profile", "unknown profile 'no-such-profile'")


THRESHOLD_DEFECTS = [
    pytest.param(
        "gates:\n  - metric: json_jsrr\n    max: 0.5\n", "gates[0].metric", "unknown metric", id="unknown-metric"
    ),
    pytest.param(
        "gates:\n  - metric: json_jsr\n    where: {lang: xx}\n    max: 0.5\n",
        "gates[0].where.lang",
        "unknown value 'xx'",
        id="unknown-slice-value",
    ),
    pytest.param(
        "gates:\n  - metric: json_jsr\n    max: 1.5\n", "gates[0].max", "out of range", id="threshold-out-of-range"
    ),
    pytest.param("gates: [\n", "thresholds.yaml", "not valid YAML", id="not-yaml"),
]


@pytest.mark.parametrize(("text", "key", "problem"), THRESHOLD_DEFECTS)
def test_malformed_thresholds_is_one_line_naming_file_key_and_problem(
    suite: pytest.Pytester, tiny_cases: Path, text: str, key: str, problem: str
) -> None:
    suite.path.joinpath("thresholds.yaml").write_text(text, encoding="utf-8")
    result = run_suite(suite, tiny_cases)
    assert_one_line_usage_error(result, "thresholds.yaml", key, problem)


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        pytest.param("gpt-4o", "expected <scheme>:<name>", id="no-scheme"),
        pytest.param("nope:x", "unknown scheme 'nope'", id="unknown-scheme"),
        pytest.param("openai:", "empty model name", id="empty-name"),
    ],
)
def test_bad_model_spec_is_one_line_naming_the_option(
    suite: pytest.Pytester, tiny_cases: Path, spec: str, problem: str
) -> None:
    result = run_suite(suite, tiny_cases, f"--model={spec}")
    assert_one_line_usage_error(result, "--model", problem)


def test_missing_api_key_is_one_line_naming_the_variable(suite: pytest.Pytester, tiny_cases: Path) -> None:
    result = run_suite(suite, tiny_cases, "--model=anthropic:x")
    assert_one_line_usage_error(result, "anthropic:x", "ANTHROPIC_API_KEY is not set")


@pytest.mark.parametrize("where", ["file", "proc"])
def test_unwritable_output_folder_fails_before_any_test_naming_the_option(
    suite: pytest.Pytester, tiny_cases: Path, where: str
) -> None:
    suite.path.joinpath("somefile").write_text("not a folder", encoding="utf-8")
    out = "somefile/out" if where == "file" else "/proc/ijr-out"
    result = run_suite(suite, tiny_cases, f"--ijr-out={out}", "--model=sim:reference")
    assert_one_line_usage_error(result, "--ijr-out", "cannot write")
    assert "passed" not in result.stdout  # stopped before any case ran


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from indicjr.cli import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def test_ijr_cli_bad_inputs_are_one_line_usage_errors(tmp_path: Path, tiny_cases: Path) -> None:
    bad = doctor(tiny_cases, tmp_path / "doctored", _duplicate_id)
    tmp_path.joinpath("somefile").write_text("x", encoding="utf-8")
    tmp_path.joinpath("in.jsonl").write_text('{"id": "a"}\nnot json\n', encoding="utf-8")
    stats = _cli("stats", str(bad), cwd=tmp_path)
    assert_one_line_usage_error(stats, f"{bad / 'hi.jsonl'}:4:", "duplicate id")
    missing = _cli("stats", "nowhere", cwd=tmp_path)
    assert_one_line_usage_error(missing, "nowhere", "no such case file")
    judge_out = _cli("judge", "--input", "in.jsonl", "--output", "somefile/v.jsonl", cwd=tmp_path)
    assert_one_line_usage_error(judge_out, "--output", "cannot write")
    build = _cli("build", "--profile", "lite", "--lang", "hi", "--out", "somefile/cases", cwd=tmp_path)
    assert_one_line_usage_error(build, "somefile/cases", "Not a directory")
