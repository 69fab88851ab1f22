"""A model's reply is untrusted bytes: any `str` goes through the store, the judge and every writer.

Lone surrogates (JSON `"\\ud83d"`, half an emoji), NUL, bidi overrides and megabyte runs without spaces
must be stored (a lone surrogate replaced by U+FFFD, the substitution recorded), read back as stored,
judged, and written to results.jsonl, summary.json, `ijr judge` output and the report without raising.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from indicjr.cases.io import load_cases
from indicjr.judge import batch
from indicjr.judge.batch import judge_file
from indicjr.metrics.summary import summarize
from indicjr.report.build import build_report
from indicjr.report.runs import load_run
from indicjr.run.results import result_row, verdict_for, write_run
from indicjr.targets.base import Response, writable_response
from indicjr.targets.store import Store, StoreRow
from indicjr.untrusted import REPLACEMENT, repair_note, utf8_safe

ROOT = Path(__file__).resolve().parents[3]
CASES = {c.track + c.subset: c for c in load_cases(ROOT / "cases" / "lite")}
HOSTILE = st.sampled_from(["\ud83d", "\udc00", "\x00", "\u202e", "\u2066", "\ufeff", "[", "{", "x" * 5000, "😀"])
# Any code point, surrogates included (hypothesis leaves them out of text() by default), mixed with
# the pieces the audit used.
REPLIES = st.lists(st.one_of(st.text(st.characters(exclude_categories=()), max_size=40), HOSTILE), max_size=8).map(
    "".join
)
MEGA_RUN = "\ud83d" + "a" * 1_000_000 + "\u202e\x00"


def _case(i: int) -> Any:
    return list(CASES.values())[i % len(CASES)]


def test_utf8_safe_replaces_each_lone_surrogate_and_keeps_everything_else() -> None:
    assert utf8_safe("a\ud83db\udc00") == (f"a{REPLACEMENT}b{REPLACEMENT}", 2)
    assert utf8_safe("😀\x00\u202e") == ("😀\x00\u202e", 0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(reply=REPLIES, i=st.integers(0, 5))
@example(reply=MEGA_RUN, i=0)
@example(reply="\ud83d", i=1)
@example(reply="\ud83d\ude00", i=2)
def test_any_reply_is_stored_read_back_judged_and_written_by_every_writer(
    reply: str, i: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tmp = tmp_path_factory.mktemp("hostile")
    case = _case(i)
    resp = Response(text=reply, reasoning=reply[:50], provider_detail=None)
    expected = writable_response(resp)
    expected.text.encode("utf-8")  # writable: no lone surrogate left (raises otherwise)
    assert (expected.repair is not None) == (expected.text != reply or expected.reasoning != resp.reasoning)
    with Store(tmp / "store.sqlite") as store:
        store.put_many([StoreRow("k", "m", case.id, 0, resp)])
        back = store.get("k")
    assert back is not None
    assert (back.text, back.reasoning, back.repair) == (expected.text, expected.reasoning, expected.repair)

    row = result_row(case, back, verdict_for(case, back), 0)
    out = tmp / "run"
    write_run(out, [row], summarize([row], meta={"model": "m", "complete": True}))
    written = [json.loads(x) for x in (out / "results.jsonl").read_text("utf-8").splitlines()]
    assert written[0]["response"] == expected.text
    assert written[0].get("repair") == expected.repair
    build_report([load_run(out)], tmp / "report", figures=False)
    assert (tmp / "report" / "report.html").read_text("utf-8")

    src, dst = tmp / "in.jsonl", tmp / "out.jsonl"
    src.write_text(
        json.dumps({"id": case.id, "lang": case.lang, "track": case.track, "subset": case.subset, "response": reply})
        + "\n",
        encoding="utf-8",
    )  # ensure_ascii: "\ud83d" escaped
    assert judge_file(src, dst, err=io.StringIO()) == (1, 0)
    judged = json.loads(dst.read_text("utf-8"))
    assert judged["id"] == case.id
    # JSON pairs a high and a low surrogate written side by side into one character: not repaired
    assert judged.get("repair") == repair_note(utf8_safe(json.loads(json.dumps(reply)))[1])


def test_ijr_judge_keeps_its_old_output_when_it_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The output file is a temporary file renamed into place: a failed run never empties it."""
    src, dst = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    dst.write_text("previous results\n", encoding="utf-8")
    src.write_text('{"id": "a", "lang": "hi", "track": "free", "subset": "AB", "response": "x"}\n', encoding="utf-8")

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("judge bug")

    monkeypatch.setattr(batch, "judge_row", broken)
    with pytest.raises(RuntimeError):
        judge_file(src, dst, err=io.StringIO())
    assert dst.read_text("utf-8") == "previous results\n"
    assert not (tmp_path / "out.jsonl.tmp").exists()
