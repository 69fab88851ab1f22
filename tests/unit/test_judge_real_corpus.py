"""Invariants of the real-output corpus in tests/data/judge_real (issue 20, item 1).

The corpus is unlabeled model output copied from public result files; these tests guard what the labelers
and the judge developer rely on: one schema, provenance on every row, whole sources on one side of the
dev/test split, permissive licenses only, prompts stored short, and replies to harmful or attacked prompts
cut before any list or step.  They read committed files only (no network, no fetched mirrors).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from indicjr.langs import LANGS as REGISTERED

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "judge_real"
LANGS = set(REGISTERED)
FIELDS = {
    "id",
    "lang",
    "reply_script",
    "prompt",
    "prompt_kind",
    "task",
    "reply",
    "truncated",
    "model",
    "source",
    "commit",
    "path",
    "license",
    "split",
}
LICENSES = {"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "CC-BY-4.0", "CC-BY-SA-4.0", "CC0-1.0"}
LIST_LINE = re.compile(r"(?m)^\s*(?:\d+[.)]|[-*\u2022]\s)")


def _rows() -> list[tuple[str, int, dict]]:
    out = []
    for path in sorted((CORPUS / "rows").glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            out.append((path.stem, n, json.loads(line)))
    return out


ROWS = _rows()


def _common():
    spec = importlib.util.spec_from_file_location("judge_real_common", ROOT / "tools" / "judge_real" / "common.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


def test_corpus_is_not_empty() -> None:
    assert len(ROWS) >= 500


def test_every_row_has_the_schema_and_valid_values() -> None:
    for stem, n, row in ROWS:
        where = f"{stem}.jsonl line {n}"
        assert set(row) == FIELDS, f"{where}: fields differ: {sorted(set(row) ^ FIELDS)}"
        assert row["lang"] == stem and row["lang"] in LANGS, where
        assert row["reply_script"] in {"native", "romanized", "mixed", "english"}, where
        assert row["prompt_kind"] in {"harmful", "attacked", "benign", "unknown"}, where
        assert row["split"] in {"dev", "test"}, where
        assert row["license"] in LICENSES, f"{where}: license {row['license']!r}"
        assert re.fullmatch(r"[0-9a-f]{40}", row["commit"]), where
        assert row["reply"].strip() and row["model"] and row["path"], where
        assert isinstance(row["truncated"], bool), where
        assert len(row["prompt"]) <= 302, f"{where}: prompt stored whole ({len(row['prompt'])} chars)"


def test_ids_are_unique_and_name_their_source_slug() -> None:
    ids = [row["id"] for _, _, row in ROWS]
    assert len(ids) == len(set(ids))
    slug_of = {}
    for _, _, row in ROWS:
        slug = row["id"].split("-", 1)[0]
        assert slug_of.setdefault(slug, row["source"]) == row["source"], row["id"]


def test_each_source_sits_on_one_side_of_the_split() -> None:
    sides = defaultdict(set)
    for _, _, row in ROWS:
        sides[row["source"]].add(row["split"])
    assert all(len(s) == 1 for s in sides.values()), dict(sides)
    assert {"dev", "test"} <= set().union(*sides.values())


def test_replies_to_harmful_or_attacked_prompts_stop_before_any_list() -> None:
    for stem, n, row in ROWS:
        if row["prompt_kind"] in {"harmful", "attacked"}:
            assert not LIST_LINE.search(row["reply"]), f"{stem}.jsonl line {n}: list or step in a harmful reply"
            assert "```" not in row["reply"], f"{stem}.jsonl line {n}: code in a harmful reply"


def test_reply_script_is_the_letter_count_of_the_stored_reply() -> None:
    common = _common()
    for stem, n, row in ROWS:
        assert common.reply_script(row["reply"], row["lang"]) == row["reply_script"], f"{stem}.jsonl line {n}"


def test_sources_md_names_every_source_and_commit() -> None:
    text = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    for source, commit in {(row["source"], row["commit"]) for _, _, row in ROWS}:
        assert source in text and commit in text, source


def test_safety_cut_keeps_only_the_opening() -> None:
    common = _common()
    reply = "Sure. Here is an overview of the topic.\n1. first step\n2. second step"
    text, cut = common.safety_cut(reply)
    assert cut and text == "Sure. Here is an overview of the topic."
    text, cut = common.safety_cut("One. Two. Three.")
    assert cut and text == "One. Two."
    assert common.safety_cut("Short refusal.") == ("Short refusal.", False)


def _extend():
    """tools/judge_real/extend.py, importable (it imports its sibling ``common`` by plain name)."""
    tools = str(ROOT / "tools" / "judge_real")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    spec = importlib.util.spec_from_file_location("judge_real_extend", ROOT / "tools" / "judge_real" / "extend.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_transcribed_sources_are_the_committed_rows() -> None:
    """Rows of sources that could not be fetched are regenerated exactly from their transcriptions."""
    extend = _extend()
    expected = {row.id: json.loads(row.to_json()) for row in extend.collect()}
    owned = tuple(f"{src.slug}-" for src in extend.SOURCES)
    committed = {row["id"]: row for _, _, row in ROWS if row["id"].startswith(owned)}
    assert expected and committed == expected


def test_transcribed_harmful_rows_are_cut_and_flagged() -> None:
    extend = _extend()
    assert extend.prompt_kind("C1_XS_ROL_hi_034") == "attacked"
    assert extend.prompt_kind("C1_MJ_BN_230") == "harmful"
    assert extend.prompt_kind("C1_XS_PHY_hi_050") == "benign"
    line = {
        "item": "C1_AYA_HI_0001",
        "model": "sarvam-30b",
        "lang": "hi",
        "prompt": "p",
        "opening": "One. Two. Three.",
        "continues": False,
    }
    row = extend.to_row(extend.IEVAL, line)
    assert row.prompt_kind == "harmful" and row.reply == "One. Two." and row.truncated
    benign = extend.to_row(extend.IEVAL, dict(line, item="C1_XS_PHY_hi_0001", continues=True))
    assert benign.reply == "One. Two. Three." and benign.truncated
