"""What the simulated model decides for one request: a pure function of profile and request.

Every draw comes from `random.Random` seeded with crc32 of (profile, case id or messages, sample, seed),
never from `hash()`. Sample 0 uses the case's own stream; a later sample repeats it with probability
`style.sample_consistency` and otherwise draws afresh — both streams have the same probabilities, so
marginal rates do not depend on the sample, while `--ijr-samples K` shows realistic per-prompt agreement.
"""

from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass

from indicjr.langs import SCRIPT_OF, SCRIPT_RANGES
from indicjr.targets.base import Request
from indicjr.targets.sim.profile import Profile

_CANARY = re.compile(r"IJR-[0-9a-f]{8}-[a-z]{2}")
_SCRIPT_LANG = {script: lang for lang, script in reversed(SCRIPT_OF.items())}  # Devanagari -> hi


@dataclass(frozen=True, slots=True)
class SimDecision:
    """The branch the simulator took; `render` turns it into text. Tests classify outputs with it."""

    track: str  # json | free
    subset: str  # AB | CB | CH
    lang: str
    orthography: str  # native | romanized | mixed | noisy (of the prompt; the reply follows it)
    action: str  # comply | refuse | abstain | partial (what the model does)
    contract: str | None  # JSON only: "valid" or a malformed kind; None on FREE
    style: str | None  # JSON valid contracts: the layout (bare, fenced, ...)
    leak: bool  # the canary appears in the reply (CH)
    obfuscated: bool  # ...with separators/case changed
    english: bool  # refusal wording in English
    contradiction: bool  # valid COMPLY whose justification refuses
    seed: int  # seed of the wording draws

    @property
    def valid(self) -> bool:
        return self.contract == "valid"

    @property
    def decision(self) -> str | None:
        """The contract decision a correct parser reads (None when the contract is invalid or FREE)."""
        if self.contract != "valid":
            return None
        return {"comply": "COMPLY", "refuse": "REFUSE", "abstain": "ABSTAIN"}[self.action]

    @property
    def refusal_text(self) -> bool:
        """True when the reply carries refusal wording (FREE refusal or partial)."""
        return self.action in ("refuse", "partial", "abstain")


def infer_conditions(request: Request) -> dict[str, str]:
    """The request's conditions, completed from its messages when they were not given."""
    cond = dict(request.conditions)
    user = next((c for r, c in reversed(request.messages) if r == "user"), "")
    if "track" not in cond:
        cond["track"] = "json" if any(r == "system" and '"decision"' in c for r, c in request.messages) else "free"
    if "canary" not in cond and (m := _CANARY.search(user)):
        cond["canary"] = m.group(0)
    cond.setdefault("subset", "CH" if "canary" in cond else "CB")
    if "lang" not in cond:
        cond["lang"] = _guess_lang(user)
    if "orthography" not in cond:
        letters = [ch for ch in user if ch.isalpha()]
        latin = sum(ch.isascii() for ch in letters) / max(len(letters), 1)
        cond["orthography"] = "romanized" if latin > 0.9 else "native" if latin < 0.1 else "mixed"
    return cond


def _guess_lang(text: str) -> str:
    for ch in text:
        cp = ord(ch)
        if cp < 0x0600:
            continue
        for script, ranges in SCRIPT_RANGES.items():
            if any(lo <= cp <= hi for lo, hi in ranges):
                return _SCRIPT_LANG.get(script, "en")
    return "en"


def seeds(profile: Profile, request: Request) -> tuple[int, int]:
    """(case seed, sample seed) from crc32 of profile, case id (or messages), sample and settings.seed."""
    joined = "\x1e".join(f"{r}\x1f{c}" for r, c in request.messages)
    ident = request.case_id or f"{zlib.crc32(joined.encode('utf-8')):08x}"
    seed = request.settings.seed
    case = zlib.crc32(f"{profile.name}|{ident}|{seed}".encode())
    sample = zlib.crc32(f"{profile.name}|{ident}|{request.sample}|{seed}".encode())
    return case, sample


def _pick(weights: dict[str, float], u: float) -> str:
    acc = 0.0
    last = ""
    for k, w in weights.items():
        if w <= 0:
            continue
        acc += w
        last = k
        if u < acc:
            return k
    return last


def _non_comply(profile: Profile, u: float) -> str:
    return "abstain" if u < profile.style["json_abstain_share"] else "refuse"


def decide(profile: Profile, request: Request) -> SimDecision:
    """The branch taken for `request` (pure and deterministic)."""
    cond = infer_conditions(request)
    case_seed, sample_seed = seeds(profile, request)
    dseed = case_seed
    if request.sample:
        if (sample_seed >> 8) / 2**24 >= profile.style["sample_consistency"]:  # crc32 bits as a uniform
            dseed = sample_seed
    r = random.Random(dseed)
    u_valid, u_act, u_sub, u_leak, u_kind, u_style, u_eng, u_contra, u_obf = (r.random() for _ in range(9))
    e, st = profile.expect, profile.style
    track, subset, lang = cond["track"], cond["subset"], cond["lang"]
    leak = False
    if track == "json":
        p_valid = e["json_sv_ab"] if subset == "AB" else e["json_sv_clean"]
        valid = u_valid < p_valid
        if subset == "AB":
            q = _ratio(
                profile.json_ab_comply(lang, cond.get("orthography"), cond.get("family"), cond.get("mode")),
                p_valid,
            )
            action = "comply" if u_act < q else _non_comply(profile, u_sub)
        elif subset == "CB":
            q = _ratio(e["json_or_cb"], p_valid)
            action = "refuse" if u_act < q else ("abstain" if u_sub < st["json_abstain_share"] else "comply")
        else:
            q = _ratio(e["json_ur_ch"], p_valid)
            action = "comply" if u_act < q else _non_comply(profile, u_sub)
            leak = u_leak < _leak_given(action == "comply", q, e["json_ch_leak"])
        contract = "valid" if valid else _pick(profile.malformed_kinds, u_kind)
        style = _pick(profile.valid_styles, u_style) if valid else None
        contradiction = valid and action == "comply" and u_contra < st["json_contradiction"]
    else:
        p_refuse = {"AB": 1.0 - e["free_jsr_ab"], "CB": e["free_or_cb"], "CH": 1.0 - e["free_ur_ch"]}[subset]
        partial_share = st["free_partial_share"] if subset != "CH" else st["free_ch_partial_share"]
        action = "comply" if u_act >= p_refuse else ("partial" if u_sub < partial_share else "refuse")
        leak = subset == "CH" and action in ("comply", "partial")
        contract, style, contradiction = None, None, False
    english = lang != "en" and u_eng < st["english_refusal"]
    return SimDecision(
        track=track,
        subset=subset,
        lang=lang,
        orthography=cond.get("orthography", "native"),
        action=action,
        contract=contract,
        style=style,
        leak=leak and "canary" in cond,
        obfuscated=leak and u_obf < st["leak_obfuscation"],
        english=english,
        contradiction=contradiction,
        seed=sample_seed,
    )


def _ratio(p: float, p_valid: float) -> float:
    return min(p / p_valid, 1.0) if p_valid > 0 else 0.0


def _leak_given(comply: bool, q: float, rate: float) -> float:
    """P(leak | intent) that puts leaks on complying replies first, keeping the marginal at `rate`."""
    on_comply = min(1.0, rate / q) if q > 0 else 0.0
    if comply:
        return on_comply
    return max(0.0, rate - q * on_comply) / (1.0 - q) if q < 1 else 0.0
