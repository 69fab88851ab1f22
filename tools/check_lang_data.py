"""Quick checker for the language data files described in docs/DATA_FORMAT.md (and docs/ADDING_A_LANGUAGE.md).

Usage: python tools/check_lang_data.py LANG [LANG ...]
Prints problems; exits non-zero when any file breaks the rules.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

import yaml

from indicjr.errors import IJRError
from indicjr.judge.bundle import check_bundle
from indicjr.langs import LANGS, REGISTRY, SCRIPT_OF, SCRIPT_RANGES, lang_file

ROOT = Path(__file__).resolve().parent.parent
# The native-script ranges of each language, from the language registry (src/indicjr/langs/languages.yaml).
RANGES = {code: SCRIPT_RANGES[SCRIPT_OF[code]] for code in LANGS}
ALLOWED_EXTRA = set(
    " \n\t0123456789.,;:?!'\"()-/%\u0964\u0965\u200c\u200d\u060c\u061f\u06d4\u061b"
    "\u2013\u2014\u2018\u2019\u201c\u201d{}"
)
PLACEHOLDERS = re.compile(r"\{(payload|canary|History|Science|Sports|Other)\}")
# Names native writers type in Latin letters inside native text (format wrappers: Punjabi "YAML roop vich").
LATIN_TERMS = re.compile(r"\b(?:JSON|YAML|AI)\b")


def native_problems(text: str, lang: str) -> list[str]:
    text = LATIN_TERMS.sub("", PLACEHOLDERS.sub("", text))
    bad = []
    for ch in unicodedata.normalize("NFC", text):
        cp = ord(ch)
        if ch in ALLOWED_EXTRA or any(lo <= cp <= hi for lo, hi in RANGES[lang]):
            continue
        bad.append(ch)
    return sorted(set(bad))


def check_strings(items, lang, kind, where, errs):
    for s in items:
        if not isinstance(s, str) or not s.strip():
            errs.append(f"{where}: empty or non-string item")
            continue
        if "..." in s or "…" in s or "TODO" in s:
            errs.append(f"{where}: placeholder-looking text: {s[:40]!r}")
        if kind == "native":
            bad = native_problems(s, lang)
            if bad:
                errs.append(f"{where}: non-native characters {bad!r} in {s[:40]!r}")
        elif kind == "romanized":
            if not s.isascii():
                errs.append(f"{where}: romanized text not ASCII: {s[:40]!r}")


def check_cases(lang, errs):
    p = lang_file(lang, "source")
    if not p.exists():
        return errs.append(f"{p}: missing")
    d = yaml.safe_load(p.read_text(encoding="utf-8"))
    cats = d["categories"]
    assert set(cats) == {"History", "Science", "Sports", "Other"}, "categories keys"
    check_strings(list(cats.values()), lang, "native", f"{p.name}:categories", errs)
    ids = set()
    counts = {}
    for item in d["passages"]:
        n = len(unicodedata.normalize("NFC", item["text"]))
        if not 400 <= n <= 1200:
            errs.append(f"{p.name}:{item['id']}: length {n} outside 400-1200")
        counts[item["category"]] = counts.get(item["category"], 0) + 1
        check_strings([item["text"]], lang, "native", f"{p.name}:{item['id']}", errs)
        if item["id"] in ids:
            errs.append(f"duplicate id {item['id']}")
        ids.add(item["id"])
    if len(d["passages"]) < 30:
        errs.append(f"{p.name}: only {len(d['passages'])} passages")
    if set(counts) != {"History", "Science", "Sports", "Other"} or min(counts.values()) < 6:
        errs.append(f"{p.name}: category spread {counts}")
    intents = {}
    for item in d["harmful"]:
        intents[item["intent"]] = intents.get(item["intent"], 0) + 1
        check_strings([item["text"]], lang, "native", f"{p.name}:{item['id']}", errs)
        if item["id"] in ids:
            errs.append(f"duplicate id {item['id']}")
        ids.add(item["id"])
    if set(intents) != {"chem_synth", "bio_hazard", "illicit_access"} or min(intents.values()) < 5:
        errs.append(f"{p.name}: intents {intents}")
    assert set(d["tasks"]) == {"summarise", "facts", "classify"}, "tasks keys"
    check_strings(list(d["tasks"].values()), lang, "native", f"{p.name}:tasks", errs)
    for c in ("{History}", "{Science}", "{Sports}", "{Other}"):
        if c not in d["tasks"]["classify"]:
            errs.append(f"{p.name}: classify task lacks {c}")
    if "{canary}" not in d["canary_line"]:
        errs.append(f"{p.name}: canary_line lacks {{canary}}")
    check_strings([d["canary_line"]], lang, "native", f"{p.name}:canary_line", errs)
    for fam in ("instruction", "translate", "roleplay", "format"):
        ws = d["wrappers"][fam]
        if len(ws) < 3:
            errs.append(f"{p.name}: wrappers.{fam} has {len(ws)} < 3")
        for w in ws:
            if w.count("{payload}") != 1:
                errs.append(f"{p.name}: wrapper without exactly one {{payload}}: {w[:40]!r}")
        check_strings(ws, lang, "native", f"{p.name}:wrappers.{fam}", errs)
    for kind in ("urgency", "authority", "no_disclaimer"):
        cs = d["pressure_cues"][kind]
        if len(cs) < 3:
            errs.append(f"{p.name}: pressure_cues.{kind} has {len(cs)} < 3")
        check_strings(cs, lang, "native", f"{p.name}:pressure_cues.{kind}", errs)


def check_bank(path, sections, minimum, lang, errs):
    if not path.exists():
        return errs.append(f"{path}: missing")
    d = yaml.safe_load(path.read_text(encoding="utf-8"))
    for sec, low in zip(sections, minimum, strict=True):
        for kind in ("native", "romanized"):
            items = d[sec][kind]
            if len(items) < low:
                errs.append(f"{path.name}: {sec}.{kind} has {len(items)} < {low}")
            check_strings(items, lang, kind, f"{path.name}:{sec}.{kind}", errs)


def check_devset(lang, errs):
    p = ROOT / "tests/data/judge_devset" / f"{lang}.jsonl"
    if not p.exists():
        return errs.append(f"{p}: missing")
    rows = [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    if len(rows) < 40:
        errs.append(f"{p.name}: {len(rows)} rows < 40")
    kinds = {}
    for r in rows:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
        assert r["lang"] == lang and r["script"] in {"native", "romanized", "mixed", "english"}, r["id"]
        assert set(r["gold"]) >= {"refused", "partial", "leak"}, r["id"]
        if r["subset"] == "CH" and not r.get("canary"):
            errs.append(f"{p.name}:{r['id']}: CH row without canary")
    print(f"{p.name}: {len(rows)} rows, kinds {kinds}")


def main(langs):
    errs = []
    unknown = [lang for lang in langs if lang not in LANGS]
    if unknown:
        print(f"PROBLEM {', '.join(unknown)}: not in the language registry (src/indicjr/langs/languages.yaml)")
        return 1
    for lang in langs:
        try:
            check_bundle(REGISTRY, lang)  # the loaders' own checks: registry entry, files, required sections
        except IJRError as exc:
            errs.append(str(exc))
            continue
        check_cases(lang, errs)
        check_bank(
            lang_file(lang, "lexicon"),
            ["refusal", "apology", "unsafe_terms"],
            [30, 3, 10],
            lang,
            errs,
        )
        check_bank(
            lang_file(lang, "sim_phrases"),
            ["refuse", "comply_open", "partial_open", "harmful_body", "justification_refuse", "justification_comply"],
            [8, 6, 4, 4, 4, 4],
            lang,
            errs,
        )
        check_devset(lang, errs)
    for e in errs:
        print("PROBLEM", e)
    print("OK" if not errs else f"{len(errs)} problems")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
