"""How the simulated model words a decision: FREE prose and JSON contracts (valid and malformed).

Replies follow the prompt's orthography: native -> native-script phrases, romanized/noisy -> romanized,
mixed -> one side for the opener and the other for the rest; refusals switch to English at the
profile's rate. Benign answers are cut from the prompt's own passage; harmful "compliance" is only a
vague, non-operational filler sentence from the phrase bank.
"""

from __future__ import annotations

import functools
import json
import random

from indicjr.targets.base import Request, Response
from indicjr.targets.sim.decide import SimDecision
from indicjr.targets.sim.profile import Profile
from indicjr.targets.sim.text import Bank, answer, load_bank, localized_decision, obfuscate

_DECISION = {"comply": "COMPLY", "refuse": "REFUSE", "abstain": "ABSTAIN", "partial": "REFUSE"}


class _Writer:
    """Phrase picking for one reply: language, script side, and the reply's own random stream."""

    def __init__(self, d: SimDecision, rng: random.Random) -> None:
        self.d, self.rng = d, rng
        self.bank: Bank = load_bank(d.lang)
        self.en: Bank = load_bank("en")
        self.romanized = d.orthography in ("romanized", "noisy")
        self.mixed_first_native = rng.random() < 0.5  # mixed: which side the first sentence takes

    def say(self, key: str, *, first: bool = True, refusal: bool = False, against: str | None = None) -> str:
        """A phrase in the reply's script; for mixed replies, `against` picks the other script's side."""
        if refusal and self.d.english:
            return self.en.pick(key, False, self.rng)
        romanized = self.romanized
        if self.d.orthography == "mixed":
            if against is not None:
                romanized = not against.isascii()
            else:
                romanized = (not self.mixed_first_native) if first else self.mixed_first_native
        return self.bank.pick(key, romanized, self.rng)


def _canary_text(d: SimDecision, request: Request, rng: random.Random) -> str:
    canary = request.condition("canary") or ""
    if not (d.leak and canary):
        return ""
    return obfuscate(canary, rng) if d.obfuscated else canary


def _task_answer(profile: Profile, request: Request, rng: random.Random) -> str:
    user = next((c for r, c in reversed(request.messages) if r == "user"), "")
    return answer(
        request.condition("task"),
        user,
        request.condition("category"),
        profile.style["category_english"],
        rng,
        lang=request.condition("lang"),
    )


def _harmful(w: _Writer, canary: str) -> str:
    body = w.say("harmful_body", first=False)
    return f"{canary}\n{body}" if canary else body


def free_text(profile: Profile, request: Request, d: SimDecision, w: _Writer) -> str:
    """FREE-track prose (also the 'no JSON at all' malformed contract)."""
    rng = w.rng
    canary = _canary_text(d, request, rng)
    if d.action in ("refuse", "abstain"):
        text = w.say("refuse", refusal=True)
        if d.orthography == "mixed" or rng.random() < 0.35:
            text += " " + w.say("justification_refuse", first=False, refusal=True)
        return f"{text} ({canary})" if canary else text
    if d.subset == "CH":
        body = _harmful(w, canary)
    else:
        body = _task_answer(profile, request, rng)
        if request.condition("family") == "format" and rng.random() < 0.5:
            body = "answer: |\n  " + body.replace("\n", "\n  ")
    key = "partial_open" if d.action == "partial" else "comply_open"
    opener = w.say(key, refusal=d.action == "partial", against=body)
    return f"{opener}\n{body}"


def _justification(profile: Profile, request: Request, d: SimDecision, w: _Writer) -> str:
    canary = _canary_text(d, request, w.rng)
    if d.action == "comply" and not d.contradiction:
        if d.subset == "CH":
            return f"{w.say('justification_comply')} {_harmful(w, canary)}".replace("\n", " ")
        body = _task_answer(profile, request, w.rng)
        return f"{w.say('justification_comply', against=body)} {body}".replace("\n", "; ")
    text = w.say("justification_refuse", refusal=True)
    return f"{text} ({canary})" if canary else text


def _valid(obj: dict[str, str], style: str, w: _Writer) -> str:
    if style == "lowercase":
        obj = {**obj, "decision": obj["decision"].lower()}
    body = json.dumps(obj, ensure_ascii=False)
    if style == "fenced":
        return f"```json\n{body}\n```"
    if style == "prose_before":
        lead = w.say("comply_open") if obj["decision"].upper() == "COMPLY" else w.say("refuse", refusal=True)
        return f"{lead}\n{body}"
    if style == "prose_after":
        key = "justification_comply" if obj["decision"] == "COMPLY" else "justification_refuse"
        return f"{body}\n{w.say(key)}"
    if style == "whitespace":
        return "\n  " + json.dumps(obj, ensure_ascii=False, indent=2) + "\n\n"
    return body


def _malformed(kind: str, obj: dict[str, str], d: SimDecision, w: _Writer) -> tuple[str, str]:
    """(text, finish_reason) of a contract a judge must reject."""
    dec, just = obj["decision"], obj["justification"]
    if kind == "single_quotes":
        return f"{{'decision': '{dec}', 'justification': '{just.replace(chr(39), '')}'}}", "stop"
    if kind == "smart_quotes":
        return (
            f"{{\u201cdecision\u201d: \u201c{dec}\u201d, \u201cjustification\u201d: \u201c{just}\u201d}}",
            "stop",
        )
    if kind == "trailing_comma":
        return f'{{"decision": "{dec}", "justification": {json.dumps(just, ensure_ascii=False)},}}', "stop"
    if kind == "missing_key":
        only = {"justification": just} if d.leak or w.rng.random() < 0.5 else {"decision": dec}
        return json.dumps(only, ensure_ascii=False), "stop"
    if kind == "localized_decision":
        word = localized_decision(d.lang, dec, d.orthography in ("romanized", "noisy"))
        return json.dumps({"decision": word, "justification": just}, ensure_ascii=False), "stop"
    if kind == "truncated":
        full = json.dumps(obj, ensure_ascii=False)
        cut = max(len('{"decision": "'), int(len(full) * (0.35 + 0.4 * w.rng.random())))
        if d.leak:  # the leaked canary sits in the justification: cut only the closing quote and brace
            cut = len(full) - 2
        return full[:cut], "length"
    raise ValueError(kind)


def render(profile: Profile, request: Request, d: SimDecision) -> Response:
    """The Response for decision `d` (token counts are whitespace tokens)."""
    w = _Writer(d, random.Random(d.seed ^ 0x5EED))
    finish = "stop"
    if d.track == "free" or d.contract == "no_json":
        text = free_text(profile, request, d, w)
    else:
        obj = {"decision": _DECISION[d.action], "justification": _justification(profile, request, d, w)}
        if d.contract == "valid":
            text = _valid(obj, d.style or "bare", w)
        else:
            text, finish = _malformed(d.contract or "", obj, d, w)
    max_tokens = request.settings.max_tokens
    words = text.split()
    if finish == "length":
        out_tokens = max_tokens
    elif len(words) > max_tokens:
        text, finish, out_tokens = " ".join(words[:max_tokens]), "length", max_tokens
    else:
        out_tokens = len(words)
    return Response(
        text=text,
        finish_reason=finish,
        input_tokens=_input_tokens(request.messages),
        output_tokens=out_tokens,
    )


@functools.lru_cache(maxsize=4096)
def _input_tokens(messages: tuple[tuple[str, str], ...]) -> int:
    return sum(len(c.split()) for _, c in messages)
