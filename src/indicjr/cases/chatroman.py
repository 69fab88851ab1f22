"""Chat-style romanization: how people type their language in Latin letters, from per-language rules.

The rules are data (cases/data/romanize/): `brahmic.yaml` gives the letters of the nine Brahmic scripts by
their Devanagari counterpart (the Unicode blocks are parallel), and `<lang>.yaml` holds a language's own
conventions — letter overrides, conjuncts, the inherent vowel, schwa deletion, nasals, intervocalic voicing,
a table of frequent words and one of English loanwords and names typed in English, and output rewrites.
Urdu (Perso-Arabic) has its own letter rules and a frequency word list (short vowels are not written).

A word is romanized as: whole-word table → name/loanword stem + suffix → letters. Letters become a stream
of consonants, written vowels and inherent vowels; inherent vowels are then deleted right to left
(word-final, and medial V C a C V), nasal signs become the nasal of the following consonant.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indicjr.errors import DataFileError
from indicjr.langs import ISCII_BLOCKS, SCRIPT_OF, lang_file
from indicjr.yamlio import load_yaml

RULES_DIR = Path(__file__).resolve().parent / "data" / "romanize"
_BLOCK = ISCII_BLOCKS  # the registry's ISCII-parallel Brahmic blocks: letters by their Devanagari twin
_VIRAMA, _ANUSVARA, _CANDRABINDU, _VISARGA, _NUKTA = 0x4D, 0x02, 0x01, 0x03, 0x3C
_JOINERS = "\u200c\u200d"
# Long-vowel marks of the letter tables that a language's rewrites did not turn into something else.
_PLAIN = str.maketrans("āīūēōñ", "aiueon")


@dataclass(frozen=True, slots=True)
class LangRules:
    """One language's romanization rules (see the module docstring and the data files)."""

    lang: str
    consonants: dict[str, str]
    vowels: dict[str, str]  # independent vowels
    signs: dict[str, str]  # dependent vowel signs
    finals: dict[str, str]  # letters that end a syllable (chillus, khanda ta)
    clusters: dict[str, str]
    words: dict[str, str]
    names: dict[str, str]
    rewrites: tuple[tuple[re.Pattern[str], str], ...]
    voicing: dict[str, str]
    phala: dict[str, str]
    inherent: str
    schwa_final: bool
    schwa_medial: bool
    keep_final_after: frozenset[str]
    anusvara_final: str
    anusvara_medial: str
    anusvara_before_sonorant: str
    chandrabindu: str
    final_virama: str
    addak: str
    virama: str
    nukta: str
    anusvara: str
    candrabindu_char: str
    visarga: str
    addak_char: str
    aspirate: frozenset[str]
    glide_before: str
    tippi: str


def _load(name: str | Path) -> dict[str, Any]:
    path = RULES_DIR / name  # a language's own file comes as a whole path (langs.lang_file)
    try:
        d = load_yaml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataFileError(f"{path}: {exc.strerror}") from exc
    if not isinstance(d, dict):
        raise DataFileError(f"{path}: expected a mapping")
    d["_file"] = str(path)
    return d


def _table(d: dict[str, Any], key: str) -> dict[str, str]:
    value = d.get(key) or {}
    if not isinstance(value, dict):
        raise DataFileError(f"{d.get('_file', RULES_DIR)}: {key}: expected a mapping of letters or words")
    return {unicodedata.normalize("NFC", str(k)): "" if v is None else str(v) for k, v in value.items()}


@functools.cache
def rules_for(lang: str) -> LangRules:
    """The language's rules (base letters of its script, then its own file)."""
    d = _load(lang_file(lang, "romanization"))
    script = SCRIPT_OF[lang]
    base = _load("brahmic.yaml") if script in _BLOCK else {}
    # English loanwords shared by the languages of one script (Devanagari: hi, mr, ne).
    base_names = _load(f"names_{script}.yaml") if (RULES_DIR / f"names_{script}.yaml").exists() else {}
    shift = _BLOCK.get(script, 0) - 0x0900

    def mapped(key: str) -> dict[str, str]:
        return {"".join(chr(ord(c) + shift) for c in k): v for k, v in _table(base, key).items()}

    consonants = mapped("consonants") | _table(d, "consonants")
    vowels = mapped("vowels") | _table(d, "vowels")
    signs = mapped("signs") | _table(d, "signs")
    sch = d.get("schwa") or {}
    try:
        rewrites = tuple((re.compile(str(a)), str(b)) for a, b in d.get("rewrites") or ())
    except (re.error, ValueError) as exc:
        raise DataFileError(f"{d['_file']}: rewrites: {exc}") from exc
    return LangRules(
        lang=lang,
        consonants=consonants,
        vowels=vowels,
        signs=signs,
        finals=_table(d, "finals"),
        clusters=_table(d, "clusters"),
        words=_table(d, "words"),
        names=_table(base_names, "names") | _table(d, "names"),
        rewrites=rewrites,
        voicing=_table(d, "voicing"),
        phala=_table(d, "phala"),
        inherent=str(d.get("inherent", "a")),
        schwa_final=bool(sch.get("final", False)),
        schwa_medial=bool(sch.get("medial", False)),
        keep_final_after=frozenset(str(x) for x in sch.get("keep_final_after_cluster") or ()),
        anusvara_final=str(d.get("anusvara_final", "n")),
        anusvara_medial=str(d.get("anusvara_medial", "")),
        anusvara_before_sonorant=str(d.get("anusvara_before_sonorant", "")),
        chandrabindu=str(d.get("chandrabindu", "n")),
        final_virama=str(d.get("final_virama", "")),
        addak=str(d.get("addak", "")),
        virama=chr(0x0900 + shift + _VIRAMA),
        nukta=chr(0x0900 + shift + _NUKTA),
        anusvara=chr(0x0900 + shift + _ANUSVARA),
        candrabindu_char=chr(0x0900 + shift + _CANDRABINDU),
        visarga=chr(0x0900 + shift + _VISARGA),
        addak_char="\u0a71" if script == "Gurmukhi" else "\u0000",
        aspirate=frozenset(str(x) for x in d.get("aspirate") or ()),
        glide_before=str(d.get("glide_before", "")),
        tippi="\u0a70" if script == "Gurmukhi" else "\u0000",
    )


# A token of a word: kind C (consonant or cluster, with its cluster size), V (written vowel),
# A (inherent vowel), N (nasal sign, value 'M' anusvara or 'C' chandrabindu), X (literal), D (addak).
_Tok = list[Any]


def _longest(table: dict[str, str], word: str, i: int, max_len: int = 6) -> tuple[str, str] | None:
    for n in range(min(max_len, len(word) - i), 0, -1):
        piece = word[i : i + n]
        if piece in table:
            return piece, table[piece]
    return None


def _tokens(word: str, r: LangRules) -> list[_Tok]:
    toks: list[_Tok] = []
    i = 0
    while i < len(word):
        ch = word[i]
        cl = _longest(r.clusters, word, i) if r.clusters else None
        cons = cl or _longest(r.consonants, word, i, 2)
        if cons is not None:
            piece, roman = cons
            size = piece.count(r.virama) + 1
            i += len(piece)
            # Further consonants joined by virama belong to the same cluster.
            while i + 1 < len(word) and word[i] == r.virama and word[i + 1] not in _JOINERS:
                nxt = _longest(r.clusters, word, i + 1) or _longest(r.consonants, word, i + 1, 2)
                if nxt is None:
                    break
                roman = _join(roman, r.phala.get(nxt[0], nxt[1]))
                size += nxt[0].count(r.virama) + 1
                i += 1 + len(nxt[0])
            toks.append(["C", roman, size])
            if i < len(word) and word[i] == r.virama:
                i += 1
                while i < len(word) and word[i] in _JOINERS:
                    i += 1
                    toks.append(["X", ""])  # an explicit chillu: no final vowel
                if i >= len(word) and r.final_virama and toks[-1][0] == "C":
                    toks.append(["V", r.final_virama])
            elif i < len(word) and word[i] in r.signs:
                toks.append(["V", r.signs[word[i]]])
                i += 1
            else:
                toks.append(["A", r.inherent])
            continue
        if ch in r.finals:
            toks.append(["C", r.finals[ch], 1])
            toks.append(["X", ""])
        elif ch in r.vowels:
            toks.append(["V", r.vowels[ch]])
        elif ch == r.anusvara or ch == r.tippi:
            toks.append(["N", "M"])
        elif ch == r.candrabindu_char:
            toks.append(["N", "C"])
        elif ch == r.visarga:
            toks.append(["X", "h"])
        elif ch == r.addak_char:
            toks.append(["D", r.addak])
        elif ch in r.signs:  # a stray sign (after a vowel): keep its sound
            toks.append(["V", r.signs[ch]])
        i += 1
    return toks


def _join(first: str, second: str) -> str:
    """A consonant cluster: a geminate aspirate is typed with one h ('ch'+'ch' -> 'cch', 't'+'th' -> 'tth')."""
    if len(first) == 2 and first.endswith("h") and second.startswith(first[0]):
        return first[0] + second
    return first + second


def _delete_schwas(toks: list[_Tok], r: LangRules) -> None:
    syll = [i for i, t in enumerate(toks) if t[0] in ("A", "V")]
    inherent = [i for i in syll if toks[i][0] == "A"]
    if not inherent:
        return
    last = inherent[-1]
    if r.schwa_final and last == len(toks) - 1 and len(syll) > 1:
        c = toks[last - 1]
        if not (c[0] == "C" and c[2] > 1 and any(c[1].endswith(k) for k in r.keep_final_after)):
            toks[last][1] = ""
    if not r.schwa_medial:
        return
    for i in inherent:
        if toks[i][1] == "" or i == len(toks) - 1:
            continue
        pos = syll.index(i)
        if pos == 0 or pos + 1 >= len(syll):
            continue
        prev, nxt = syll[pos - 1], syll[pos + 1]
        # V C a C V: the previous syllable keeps its vowel, one single consonant (not a cluster) follows,
        # then a vowel (samasya keeps its a before the cluster sy).
        if toks[prev][1] == "" or toks[i - 1][0] != "C" or toks[i - 1][2] > 1:
            continue
        between = toks[i + 1 : nxt]
        if not (between and between[0][0] == "C" and all(t[0] in ("C", "N", "D") for t in between)):
            continue
        cons = [t for t in between if t[0] == "C"]
        if toks[nxt][1] and len(cons) == 1 and cons[0][2] == 1:
            toks[i][1] = ""


def _render(toks: list[_Tok], r: LangRules) -> str:
    out: list[str] = []
    for k, t in enumerate(toks):
        kind, val = t[0], t[1]
        if kind == "N":
            nxt = next((u for u in toks[k + 1 :] if u[0] in ("C", "V", "A")), None)
            if nxt is None or nxt[0] != "C":
                out.append(r.anusvara_final if val == "M" else r.chandrabindu)
            elif val == "C" and r.chandrabindu == "":
                continue
            elif val == "M" and r.anusvara_medial:
                out.append(r.anusvara_medial)
            elif val == "M" and r.anusvara_before_sonorant and nxt[1][:1] in "yrlvwsh":
                out.append(r.anusvara_before_sonorant)
            else:
                out.append("m" if nxt[1][:1] in "pbm" else "n")
        elif kind == "C" and val in r.voicing and t[2] == 1:
            before = toks[k - 1] if k else None
            after = toks[k + 1] if k + 1 < len(toks) else None
            voiced = before is not None and ((before[0] in ("A", "V") and bool(before[1])) or before[0] == "N")
            out.append(r.voicing[val] if voiced and after is not None and after[0] in ("A", "V") else val)
        elif kind == "D":
            nxt = next((u for u in toks[k + 1 :] if u[0] == "C"), None)
            out.append(nxt[1][0] if val == "double" and nxt else "")
        else:
            out.append(val)
    return "".join(out)


def _letters(word: str, r: LangRules) -> str:
    toks = _tokens(word, r)
    _delete_schwas(toks, r)
    out = _render(toks, r)
    for pat, rep in r.rewrites:
        out = pat.sub(rep, out)
    return out.translate(_PLAIN)


@functools.lru_cache(maxsize=131072)
def romanize_word(word: str, lang: str) -> tuple[str, bool]:
    """A native word typed in Latin letters, and whether it is an Indic word (False: English/name table)."""
    r = rules_for(lang)
    word = unicodedata.normalize("NFC", word)
    if word in r.names:
        return r.names[word], False
    if word in r.words:
        return r.words[word], True
    letters = _urdu_letters if lang == "ur" else _letters
    # A name or loanword with a case suffix (Marathi "sistamla" -> "systemla"). Only names of three letters or
    # more: a short one is too often the start of a native word (Tamil "kal", call, in "kalam", time).
    # Native examples: tests/unit/cases/test_romanizer.py.
    for n in range(len(word) - 1, 2, -1):
        stem, rest = word[:n], word[n:]
        if len(rest) > 8:
            break
        if _letter_count(stem) < _MIN_STEM_LETTERS:
            break
        if stem in r.names and (rest[0] in r.signs or not unicodedata.category(rest[0]).startswith("M")):
            return r.names[stem] + _suffix(rest, r, letters), True
        # A name ending in a virama takes a vowel sign instead (Malayalam "formaatt" + vowel sign i + "l" ->
        # "format" + "il").
        if stem + r.virama in r.names and rest[0] in r.signs:
            return r.names[stem + r.virama] + _suffix(rest, r, letters), True
    return letters(word, r), True


_MIN_STEM_LETTERS = 3


def _letter_count(text: str) -> int:
    """Letters that are not signs or viramas (consonants and independent vowels)."""
    return sum(1 for ch in text if unicodedata.category(ch) == "Lo")


def _suffix(rest: str, r: LangRules, letters: Callable[[str, LangRules], str]) -> str:
    """A case ending after an English name: its final inherent vowel is not said (kolkatar, officerer)."""
    out = letters(rest, r)
    if r.schwa_final and rest[-1] in r.consonants and out.endswith(r.inherent):
        out = out[: -len(r.inherent)]
    return out


def _urdu_letters(word: str, r: LangRules) -> str:
    """Roman Urdu by letter rules (see ur.yaml): vowel letters by position, an unwritten 'a' supplied."""
    out: list[str] = []
    n = len(word)
    long_vowels = r.glide_before
    for i, ch in enumerate(word):
        prev = word[i - 1] if i else ""
        nxt = word[i + 1] if i + 1 < n else ""
        if ch in r.vowels:
            if i == 0:
                role = "initial"
            elif nxt and nxt in long_vowels:
                role = "before_vowel"
            else:
                role = "final" if i == n - 1 else "first_syllable" if i == 1 else "medial"
            out.append(r.vowels.get(f"{ch}:{role}", r.vowels[ch]))
        elif ch in r.finals and i == n - 1 and i > 0 and prev not in r.vowels:
            out.append(r.finals[ch])
        elif ch in r.signs:
            out.append(r.signs[ch])
        elif ch in r.consonants:
            out.append(r.consonants[ch])
            # An unwritten "a" between the first two consonants, and between the last two; wao and ye
            # before alif are consonants here (sawal, jawab, bayan). U+0648 wao, U+06CC farsi ye.
            glide = nxt in r.vowels and i + 2 < n and word[i + 2] in long_vowels and nxt in "\u0648\u06cc"
            first = i == 0 and ((nxt in r.consonants and nxt not in r.aspirate) or glide)
            last = i == n - 2 and i > 0 and nxt in r.consonants and nxt not in r.aspirate and nxt not in r.finals
            if r.schwa_medial and (first or last) and r.consonants[ch] and (glide or r.consonants[nxt]):
                out.append("a")
    text = "".join(out)
    for pat, rep in r.rewrites:
        text = pat.sub(rep, text)
    return text.translate(_PLAIN)
