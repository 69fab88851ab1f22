"""Which cases a run uses: a profile (lite, full, or a path), language/track filters, a stratified limit."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path

from indicjr.cases.model import Case
from indicjr.errors import ConfigError
from indicjr.langs import LANGS

BUILTIN_PROFILES = ("lite", "full")


def profile_dir(profile: str, *, root: Path) -> Path:
    """Where a profile's case files are: cases/<name>/ under the project root, or a given path."""
    if profile in BUILTIN_PROFILES:
        path = root / "cases" / profile
        if path.is_dir():
            return path
        cache = root / ".ijr" / "cases" / profile
        if not cache.is_dir():
            _build_cache(profile, cache)
        return cache
    path = Path(profile)
    if not path.is_absolute():
        path = root / path
    if not path.exists():
        raise ConfigError(f"--ijr-profile: unknown profile {profile!r}: not lite or full, and no such path {path}")
    return path


def _build_cache(profile: str, cache: Path) -> None:
    """Build a profile into `cache` atomically: written in a private temporary folder, then renamed.

    Under pytest-xdist every worker may find the cache missing at once; a worker that saw a folder
    still being written would collect other tests than its neighbours. The build is deterministic, so
    when another process renamed its copy first, ours is simply dropped.
    """
    import shutil
    import tempfile

    from indicjr.cases.build import build_profile
    from indicjr.cases.io import write_cases
    from indicjr.run.results import make_private, mkdir_private

    mkdir_private(cache.parent)  # .ijr/ and .ijr/cases/ user-only, like the runs beside them
    tmp = Path(tempfile.mkdtemp(prefix=f".{profile}-", dir=cache.parent))
    try:
        write_cases(build_profile(profile), tmp / profile, profile=profile)
        make_private(tmp / profile)
        try:
            (tmp / profile).rename(cache)
        except OSError:
            if not cache.is_dir():  # not a lost race: a real failure to report
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def parse_list(option: str, value: str | None, allowed: Sequence[str]) -> tuple[str, ...]:
    """'hi,ta' -> ('hi', 'ta'), checked against the allowed values."""
    if not value:
        return ()
    items = tuple(v.strip() for v in value.split(",") if v.strip())
    bad = [v for v in items if v not in allowed]
    if bad:
        raise ConfigError(f"{option}: unknown value {bad[0]!r} (allowed: {', '.join(allowed)})")
    return items


def parse_langs(value: str | None) -> tuple[str, ...]:
    return parse_list("--ijr-lang", value, LANGS)


def stratified_limit(cases: Sequence[Case], limit: int, seed: int = 13) -> list[Case]:
    """A seeded sample of `limit` cases, round-robin over language x track x subset strata.

    The strata are visited languages-first with each language's strata rotated (`_spread_order`), so a
    small limit still reaches every language and every track x subset: `--ijr-limit 24` on 12 languages
    is two cases per language over all six track x subset strata, not all of the first four languages'
    strata. Deterministic (crc32 of seed and id, never hash()), and the result keeps the input order.
    """
    if limit <= 0 or limit >= len(cases):
        return list(cases)
    strata: dict[tuple[str, str, str], list[Case]] = {}
    for c in cases:
        strata.setdefault((c.lang, c.track, c.subset), []).append(c)
    for group in strata.values():
        group.sort(key=lambda c: zlib.crc32(f"{seed}:{c.id}".encode()))
    chosen: set[str] = set()
    keys = _spread_order(strata)
    depth = 0
    while len(chosen) < limit:
        progressed = False
        for k in keys:
            if depth < len(strata[k]) and len(chosen) < limit:
                chosen.add(strata[k][depth].id)
                progressed = True
        if not progressed:
            break
        depth += 1
    return [c for c in cases if c.id in chosen]


def _spread_order(strata: dict[tuple[str, str, str], list[Case]]) -> list[tuple[str, str, str]]:
    """Stratum keys in visiting order: round r takes, from the i-th language, its (i + r)-th stratum.

    Consecutive languages start on different track x subset strata, so any prefix of the order is
    spread over languages and over strata alike.
    """
    by_lang: dict[str, list[tuple[str, str, str]]] = {}
    for key in sorted(strata):
        by_lang.setdefault(key[0], []).append(key)
    langs = sorted(by_lang)
    order: list[tuple[str, str, str]] = []
    for r in range(max(len(v) for v in by_lang.values())):
        for i, lang in enumerate(langs):
            own = by_lang[lang]
            if r < len(own):
                order.append(own[(i + r) % len(own)])
    return order


def select(
    cases: Sequence[Case], *, langs: Sequence[str] = (), tracks: Sequence[str] = (), limit: int = 0
) -> list[Case]:
    out = [c for c in cases if (not langs or c.lang in langs) and (not tracks or c.track in tracks)]
    return stratified_limit(out, limit) if limit else out
