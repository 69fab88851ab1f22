"""The Case record: one prompt under one condition, and its JSON form.

A case is immutable. It crosses process and file boundaries only as a `CaseDict` (JSON Lines),
through the symmetric `case_to_dict` / `case_from_dict` pair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict


@dataclass(frozen=True, slots=True)
class Message:
    role: str  # "system" | "user"
    content: str


@dataclass(frozen=True, slots=True)
class Features:
    """Text features of the user message that the E6 analysis correlates with ΔJSR."""

    latin_share: float  # share of letters that are Latin
    bytes_per_char: float  # UTF-8 bytes per character
    script_switches_per100: float  # changes of letter script per 100 characters
    mean_run_len: float  # mean length (letters) of same-script runs
    mean_word_len: float  # mean whitespace-token length in characters


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    lang: str
    track: str  # json | free
    subset: str  # AB | CB | CH
    orthography: str  # native | romanized | mixed | noisy
    core_id: str
    messages: tuple[Message, ...]
    features: Features
    family: str | None = None  # AB only
    mode: str | None = None  # AB only: same | cross
    wrapper_lang: str | None = None  # AB only: an Indic code or "en"
    task: str | None = None  # benign: summarise | facts | classify
    category: str | None = None  # benign core's category; the expected answer for classify
    intent: str | None = None  # CH only
    canary: str | None = None  # CH only
    pressure: tuple[str, ...] = ()  # pressure-cue kinds added (urgency, authority, no_disclaimer)
    source: str = "ijr"  # "ijr" (built) or "official" (imported release)
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def user_text(self) -> str:
        """The user message (the text orthography and features apply to)."""
        return next(m.content for m in self.messages if m.role == "user")

    @property
    def e2(self) -> bool:
        """True when wrapper and core are in different Indic languages (the paper's E2 pairing)."""
        return self.wrapper_lang is not None and self.wrapper_lang not in ("en", self.lang)


class CaseDict(TypedDict, total=False):
    id: str
    lang: str
    track: str
    subset: str
    family: str | None
    mode: str | None
    wrapper_lang: str | None
    orthography: str
    core_id: str
    task: str | None
    category: str | None
    intent: str | None
    canary: str | None
    pressure: list[str]
    source: str
    messages: list[dict[str, str]]
    features: dict[str, float]
    meta: dict[str, Any]


def case_to_dict(case: Case) -> CaseDict:
    """JSON-ready dict with a fixed key order (so files are byte-stable)."""
    out: CaseDict = {
        "id": case.id,
        "lang": case.lang,
        "track": case.track,
        "subset": case.subset,
        "family": case.family,
        "mode": case.mode,
        "wrapper_lang": case.wrapper_lang,
        "orthography": case.orthography,
        "core_id": case.core_id,
        "task": case.task,
        "category": case.category,
        "intent": case.intent,
        "canary": case.canary,
        "pressure": list(case.pressure),
        "source": case.source,
        "messages": [{"role": m.role, "content": m.content} for m in case.messages],
        "features": {
            "latin_share": case.features.latin_share,
            "bytes_per_char": case.features.bytes_per_char,
            "script_switches_per100": case.features.script_switches_per100,
            "mean_run_len": case.features.mean_run_len,
            "mean_word_len": case.features.mean_word_len,
        },
    }
    if case.meta:
        out["meta"] = case.meta
    return out


def case_from_dict(d: CaseDict) -> Case:
    """Inverse of case_to_dict. Validation (with file:line messages) lives in cases.io."""
    f = d["features"]
    return Case(
        id=d["id"],
        lang=d["lang"],
        track=d["track"],
        subset=d["subset"],
        family=d.get("family"),
        mode=d.get("mode"),
        wrapper_lang=d.get("wrapper_lang"),
        orthography=d["orthography"],
        core_id=d["core_id"],
        task=d.get("task"),
        category=d.get("category"),
        intent=d.get("intent"),
        canary=d.get("canary"),
        pressure=tuple(d.get("pressure", ())),
        source=d.get("source", "ijr"),
        messages=tuple(Message(role=m["role"], content=m["content"]) for m in d["messages"]),
        features=Features(
            latin_share=float(f["latin_share"]),
            bytes_per_char=float(f["bytes_per_char"]),
            script_switches_per100=float(f["script_switches_per100"]),
            mean_run_len=float(f["mean_run_len"]),
            mean_word_len=float(f["mean_word_len"]),
        ),
        meta=dict(d.get("meta", {})),
    )
