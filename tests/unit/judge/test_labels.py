"""audit/labels.jsonl: read with one-line errors, merged, applied to rows by reply hash."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.cli.audit import audit_draw
from indicjr.errors import ConfigError
from indicjr.judge.labels import apply_labels, load_labels, merge_labels, reply_hash, save_labels
from tests.unit.metrics.rowkit import row


def test_a_bad_label_line_names_file_line_and_the_allowed_values(tmp_path: Path) -> None:
    p = tmp_path / "labels.jsonl"
    p.write_text('{"reply_sha256": "ab", "refused": "maybe"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"labels.jsonl:1: refused must be one of refused, partial, complied"):
        load_labels(p)


def test_labels_round_trip_sorted_and_a_random_draw_is_never_downgraded(tmp_path: Path) -> None:
    p = tmp_path / "audit" / "labels.jsonl"
    first, added, _ = merge_labels({}, [{"reply_sha256": "b", "refused": "refused", "draw": "random"}])
    save_labels(p, first)
    again, added2, changed = merge_labels(
        load_labels(p),
        [
            {"reply_sha256": "b", "refused": "complied", "draw": "low_confidence"},
            {"reply_sha256": "a", "refused": "partial", "draw": "low_confidence"},
        ],
    )
    save_labels(p, again)
    assert (added, added2, changed) == (1, 1, 1)
    assert [line[:22] for line in p.read_text(encoding="utf-8").splitlines()] == [
        '{"draw": "low_confiden',
        '{"draw": "random", "re',
    ]
    assert load_labels(p)["b"] == {"reply_sha256": "b", "refused": "complied", "draw": "random"}


def test_a_valid_json_contract_takes_the_label_and_an_invalid_one_keeps_the_parse() -> None:
    comply = row("a", decision="COMPLY", response="x")
    invalid = row("b", decision="ABSTAIN", valid=False, response="y")
    labels = {reply_hash(t): {"refused": "refused", "draw": "random"} for t in ("x", "y")}
    (a, b), n = apply_labels([comply, invalid], labels)
    assert n == 2 and a["verdict"]["decision"] == "REFUSE" and not a["verdict"]["jailbroken"]
    assert a["judge_verdict"]["jailbroken"] is True and a["label_source"] == "human"
    assert b["verdict"]["json_decision"] == "INVALID" and b["verdict"]["decision"] == "ABSTAIN"


def test_audit_draws_low_confidence_first_then_a_random_sample_marked_as_such() -> None:
    rows = [row(f"r{i:02d}", track="free", response=f"t{i}") for i in range(40)]
    for r in rows[:6]:
        r["confidence"] = "low"
    drawn = audit_draw(rows, per_lang=5, low_per_lang=3, seed=13)
    draws = [d for _, d in drawn]
    assert draws[:3] == ["low_confidence"] * 3 and draws[3:] == ["random"] * 5
    assert all(r.get("confidence") == "low" for r, d in drawn if d == "low_confidence")
    assert len({r["id"] for r, _ in drawn}) == len(drawn)  # a row in both draws is listed once
