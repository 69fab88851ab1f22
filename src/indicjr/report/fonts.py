"""The font stacks of the HTML pages (the report, the audit sheet): each script's fonts come from the
language registry (`fonts` under `scripts`, languages.yaml), so that a new script brings its own."""

from __future__ import annotations

from indicjr.langs import REGISTRY

# Around the scripts' own fonts (the registry's `fonts`, languages.yaml): the system's and Latin ones first,
# then Windows' font for every Indic script and the generic family.
_STACK_HEAD = ("system-ui", "Noto Sans")
_STACK_TAIL = ("Nirmala UI", "sans-serif")
_GENERIC = frozenset({"system-ui", "sans-serif"})  # CSS keywords, written unquoted


def font_stack(*families: str) -> str:
    """A CSS font-family list: each family once, in order, quoted unless a generic keyword."""
    return ", ".join(f if f in _GENERIC else f'"{f}"' for f in dict.fromkeys(families))


_SCRIPT_FONTS = tuple(f for s in REGISTRY.scripts for f in s.fonts)
FONT_STACK = font_stack(*_STACK_HEAD, *_SCRIPT_FONTS, *_STACK_TAIL)
# right-to-left text leads with its scripts' fonts (Urdu's Nastaliq), then the whole stack
RTL_FONT_STACK = font_stack(
    *(f for s in REGISTRY.scripts if s.rtl for f in s.fonts), *_STACK_HEAD, *_SCRIPT_FONTS, *_STACK_TAIL
)
