"""Word agreement of a romanizer with the reference (tests/data/romanization_ref), per language.

Usage: python tools/romanization_agreement.py [--split dev|test|all] [--rev GIT_REV] [--misses N] [LANG ...]
--rev measures the romanizer of another revision (its src/indicjr/cases/orthography.py and, when present,
its romanization data), loaded from `git show` into a temporary directory — how the "before" column of
docs/ORTHOGRAPHY.md was measured (--rev 8fa713e, the last commit before the chat romanizer).
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from indicjr.cases.romanref import load_ref, word_agreement
from indicjr.langs import LANGS

ROOT = Path(__file__).resolve().parent.parent


def _romanizer_at(rev: str) -> Callable[[str, str], str]:
    tmp = Path(tempfile.mkdtemp(prefix="ijr-rev-"))
    listing = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", rev, "src/indicjr/cases/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for name in listing:
        if name.endswith(".py") or "/romanize/" in name:
            blob = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{name}"], check=True, capture_output=True)
            dest = tmp / "indicjr" / Path(name).relative_to("src/indicjr")
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(blob.stdout)
    # The old package shadows only indicjr.cases; the rest of indicjr comes from this checkout.
    pkg_dir = tmp / "indicjr" / "cases"
    spec = importlib.util.spec_from_file_location(
        "_rev_cases", pkg_dir / "__init__.py", submodule_search_locations=[str(pkg_dir)]
    )
    assert spec and spec.loader
    pkg = importlib.util.module_from_spec(spec)
    sys.modules["_rev_cases"] = pkg
    spec.loader.exec_module(pkg)
    mod_spec = importlib.util.spec_from_file_location("_rev_cases.orthography", tmp / "indicjr/cases/orthography.py")
    assert mod_spec and mod_spec.loader
    mod = importlib.util.module_from_spec(mod_spec)
    sys.modules["_rev_cases.orthography"] = mod
    mod_spec.loader.exec_module(mod)
    return mod.romanize_line  # type: ignore[no-any-return]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", choices=["dev", "test", "all"], default="test")
    ap.add_argument("--rev")
    ap.add_argument("--misses", type=int, default=0)
    ap.add_argument("langs", nargs="*")
    args = ap.parse_args(argv)
    if args.rev:
        romanize_line = _romanizer_at(args.rev)
    else:
        from indicjr.cases.orthography import romanize_line
    total_n = total_ok = 0
    for lang in args.langs or LANGS:
        rows = [r for r in load_ref(lang) if args.split in ("all", r.split)]
        if not rows:
            continue
        a = word_agreement(lang, rows, lambda line, lang=lang: romanize_line(line, lang))
        total_n += a.words
        total_ok += a.agreed
        print(f"{lang}\t{len(rows)} lines\t{a.words} words\t{a.share:.3f}")
        for native, ours, typed in a.misses[: args.misses]:
            print(f"   {native}\t{ours}\t{'/'.join(typed)}")
    if total_n:
        print(f"all\t\t{total_n} words\t{total_ok / total_n:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
