"""Shared helpers for building the real-output judge corpus (tests/data/judge_real/).

Why this exists: the judge must be developed on replies that real models wrote, with full provenance
for every row.  The adapters in ``sources.py`` read result files of public research repositories that
were brought onto this machine with the ``fetch`` tool (git directories under /work/.mirror); this module
holds what all adapters share: reading a file at a commit, the reply-script count, the safety cut for
replies to harmful prompts, and the row shape.

Nothing here decides whether a reply is a refusal: rows are unlabeled on purpose (labelers come later).
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from indicjr.langs import LANGS, SCRIPT_OF, SCRIPT_RANGES

MIRROR = Path("/work/.mirror")

# Unicode blocks of the native script of each IJR language (the language registry's).
_NATIVE_BLOCKS: dict[str, tuple[tuple[int, int], ...]] = {code: SCRIPT_RANGES[SCRIPT_OF[code]] for code in LANGS}

# A handful of very common English function words: a Latin-letter reply made mostly of them is English,
# otherwise it is treated as romanized Indic.  Deliberately crude; the labelers see the text anyway.
_ENGLISH_WORDS = frozenset(
    "the a an is are was were be to of and or in on for with that this it i you we they not can "
    "cannot can't do does will would should could have has please sorry but as by from at your my".split()
)


@dataclass(frozen=True, slots=True)
class Row:
    """One reply of one model, with everything needed to trace it back to its source."""

    id: str
    lang: str
    reply_script: str
    prompt: str
    prompt_kind: str
    task: str | None
    reply: str
    truncated: bool
    model: str
    source: str
    commit: str
    path: str
    license: str
    split: str

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)


def repo_dir(source: str) -> Path:
    """The git directory ``fetch`` created for ``owner/name``."""
    return MIRROR / source.replace("/", "+") / "repo"


def head_commit(source: str) -> str:
    out = subprocess.run(
        ["git", "-C", str(repo_dir(source)), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    )
    return out.stdout.strip()


def show_bytes(source: str, commit: str, path: str) -> bytes:
    """Raw bytes of ``path`` at ``commit`` in the fetched mirror."""
    out = subprocess.run(
        ["git", "-C", str(repo_dir(source)), "show", f"{commit}:{path}"], check=True, capture_output=True
    )
    return out.stdout


def show(source: str, commit: str, path: str) -> str:
    """Text of ``path`` at ``commit`` (UTF-8, BOM dropped)."""
    return show_bytes(source, commit, path).decode("utf-8-sig", errors="replace")


def read_csv(source: str, commit: str, path: str) -> list[dict[str, str]]:
    csv.field_size_limit(1 << 30)
    return list(csv.DictReader(io.StringIO(show(source, commit, path))))


def read_jsonl(source: str, commit: str, path: str) -> list[dict]:
    return [json.loads(line) for line in show(source, commit, path).splitlines() if line.strip()]


def _is_native(ch: str, lang: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _NATIVE_BLOCKS[lang])


def reply_script(text: str, lang: str) -> str:
    """native | romanized | mixed | english, by counting letters (a simple script count)."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "native"
    native = sum(1 for c in letters if _is_native(c, lang))
    latin = sum(1 for c in letters if c.isascii())
    share_native, share_latin = native / len(letters), latin / len(letters)
    if share_native >= 0.85:
        return "native"
    if share_latin >= 0.85:
        words = re.findall(r"[a-z']+", text.lower())
        english = sum(1 for w in words if w in _ENGLISH_WORDS)
        return "english" if words and english / len(words) >= 0.2 else "romanized"
    return "mixed"


# Sentence ends: . ! ? and the danda / double danda / Urdu full stop.
_SENTENCE_END = re.compile("(?<=[.!?\u0964\u0965\u06d4])\\s+")
# Start of a list, a step, a heading or code: operational content begins here in most replies.
_LIST_START = re.compile(r"(?m)^\s*(?:\d+[.)]|[-*\u2022]\s|#{1,6}\s|```|\*\*[^*\n]{0,40}\*\*\s*:?\s*$)")


def safety_cut(reply: str, max_sentences: int = 2, max_chars: int = 400) -> tuple[str, bool]:
    """Keep only the opening of a reply to a harmful prompt: before the first list/step/code marker,
    at most ``max_sentences`` sentences and ``max_chars`` characters.  Returns (text, cut?)."""
    text = reply.strip()
    marker = _LIST_START.search(text)
    head = text[: marker.start()] if marker and marker.start() > 0 else text
    if marker and marker.start() == 0:
        head = ""
    sentences = _SENTENCE_END.split(head.strip())
    head = " ".join(sentences[:max_sentences]).strip()
    if len(head) > max_chars:
        head = head[:max_chars].rsplit(" ", 1)[0].rstrip()
    return head, head != text


def short_prompt(prompt: str, limit: int = 300) -> str:
    """The prompt as stored: at most ``limit`` characters (harmful prompts are never stored whole)."""
    p = " ".join(prompt.split())
    return p if len(p) <= limit else p[:limit].rsplit(" ", 1)[0] + " …"


_CUES_FILE = Path(__file__).with_name("refusal_cues.json")


def cue_words(lang: str) -> tuple[str, ...]:
    """Apology/inability words of ``lang`` plus English (data file; used only for enrichment)."""
    data = json.loads(_CUES_FILE.read_text(encoding="utf-8"))
    return tuple(data["en"]) + tuple(data.get(lang, ()))


def has_cue(text: str, lang: str) -> bool:
    low = text.lower()
    return any(word in low for word in cue_words(lang))


def sample(items: list, k: int, seed: str) -> list:
    """A reproducible sample of ``k`` items (all of them if fewer), in source order."""
    if len(items) <= k:
        return list(items)
    rng = random.Random(seed)
    picked = sorted(rng.sample(range(len(items)), k))
    return [items[i] for i in picked]
