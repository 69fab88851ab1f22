"""A 13th language end to end, from its bundle alone: the fixture language qaa (made-up words in the Sinhala
script, tests/data/fixture_lang/) is declared in a registry of its own; cases are built for it, replies in it
judged and the metrics computed. Removing any required part of its bundle fails in one line naming the file
and the section, never an empty lexicon that would judge the language on English wording alone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from indicjr.errors import DataFileError, IJRError
from indicjr.judge.bundle import check_bundle
from indicjr.langs import REGISTRY
from indicjr.langs.registry import load_registry

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "fixture_lang"
SRC = Path(__file__).resolve().parents[3] / "src"


def _env(registry: Path) -> dict[str, str]:
    return {
        **os.environ,
        "IJR_LANGUAGES": str(registry),
        "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
    }


@pytest.fixture(scope="module")
def run() -> dict[str, Any]:
    script = Path(__file__).with_name("fixture_run.py")
    proc = subprocess.run(
        [sys.executable, str(script)], env=_env(FIXTURE / "languages.yaml"), capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def test_the_fixture_language_is_registered_with_its_own_script(run: dict[str, Any]) -> None:
    assert run["langs"] == ["hi", "qaa"] and run["script"] == "Sinhala"


def test_cases_are_built_for_every_track_subset_and_orthography_with_an_e2_partner(run: dict[str, Any]) -> None:
    cells = {
        f"{t}-{s}-{o}"
        for t in ("json", "free")
        for s in ("AB", "CB", "CH")
        for o in ("native", "romanized", "mixed", "noisy")
    }
    assert set(run["cells"]) == cells
    assert set(run["e2_partners"]) == {"hi"}  # the only other language of the fixture registry


def test_refusals_in_the_language_score_zero_jsr_and_compliance_scores_one(run: dict[str, Any]) -> None:
    refuse, comply = run["refuse"], run["comply"]
    assert refuse["json_jsr"] == refuse["free_jsr_ab"] == 0.0
    assert refuse["free_ur_ch"] == 0.0 and refuse["json_ch_leak"] == 0.0
    assert comply["json_jsr"] == comply["free_jsr_ab"] == 1.0
    assert refuse["free_or_cb"] == comply["free_or_cb"] == 0.0  # the passage restated is the task done
    assert refuse["n_cases"] == run["n_cases"] > 0


def test_the_refusal_is_read_by_the_languages_lexicon_not_by_english(run: dict[str, Any]) -> None:
    assert run["refusal_with_lexicon"] is True
    assert run["refusal_english_only"] is False
    assert run["response_lang"] == "qaa"


def test_the_simulator_answers_the_language_from_its_bundles_phrase_bank(run: dict[str, Any]) -> None:
    sim = run["sim"]
    assert sim["bank"] == "qaa" and "qaa" not in sim["fallback"]
    assert sim["n"] > 0 and sim["bank_refusals"] > 0


# ---------------------------------------------------------------- required parts


def _bundle(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "fx")
    return tmp_path / "fx"


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    d = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(d)
    path.write_text(yaml.safe_dump(d, allow_unicode=True), encoding="utf-8")


def _drop(*keys: str) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        for k in keys[:-1]:
            d = d[k]
        del d[keys[-1]]

    return change


# (file of the bundle, how it is broken, what the one-line message must name)
PARTS: dict[str, tuple[str, Callable[[dict[str, Any]], None] | None, str]] = {
    **{
        f"registry-{key}": ("languages.yaml", _drop("languages", "qaa", key), f"languages.qaa.{key}: missing")
        for key in ("name", "native_name", "script", "romanization", "translation_words")
    },
    "registry-script-undeclared": ("languages.yaml", _drop("scripts", "Sinhala"), "languages.qaa.script: 'Sinhala'"),
    "source-file": ("qaa/source.yaml", None, "source.yaml: missing the case source"),
    **{
        f"source-{key}": ("qaa/source.yaml", _drop(key), f"source.yaml: missing key '{key}'")
        for key in ("lang", "categories", "tasks", "wrappers", "pressure_cues")
    },
    "source-passages": ("qaa/source.yaml", _drop("passages"), "source.yaml: passages:"),
    "source-harmful": ("qaa/source.yaml", _drop("harmful"), "source.yaml: harmful:"),
    "romanization-file": ("qaa/romanize.yaml", None, "romanize.yaml: cannot read the romanization rules"),
    "lexicon-file": ("qaa/lexicon.yaml", None, "lexicon.yaml: cannot read the lexicon"),
    **{
        f"lexicon-{key}": ("qaa/lexicon.yaml", _drop(key), f"lexicon.yaml: {key}: required section missing")
        for key in ("refusal", "apology", "unsafe_terms", "negation", "grammar")
    },
    **{
        f"lexicon-grammar-{key}": ("qaa/lexicon.yaml", _drop("grammar", key), f"lexicon.yaml: grammar.{key}: required")
        for key in ("self", "object", "negated_act", "unable")
    },
    "lexicon-contrast": ("qaa/lexicon.yaml", _drop("contrast"), "lexicon.yaml: contrast: no pivot words"),
    # the simulator's phrase bank is optional, but one that is there is whole
    "sim-phrases-refuse": ("qaa/sim_phrases.yaml", _drop("refuse"), "sim_phrases.yaml: refuse.native must be"),
}


@pytest.mark.parametrize("part", sorted(PARTS))
def test_removing_a_required_part_fails_in_one_line_naming_file_and_section(tmp_path: Path, part: str) -> None:
    name, change, expected = PARTS[part]
    root = _bundle(tmp_path)
    if change is None:
        (root / name).unlink()
    else:
        _edit(root / name, change)
    with pytest.raises(DataFileError) as info:
        check_bundle(load_registry(root / "languages.yaml"), "qaa")
    message = str(info.value)
    assert isinstance(info.value, IJRError) and "\n" not in message
    assert expected in message, message
    assert str(root) in message  # names the file


def test_the_complete_fixture_bundle_passes_the_check() -> None:
    check_bundle(load_registry(FIXTURE / "languages.yaml"), "qaa")


@pytest.mark.parametrize("code", REGISTRY.codes)
def test_every_shipped_language_has_a_complete_bundle(code: str) -> None:
    check_bundle(REGISTRY, code)


def test_a_missing_lexicon_section_stops_the_cli_with_one_line(tmp_path: Path) -> None:
    root = _bundle(tmp_path)
    _edit(root / "qaa" / "lexicon.yaml", _drop("apology"))
    rows = tmp_path / "in.jsonl"
    rows.write_text(json.dumps({"id": "x", "lang": "qaa", "track": "free", "subset": "AB", "response": "..."}) + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "indicjr.cli", "judge", "--input", str(rows), "--output", str(tmp_path / "out.jsonl")],
        env=_env(root / "languages.yaml"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 4, proc.stderr[-2000:]
    assert proc.stderr.strip().count("\n") == 0, proc.stderr
    assert proc.stderr.startswith("ijr: error: ") and "lexicon.yaml: apology: required section missing" in proc.stderr


def _with_shipped(root: Path) -> Path:
    """A registry of the 12 shipped languages plus the fixture's (the simulated profiles name all 12)."""
    fixture = yaml.safe_load((root / "languages.yaml").read_text(encoding="utf-8"))
    d = yaml.safe_load(REGISTRY.path.read_text(encoding="utf-8"))
    d["scripts"]["Sinhala"] = fixture["scripts"]["Sinhala"]
    d["languages"]["qaa"] = {**fixture["languages"]["qaa"], "bundle": str(root / "qaa")}
    path = root / "all.yaml"
    path.write_text(yaml.safe_dump(d, allow_unicode=True), encoding="utf-8")
    return path


def test_a_missing_lexicon_section_stops_the_pytest_run_with_one_line(tmp_path: Path) -> None:
    root = _bundle(tmp_path)
    env = _env(_with_shipped(root))
    build = [sys.executable, "-m", "indicjr.cli", "build", "--profile", "lite", "--lang", "qaa", "--out", str(tmp_path)]
    assert subprocess.run(build, env=env, capture_output=True, text=True, timeout=120).returncode == 0
    _edit(root / "qaa" / "lexicon.yaml", _drop("negation"))
    args = ["--model=sim:reference", f"--ijr-profile={tmp_path / 'lite'}", "--ijr-limit=10", "-p", "no:cacheprovider"]
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 4, out[-3000:]
    errors = [line for line in out.splitlines() if "lexicon.yaml" in line]
    assert errors == [f"ERROR: indicjr: {root / 'qaa' / 'lexicon.yaml'}: negation: required section missing or empty"]


def test_a_broken_registry_stops_the_cli_with_one_line(tmp_path: Path) -> None:
    root = _bundle(tmp_path)
    _edit(root / "languages.yaml", _drop("languages", "qaa", "native_name"))
    proc = subprocess.run(
        [sys.executable, "-m", "indicjr.cli", "thresholds"],
        env=_env(root / "languages.yaml"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 4, proc.stderr[-2000:]
    assert proc.stderr == f"ijr: error: {root / 'languages.yaml'}: languages.qaa.native_name: missing\n"


def test_a_broken_registry_stops_a_pytest_run_with_one_line(tmp_path: Path) -> None:
    """The plugin loads the registry when pytest loads it: one `ERROR:` line and exit 4, not a plugin traceback."""
    root = _bundle(tmp_path)
    _edit(root / "languages.yaml", _drop("languages", "qaa", "native_name"))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--co", "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=_env(root / "languages.yaml"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 4, out[-2000:]
    assert "Traceback" not in out and "Error while loading plugin" not in out, out[-2000:]
    assert [line for line in out.splitlines() if line.strip()] == [
        f"ERROR: indicjr: {root / 'languages.yaml'}: languages.qaa.native_name: missing"
    ]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("drop", 0x093C, "scripts.Devanagari.drop: expected a list of code points"),
        ("fold", [0x0901], "scripts.Devanagari.fold: expected a mapping of code point -> code point"),
        ("rtl", "false", "scripts.Devanagari.rtl: expected true or false, got 'false'"),
        (
            "fonts",
            "Noto Sans Devanagari",
            "scripts.Devanagari.fonts: expected a list of font family names (letters, digits, spaces, - and _),"
            " got 'Noto Sans Devanagari'",
        ),
        (
            "fonts",
            ['Noto"; } body {'],
            "scripts.Devanagari.fonts: expected a list of font family names (letters, digits, spaces, - and _),"
            """ got ['Noto"; } body {']""",
        ),
    ],
)
def test_a_malformed_script_table_is_named_in_one_line(tmp_path: Path, key: str, value: Any, message: str) -> None:
    root = _bundle(tmp_path)

    def change(d: dict[str, Any]) -> None:
        d["scripts"]["Devanagari"][key] = value

    _edit(root / "languages.yaml", change)
    with pytest.raises(DataFileError) as err:
        load_registry(root / "languages.yaml")
    assert str(err.value) == f"{root / 'languages.yaml'}: {message}"
