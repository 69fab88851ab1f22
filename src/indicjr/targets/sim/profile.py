"""Profiles of the simulated model: the YAML under profiles/, validated, and its per-condition rates.

A profile states the marginal rates it is designed to produce (`expect`) and the structure around them
(`effects`: offsets by orthography, family, mode and language on the JSON AB COMPLY probability). Offsets
are given relative to any level and centred here with the design weights (equal orthographies, families
and languages; modes as in `design.mode`), so averaging the per-condition probabilities over the design
gives back `expect`. Per-condition probabilities are clipped to [0, schema validity];
`Profile.design_marginal()` computes the exact design average after clipping (a test holds it to `expect`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from indicjr.errors import ConfigError, DataFileError
from indicjr.langs import LANGS, Family, Orthography
from indicjr.yamlio import load_yaml

PROFILES_DIR = Path(str(resources.files("indicjr.targets.sim") / "profiles"))

EXPECT_KEYS = (
    "json_jsr",
    "json_sv_ab",
    "json_ch_leak",
    "free_jsr_ab",
    "json_or_cb",
    "json_ur_ch",
    "free_or_cb",
)
_STYLE_DEFAULTS: dict[str, float] = {
    "english_refusal": 0.1,  # share of refusals written in English to an Indic prompt
    "free_partial_share": 0.2,  # share of FREE refusals that are partial (refusal wording, then the task)
    "free_ch_partial_share": 0.02,  # the same on CH, where a partial quotes the canary (a leak)
    "json_abstain_share": 0.03,  # share of valid non-COMPLY (AB/CH) or non-REFUSE (CB) contracts that ABSTAIN
    "json_contradiction": 0.02,  # share of valid COMPLY contracts whose justification refuses
    "leak_obfuscation": 0.1,  # share of leaked canaries written with spaces/dashes/case changed
    "category_english": 0.2,  # share of classify answers given as the English category word
    "sample_consistency": 0.7,  # chance that sample k > 0 repeats sample 0's decision (per-prompt agreement)
    "latency_ms": 0.0,
}
VALID_STYLES = ("bare", "fenced", "prose_before", "prose_after", "whitespace", "lowercase")
MALFORMED_KINDS = (
    "single_quotes",
    "smart_quotes",
    "trailing_comma",
    "missing_key",
    "localized_decision",
    "truncated",
    "no_json",
)
_EFFECT_LEVELS: dict[str, tuple[str, ...]] = {
    "orthography": tuple(o.value for o in Orthography),
    "family": tuple(f.value for f in Family),
    "mode": ("same", "cross"),
    "lang": LANGS,
}


def _fail(path: Path, msg: str) -> DataFileError:
    return DataFileError(f"{path}: {msg}")


def _rate(path: Path, key: str, value: Any) -> float:
    if not isinstance(value, int | float) or not 0.0 <= float(value) <= 1.0:
        raise _fail(path, f"{key} must be a number in [0, 1], got {value!r}")
    return float(value)


def _weights(path: Path, key: str, raw: Any, levels: tuple[str, ...]) -> dict[str, float]:
    if not isinstance(raw, dict) or not raw or set(raw) - set(levels):
        raise _fail(path, f"{key} must map some of {', '.join(levels)} to numbers")
    total = sum(float(v) for v in raw.values())
    if total <= 0:
        raise _fail(path, f"{key}: weights must sum to a positive number")
    return {k: float(raw.get(k, 0.0)) / total for k in levels}


def _centred(raw: dict[str, Any], weights: dict[str, float]) -> dict[str, float]:
    vals = {k: float(raw.get(k, 0.0)) for k in weights}
    mean = sum(weights[k] * vals[k] for k in weights)
    return {k: vals[k] - mean for k in weights}


@dataclass(frozen=True, slots=True)
class Profile:
    """A validated profile; `expect` holds every rate (defaults filled), effects are centred."""

    name: str
    display_name: str
    expect: dict[str, float]
    style: dict[str, float]
    effects: dict[str, dict[str, float]]  # factor -> level -> centred offset
    design: dict[str, dict[str, float]]  # factor -> level -> weight
    valid_styles: dict[str, float]
    malformed_kinds: dict[str, float]
    _ab_cache: dict[tuple[str | None, ...], float] = field(default_factory=dict, compare=False, repr=False)

    @property
    def sv_clean(self) -> float:
        return self.expect["json_sv_clean"]

    def json_ab_comply(self, lang: str | None, orth: str | None, family: str | None, mode: str | None) -> float:
        """P(valid COMPLY contract) for one JSON AB condition (unknown levels get no offset)."""
        return _ab_comply(self, lang, orth, family, mode)

    def design_marginal(self) -> float:
        """Exact design-weighted mean of the clipped JSON AB COMPLY probabilities."""
        total = 0.0
        d = self.design
        for o, wo in d["orthography"].items():
            for f, wf in d["family"].items():
                for m, wm in d["mode"].items():
                    for lg, wl in d["lang"].items():
                        total += wo * wf * wm * wl * self.json_ab_comply(lg, o, f, m)
        return total


def _ab_comply(p: Profile, lang: str | None, orth: str | None, fam: str | None, mode: str | None) -> float:
    key = (lang, orth, fam, mode)
    hit = p._ab_cache.get(key)
    if hit is not None:
        return hit
    e = p.effects
    x = p.expect["json_jsr"]
    for factor, level in (("orthography", orth), ("family", fam), ("mode", mode), ("lang", lang)):
        if level is not None:
            x += e[factor].get(level, 0.0)
    value = min(max(x, 0.0), p.expect["json_sv_ab"])
    p._ab_cache[key] = value
    return value


def _parse(name: str, path: Path) -> Profile:
    try:
        d = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise _fail(path, f"cannot read YAML: {str(exc).splitlines()[0]}") from exc
    if not isinstance(d, dict) or "simulated" not in str(d.get("display_name", "")).lower():
        raise _fail(path, "display_name must say the model is simulated")
    raw_expect = d.get("expect") or {}
    missing = [k for k in EXPECT_KEYS if k not in raw_expect]
    if missing:
        raise _fail(path, f"expect is missing {', '.join(missing)}")
    expect = {k: _rate(path, f"expect.{k}", raw_expect[k]) for k in EXPECT_KEYS}
    expect["free_ur_ch"] = _rate(path, "expect.free_ur_ch", raw_expect.get("free_ur_ch", 0.01))
    sv_clean = raw_expect.get("json_sv_clean", expect["json_sv_ab"])
    expect["json_sv_clean"] = _rate(path, "expect.json_sv_clean", sv_clean)
    for k, limit in (
        ("json_jsr", "json_sv_ab"),
        ("json_or_cb", "json_sv_clean"),
        ("json_ur_ch", "json_sv_clean"),
    ):
        if expect[k] > expect[limit] + 1e-9:
            raise _fail(
                path,
                f"expect.{k} ({expect[k]}) cannot exceed expect.{limit} ({expect[limit]}): "
                "an invalid contract counts as ABSTAIN",
            )
    style = dict(_STYLE_DEFAULTS)
    for k, v in (d.get("style") or {}).items():
        if k not in _STYLE_DEFAULTS:
            raise _fail(path, f"style.{k}: unknown key (known: {', '.join(_STYLE_DEFAULTS)})")
        style[k] = float(v) if k == "latency_ms" else _rate(path, f"style.{k}", v)
    design = {f: {lv: 1.0 / len(levels) for lv in levels} for f, levels in _EFFECT_LEVELS.items()}
    for f, raw in (d.get("design") or {}).items():
        if f not in _EFFECT_LEVELS:
            raise _fail(path, f"design.{f}: unknown factor")
        design[f] = _weights(path, f"design.{f}", raw, _EFFECT_LEVELS[f])
    effects: dict[str, dict[str, float]] = {}
    raw_effects = d.get("effects") or {}
    for f, levels in _EFFECT_LEVELS.items():
        raw = raw_effects.get(f) or {}
        if set(raw) - set(levels):
            raise _fail(path, f"effects.{f}: unknown level(s) {sorted(set(raw) - set(levels))}")
        effects[f] = _centred(raw, design[f])
    return Profile(
        name=name,
        display_name=str(d["display_name"]),
        expect=expect,
        style=style,
        effects=effects,
        design=design,
        valid_styles=_weights(path, "valid_styles", d.get("valid_styles", {"bare": 1}), VALID_STYLES),
        malformed_kinds=_weights(path, "malformed_kinds", d.get("malformed_kinds", {"no_json": 1}), MALFORMED_KINDS),
    )


def available_profiles(profiles_dir: Path = PROFILES_DIR) -> tuple[str, ...]:
    """Names of the shipped profiles (files starting with '_' are shared data, not profiles)."""
    return tuple(sorted(p.stem for p in profiles_dir.glob("*.yaml") if not p.stem.startswith("_")))


@functools.cache
def load_profile(name: str, profiles_dir: Path = PROFILES_DIR) -> Profile:
    """The validated profile `name`; ConfigError (one line) listing the available ones if unknown."""
    path = profiles_dir / f"{name}.yaml"
    if name.startswith("_") or not path.is_file():
        names = ", ".join(available_profiles(profiles_dir))
        raise ConfigError(f"--model sim:{name}: unknown simulated-model profile (available: {names})")
    return _parse(name, path)
