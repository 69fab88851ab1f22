"""Build the benchmark's case sets from the shipped sources, reproducibly (seed 13, no timestamps).

Design of a profile (per language; docs/CASES.md has the table):
- a benign core is a passage with one task (summarise / facts / classify, assigned by rank);
- AB crosses every core chosen for it with 4 families x 3 wrapper languages (same, English = cross,
  another Indic language = cross/E2) x 4 orthographies; wrapper variant and pressure cues are drawn per
  (core, family, wrapper language), so orthography and track variants of one condition differ only in
  orthography or track (the pairing the paired effects need);
- CB crosses its cores with the 4 orthographies; CH crosses harmful cores with the 4 orthographies, and
  every CH case gets its own canary;
- per language, the romanized share (romanized + noisy cases) follows the paper's Table 5 range
  0.392-0.552, Urdu highest (`_romanized_target`): native and romanized are always built (every variant
  needs its native twin), noisy and mixed variants of a condition are kept or left out by a
  low-discrepancy draw, identical across tracks and profiles (pairs and lite-in-full survive);
- the pressure-cue share of AB prompts per language lies in the paper's 0.764-0.953, by the same kind of
  draw (a target of at least 0.82 per language, met to within a few conditions, not by luck of the seed);
- JSON carries the contract as a system message, FREE only the user message.
`full` takes every core; `lite` the first cores of a seeded, stratified ranking, so lite is a subset of full
(lite's FREE CH takes one harmful core of each intent: chem_synth, bio_hazard and illicit_access).
"""

from __future__ import annotations

import hashlib
import random
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from indicjr.cases.features import compute_features
from indicjr.cases.model import Case, Message
from indicjr.cases.orthography import apply_orthography
from indicjr.cases.sources import (
    PRESSURE_KINDS,
    HarmfulCore,
    LangSource,
    Passage,
    available_langs,
    contract_system,
    load_source,
)
from indicjr.errors import ConfigError
from indicjr.langs import REGISTRY, ROMANIZED_SHARE, Family, Orthography, Task

SEED = 13
ORTHOGRAPHIES = tuple(o.value for o in Orthography)
FAMILIES = tuple(f.value for f in Family)
TASKS = tuple(t.value for t in Task)


@dataclass(frozen=True, slots=True)
class ProfileSpec:
    """How many cores of each kind a profile takes per language (None = all)."""

    name: str
    json_ab: int | None
    json_cb: int | None
    json_ch: int | None
    free_ab: int
    free_cb: int
    free_ch: int


PROFILES: dict[str, ProfileSpec] = {
    "full": ProfileSpec("full", json_ab=None, json_cb=None, json_ch=None, free_ab=4, free_cb=5, free_ch=3),
    "lite": ProfileSpec("lite", json_ab=5, json_cb=8, json_ch=5, free_ab=2, free_cb=3, free_ch=3),
}


def _rng(*parts: str) -> random.Random:
    return random.Random(zlib.crc32(":".join((str(SEED), *parts)).encode("utf-8")))


def _stratified(items: Sequence[Passage | HarmfulCore], key: str, group: str) -> list[str]:
    """Ids ranked by a seeded round-robin over groups (category or intent), so any prefix is balanced."""
    groups: dict[str, list[str]] = {}
    for it in sorted(items, key=lambda x: x.id):
        groups.setdefault(getattr(it, group), []).append(it.id)
    for name, ids in groups.items():
        _rng(key, name).shuffle(ids)
    ranked: list[str] = []
    while any(groups.values()):
        for name in sorted(groups):
            if groups[name]:
                ranked.append(groups[name].pop(0))
    return ranked


def _canary(lang: str, case_key: str) -> str:
    digest = hashlib.sha256(f"ijr-canary-v1:{SEED}:{case_key}".encode()).hexdigest()
    return f"IJR-{digest[:8]}-{lang}"


def _case_id(lang: str, track: str, subset: str, parts: Sequence[str], key: str) -> str:
    digest = hashlib.sha1(f"{track}:{key}".encode()).hexdigest()[:6]
    return "-".join((lang, track, subset, *parts, digest))


_PHI = 0.6180339887498949  # golden-ratio steps: any run of consecutive indices is evenly spread over [0, 1)


def _spread(lang: str, kind: str, index: int) -> float:
    """A deterministic draw in [0, 1) for the index-th condition of a language: a golden-ratio sequence
    from a per-language offset, so a share of any block of conditions meets its rate to within a few
    conditions (a seeded random draw left te's lite pressure share at 0.738, below the paper's minimum)."""
    offset = (zlib.crc32(f"{SEED}:{lang}:{kind}".encode()) % 100_000) / 100_000
    return (offset + index * _PHI) % 1.0


def _pressure_rate(lang: str) -> float:
    # Per-language share of AB prompts with pressure cues, spread over 0.82-0.94 (the paper: 0.764-0.953;
    # the floor leaves room for lite's few conditions per language).
    return 0.82 + (zlib.crc32(lang.encode()) % 1000) / 1000 * 0.12


def _romanized_target(lang: str) -> float:
    """Per-language romanized share (romanized + noisy cases): the registry's where it gives one (Urdu
    0.552), the others spread over 0.45-0.53 (the paper's Table 5: 0.392-0.552, Urdu highest)."""
    if lang in ROMANIZED_SHARE:  # the registry's fixed share (Urdu: 0.552)
        return ROMANIZED_SHARE[lang]
    # Not below 0.45: the keep-rate of noisy variants is then at least 1 - 0.618 (the golden step), so of
    # any two consecutive cores one keeps each condition's noisy variant: every slice cell stays covered
    # even in lite's FREE track (two cores).
    return 0.45 + (zlib.crc32(f"romanized:{lang}".encode()) % 1000) / 1000 * 0.08


def _variant_rates(lang: str) -> tuple[float, float]:
    """(keep noisy, keep mixed) so that (1 + noisy) / (2 + noisy + mixed) is the language's target."""
    s = _romanized_target(lang)
    if s <= 0.5:
        return (3 * s - 1) / (1 - s), 1.0
    return 1.0, 2 / s - 3


def orthographies(lang: str, index: int) -> tuple[str, ...]:
    """The orthographies built for the index-th condition of a language (native and romanized always)."""
    keep_noisy, keep_mixed = _variant_rates(lang)
    keep = {
        "native": True,
        "romanized": True,
        "noisy": _spread(lang, "noisy", index) < keep_noisy,
        "mixed": _spread(lang, "mixed", index) < keep_mixed,
    }
    return tuple(o for o in ORTHOGRAPHIES if keep[o])


def _e2_lang(core_id: str, lang: str, langs: Sequence[str]) -> str | None:
    """The core's E2 wrapper language: of the other languages, the one whose stable hash of (registry seed,
    core, language) is highest (rendezvous hashing). Adding a language moves only the cores it now wins
    (about 1 in N); a draw by list position moved most of them."""
    others = [x for x in langs if x != lang]
    return max(others, key=lambda x: (_weight(core_id, x), x)) if others else None


def _weight(core_id: str, candidate: str) -> int:
    """A well-mixed stable hash (sha256: crc32 is linear, its maxima over similar keys are correlated)."""
    return int.from_bytes(hashlib.sha256(f"e2:{REGISTRY.e2_seed}:{core_id}:{candidate}".encode()).digest()[:8], "big")


class _Builder:
    def __init__(self, langs: Sequence[str]) -> None:
        self.langs = tuple(langs)
        self.contract_version, self.contract = contract_system()

    def messages(self, track: str, user: str) -> tuple[Message, ...]:
        if track == "json":
            return (Message("system", self.contract), Message("user", user))
        return (Message("user", user),)

    def case(
        self,
        *,
        lang: str,
        track: str,
        subset: str,
        orth: str,
        core_id: str,
        key: str,
        lines: list[tuple[str, str]],
        id_parts: Sequence[str],
        **fields: object,
    ) -> Case:
        user = apply_orthography(lines, orth, key, case_lang=lang)
        return Case(
            id=_case_id(lang, track, subset, (*id_parts, orth), f"{key}:{orth}"),
            lang=lang,
            track=track,
            subset=subset,
            orthography=orth,
            core_id=core_id,
            messages=self.messages(track, user),
            features=compute_features(user),
            meta={"contract": self.contract_version} if track == "json" else {},
            **fields,  # type: ignore[arg-type]
        )

    def ab_cases(self, src: LangSource, p: Passage, task: str, track: str, rank: int) -> Iterator[Case]:
        """`rank`: the core's place in the language's ranking (the same in both tracks and profiles)."""
        modes = [(src.lang, "same"), ("en", "cross")]
        e2 = _e2_lang(p.id, src.lang, self.langs)
        if e2:
            modes.append((e2, "cross"))
        for f, fam in enumerate(FAMILIES):
            for m, (wlang, mode) in enumerate(modes):
                index = (f * 3 + m) * 1000 + rank  # consecutive cores: consecutive steps within a cell
                wsrc = load_source(wlang)
                key = f"{p.id}:{fam}:{wlang}"
                rng = _rng("ab", key)
                before, after = rng.choice(wsrc.wrappers[fam]).split("{payload}")
                cues: tuple[str, ...] = ()
                rng.random()  # the former cue draw, kept so the wrapper and cue choices stay as they were
                if _spread(src.lang, "pressure", index) < _pressure_rate(src.lang):
                    cues = tuple(sorted(rng.sample(PRESSURE_KINDS, rng.choice((1, 1, 2)))))
                lines = [(before.strip(), wlang), (p.text, src.lang), (wsrc.task_line(task), wlang)]
                lines += [(after.strip(), wlang)] if after.strip() else []
                lines += [(rng.choice(wsrc.pressure_cues[c]), wlang) for c in cues]
                lines = [(t, lg) for t, lg in lines if t]
                wtag = "e2" if wlang not in (src.lang, "en") else mode
                for orth in orthographies(src.lang, index):
                    yield self.case(
                        lang=src.lang,
                        track=track,
                        subset="AB",
                        orth=orth,
                        core_id=p.id,
                        key=key,
                        lines=lines,
                        id_parts=(fam, wtag),
                        family=fam,
                        mode=mode,
                        wrapper_lang=wlang,
                        task=task,
                        category=p.category,
                        pressure=cues,
                    )

    def cb_cases(self, src: LangSource, p: Passage, task: str, track: str, rank: int) -> Iterator[Case]:
        lines = [(p.text, src.lang), (src.task_line(task), src.lang)]
        for orth in orthographies(src.lang, 100_000 + rank):
            yield self.case(
                lang=src.lang,
                track=track,
                subset="CB",
                orth=orth,
                core_id=p.id,
                key=f"{p.id}:cb",
                lines=lines,
                id_parts=(),
                task=task,
                category=p.category,
            )

    def ch_cases(self, src: LangSource, h: HarmfulCore, track: str, rank: int) -> Iterator[Case]:
        for orth in orthographies(src.lang, 200_000 + rank):
            key = f"{h.id}:ch:{track}:{orth}"
            canary = _canary(src.lang, key)
            lines = [(h.text, src.lang), (src.canary_line.format(canary=canary), src.lang)]
            yield self.case(
                lang=src.lang,
                track=track,
                subset="CH",
                orth=orth,
                core_id=h.id,
                key=f"{h.id}:ch",
                lines=lines,
                id_parts=(h.intent,),
                intent=h.intent,
                canary=canary,
            )


def _take(ranked: list[str], n: int | None) -> list[str]:
    return list(ranked) if n is None else ranked[:n]


def _with_cores(src: LangSource, cores: str, cores_source: str | None) -> LangSource:
    """The language source with its benign passages taken from the chosen core source."""
    if cores == "shipped":
        return src
    if cores == "wikipedia":
        import dataclasses

        from indicjr.cases.wikipedia import wikipedia_passages

        return dataclasses.replace(src, passages=tuple(wikipedia_passages(src.lang, source=cores_source)))
    raise ConfigError(f"--cores: unknown core source {cores!r} (use shipped or wikipedia)")


def build_profile(
    profile: str, langs: Sequence[str] | None = None, *, cores: str = "shipped", cores_source: str | None = None
) -> list[Case]:
    """All cases of a profile, in a stable order (language, track, subset, core, condition)."""
    if profile not in PROFILES:
        raise ConfigError(f"--profile: unknown profile {profile!r} (choose from {', '.join(PROFILES)})")
    spec = PROFILES[profile]
    langs = tuple(langs) if langs else available_langs()
    builder = _Builder(langs)
    out: list[Case] = []
    for lang in langs:
        src = _with_cores(load_source(lang), cores, cores_source)
        ranked = _stratified(src.passages, f"{lang}:passages", "category")
        task_of = {pid: TASKS[i % len(TASKS)] for i, pid in enumerate(ranked)}
        by_id = {p.id: p for p in src.passages}
        harm_ranked = _stratified(src.harmful, f"{lang}:harmful", "intent")
        harm_by_id = {h.id: h for h in src.harmful}
        for track, n_ab, n_cb, n_ch in (
            ("json", spec.json_ab, spec.json_cb, spec.json_ch),
            ("free", spec.free_ab, spec.free_cb, spec.free_ch),
        ):
            for pid in sorted(_take(ranked, n_ab)):
                out.extend(builder.ab_cases(src, by_id[pid], task_of[pid], track, ranked.index(pid)))
            for pid in sorted(_take(ranked, n_cb)):
                out.extend(builder.cb_cases(src, by_id[pid], task_of[pid], track, ranked.index(pid)))
            for hid in sorted(_take(harm_ranked, n_ch)):
                out.extend(builder.ch_cases(src, harm_by_id[hid], track, harm_ranked.index(hid)))
    return out
