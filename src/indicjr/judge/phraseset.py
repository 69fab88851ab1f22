"""Phrase sets: a lexicon section's phrases filed for the candidate filter.

Why a module of its own: the filter is what keeps the judge fast. A phrase is filed under its one or two
most selective tokens, so one set intersection with a reply's word keys names the few phrases that can
occur at all, and cheap necessary conditions (all but `misses` of a phrase's keys present, long native
stems present) prune them further before any tokenizing. `candidates` never decides a match: it only
says which phrases the scanner (matcher.py) must try.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from indicjr.judge.phrases import GAP, Alt, Phrase, PTok, _alt_anchor
from indicjr.judge.tokens import Reply

# Where a phrase may start: (token slot, anchor key, or the prefix/suffix alternative whose matching
# tokens are the positions).
StartRef = tuple[int, str, Alt | None]


@dataclass(frozen=True, slots=True)
class PhraseSet:
    """Phrases compiled for fast lookup.

    `filters` and `pattern_filters` file each phrase under its most selective token (two for a phrase
    that may miss one): a phrase can only occur in a reply holding one of those keys, which one set
    intersection finds. `starts` says, per phrase, which tokens it may start at."""

    phrases: tuple[Phrase, ...]
    starts: tuple[tuple[StartRef, ...], ...] = ()
    filters: dict[str, tuple[int, ...]] = field(default_factory=dict)
    filter_keys: frozenset[str] = frozenset()
    pattern_filters: tuple[tuple[Alt, tuple[int, ...]], ...] = ()
    # Per phrase, the keys of its literal tokens when each has exactly one (and no two share one): then
    # "all but `misses` present" is one set difference in C instead of _may_occur's loop. None otherwise.
    key_sets: tuple[frozenset[str] | None, ...] = ()


def _filter_slots(p: Phrase, cost: Counter[str]) -> list[int]:
    """The token slots a reply must hold one of for p to match: the rarest literal slot (the two rarest
    when p may miss a token). Rarity is the key's frequency in this phrase set; short keys (chat
    skeletons like "m" for main/mai) and prefix/suffix patterns count as common."""

    def slot_cost(t: PTok) -> int:
        total = 0
        for alt in t:
            if alt[0] in "pf":
                total += 50
            else:
                key = _alt_anchor(alt)
                total += cost[key] + (10 if len(key) <= 2 else 0)
        return total

    ranked = sorted((slot_cost(t), s) for s, t in enumerate(p.tokens) if t is not GAP)
    return [s for _, s in ranked[: 1 + p.misses]]


# How one phrase is filed in a PhraseSet: (filter keys, filter patterns, start references, key set).
_Plan = tuple[tuple[str, ...], tuple[Alt, ...], tuple[StartRef, ...], frozenset[str] | None]
_PLANS: dict[int, tuple[Phrase, _Plan]] = {}  # id(phrase) -> (phrase, plan): the phrase kept alive


def _plan(p: Phrase, freq: Counter[str]) -> _Plan:
    slots = _filter_slots(p, freq)
    keys = tuple(_alt_anchor(a) for s in slots for a in p.tokens[s] if a[0] not in "pf")
    patterns = tuple(a for s in slots for a in p.tokens[s] if a[0] in "pf")
    # A phrase starts at its first token or, when it may miss one, at its second.
    refs = {
        (slot, _alt_anchor(alt), alt if alt[0] in "pf" else None)
        for slot in ((0, 1) if p.misses else (0,))
        for alt in p.tokens[slot]
    }
    single = all(len(req) == 1 for req in p.required) and len(set(p.required)) == len(p.required)
    key_set = frozenset(k for req in p.required for k in req) if single else None
    return keys, patterns, tuple(sorted(refs, key=str)), key_set


def phrase_set(phrases: Iterable[Phrase]) -> PhraseSet:
    """Compile the filters and start references of a phrase list (order kept: it orders the matches).

    A phrase's plan is computed once per process and reused by every set it joins (a run meets each
    language's lexicon with the English one and with every wrapper language's)."""
    ps = tuple(p for p in phrases if p.tokens)
    plans: list[_Plan] = []
    freq: Counter[str] | None = None
    for p in ps:
        hit = _PLANS.get(id(p))
        if hit is None or hit[0] is not p:
            if freq is None:
                freq = Counter()
                for q in ps:
                    freq.update({_alt_anchor(a) for t in q.tokens for a in t if a[0] in "nsxe"})
            if len(_PLANS) > 100_000:
                _PLANS.clear()
            hit = _PLANS[id(p)] = (p, _plan(p, freq))
        plans.append(hit[1])
    filters: dict[str, list[int]] = {}
    pattern_filters: dict[Alt, list[int]] = {}
    for order, (keys, patterns, _, _) in enumerate(plans):
        for key in keys:
            filters.setdefault(key, []).append(order)
        for alt in patterns:
            pattern_filters.setdefault(alt, []).append(order)
    return PhraseSet(
        phrases=ps,
        starts=tuple(plan[2] for plan in plans),
        key_sets=tuple(plan[3] for plan in plans),
        filters={k: tuple(dict.fromkeys(v)) for k, v in filters.items()},
        filter_keys=frozenset(filters),
        pattern_filters=tuple((alt, tuple(dict.fromkeys(v))) for alt, v in sorted(pattern_filters.items())),
    )


def _any_word_matches(alt: Alt, flat_text: str) -> bool:
    """Whether a word of the reply ends with a suffix (and is longer) or starts with a prefix."""
    mode, value = alt
    if mode == "f":  # a word ending with value that is not value itself
        return flat_text.count(value + "\n") > flat_text.count("\n" + value + "\n")
    return "\n" + value in flat_text


def candidates(ps: PhraseSet, reply: Reply) -> list[int]:
    """The phrases (by order) that may occur in the reply: a necessary condition, never a match."""
    known = reply.candidates.get(id(ps))
    if known is None:
        known = reply.candidates[id(ps)] = _candidates(ps, reply)
    return known


def _candidates(ps: PhraseSet, reply: Reply) -> list[int]:
    keys = reply.keys
    hit = ps.filter_keys.intersection(keys)
    patterned: list[tuple[int, ...]] = []
    if ps.pattern_filters:
        norm = reply.norm
        # the affix occurring anywhere in the text is necessary (one C substring search; the reply's word
        # list is built only when it does)
        patterned = [o for alt, o in ps.pattern_filters if alt[1] in norm and _any_word_matches(alt, reply.flat_text)]
    if not patterned:
        if not hit:
            return []  # most replies: no key of any phrase
        if len(hit) == 1:
            (key,) = hit
            orders: Iterable[int] = ps.filters[key]  # ascending already (filed in order)
        else:
            orders = sorted({o for key in hit for o in ps.filters[key]})
    else:
        found = {o for key in hit for o in ps.filters[key]}
        for o in patterned:
            found.update(o)
        orders = sorted(found)
    out = []
    phrases, key_sets = ps.phrases, ps.key_sets
    for order in orders:
        p, key_set = phrases[order], key_sets[order]
        if len(key_set - keys) <= p.misses if key_set is not None else _may_occur(p, keys):
            if not p.stems or _stems_occur(p, reply.flat_text):
                out.append(order)
    return out


def _stems_occur(p: Phrase, flat_text: str) -> bool:
    """Whether all but p.misses of p's long native tokens have a reply word starting with their stem (a
    3-character key says little: Telugu "ivvanu", I will not give, and "ivvabadindi", was given, share
    "ivv")."""
    absent = 0
    for stems in p.stems:
        if not any(s in flat_text for s in stems):
            absent += 1
            if absent > p.misses:
                return False
    return True


def _may_occur(p: Phrase, keys: AbstractSet[str]) -> bool:
    """Whether the keys of all but p.misses of p's literal tokens are present (cheap, before matching)."""
    absent = 0
    for req in p.required:
        if keys.isdisjoint(req):
            absent += 1
            if absent > p.misses:
                return False
    return True
