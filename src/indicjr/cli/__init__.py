"""`ijr`: the command line on the same core as the pytest plugin.

    ijr build [--profile lite|full] [--out DIR]         build the case sets (byte-identical reruns)
    ijr stats lite|full|PATH [--json]                    Table-5-style statistics of a case set
    ijr thresholds                                       print the shipped default gates
    ijr romanize --lang L [--style chat|noisy] [--seed N] native lines on stdin -> romanized lines on stdout
    ijr judge --input F.jsonl --output F.jsonl           score responses without a model
    ijr audit sample RUN_DIR --per-lang 50 [--out DIR]   low-confidence verdicts, then a stratified sample
    ijr audit import FILE.csv [--labels PATH]           store human labels (audit/labels.jsonl) for every run
    ijr audit score FILE.csv                             kappa and detector error rates
    ijr report RUN_DIR [RUN_DIR ...] [--out DIR]         Markdown, HTML and figures
    ijr diff RUN_A RUN_B [--fail-on-regression]          what changed between two model versions
    ijr e7 RUN_LITE RUN_FULL                             lite vs full reproducibility per language
    ijr import-official PATH [--out DIR]                 import the paper's public release
    ijr generate --engine ray --model hf:PATH [...]      answer cases into the store on a Ray cluster
    ijr run --model X [--profile P] [--lang L] [...]     the pytest run without pytest (same summary.json)
    ijr --version

Exit codes: 0 ok, 1 a regression/gate failure, 4 bad input or options (one line on stderr), 6 target error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from indicjr.errors import EXIT_INTERRUPTED, EXIT_USAGE, IJRError


def _build(args: argparse.Namespace) -> int:
    from indicjr.cases.build import build_profile
    from indicjr.cases.io import write_cases

    profiles = ["lite", "full"] if args.profile == "all" else [args.profile]
    for profile in profiles:
        out = Path(args.out) / profile if args.out else Path("cases") / profile
        cases = build_profile(
            profile, langs=args.lang.split(",") if args.lang else None, cores=args.cores, cores_source=args.cores_source
        )
        manifest = write_cases(cases, out, profile=profile)
        print(f"{profile}: {manifest['n_cases']} cases -> {out} (content hash {manifest['content_hash'][:12]})")
    return 0


def _stats(args: argparse.Namespace) -> int:
    from indicjr.cases.io import load_cases
    from indicjr.cases.stats import case_set_stats, render_table
    from indicjr.run.selection import BUILTIN_PROFILES, profile_dir

    # The names --ijr-profile takes (lite, full) work here too; a folder of that name still wins.
    path = Path(args.path)
    if args.path in BUILTIN_PROFILES and not path.exists():
        path = profile_dir(args.path, root=Path.cwd())
    stats = case_set_stats(load_cases(path))
    if args.json:
        print(json.dumps(stats, indent=2, ensure_ascii=False))
    else:
        print("\n".join(render_table(stats)))
    return 0


def _romanize(args: argparse.Namespace) -> int:
    from indicjr.cases.orthography import noisy, romanize_line
    from indicjr.errors import ConfigError
    from indicjr.langs import LANGS

    if args.lang not in LANGS:
        raise ConfigError(f"--lang: unknown language {args.lang!r} (choose from {', '.join(LANGS)})")
    for i, line in enumerate(sys.stdin.read().splitlines()):
        if args.style == "noisy":
            print(noisy(line, args.lang, f"{args.seed}:{i}"))
        else:
            print(romanize_line(line, args.lang))
    return 0


def _judge(args: argparse.Namespace) -> int:
    from indicjr.judge.batch import judge_file

    n_ok, n_bad = judge_file(Path(args.input), Path(args.output), err=sys.stderr, scoring=args.scoring)
    print(f"judged {n_ok} rows -> {args.output}" + (f"; {n_bad} bad rows (see stderr)" if n_bad else ""))
    return EXIT_USAGE if n_bad else 0


def _thresholds(args: argparse.Namespace) -> int:
    from indicjr.gates.thresholds import DEFAULT_THRESHOLDS

    sys.stdout.write(DEFAULT_THRESHOLDS.read_text(encoding="utf-8"))
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("indicjr")
    except PackageNotFoundError:
        return "unknown (not installed)"


class UsageParser(argparse.ArgumentParser):
    """argparse with the project's exit code for a bad option (4, as the README and pytest say), not 2:
    2 means interrupted. Subcommand parsers are made of the same class (argparse uses type(self))."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = UsageParser(prog="ijr", description="IndicJR: judge-free jailbreak robustness in 12 South Asian languages.")
    p.add_argument("--version", action="version", version=f"ijr (indicjr) {_version()}")
    p.add_argument("--debug", action="store_true", help="show tracebacks for IndicJR errors")
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="build the lite/full case sets")
    b.add_argument("--profile", choices=["lite", "full", "all"], default="all")
    b.add_argument("--out", help="output root (default cases/); writes <out>/<profile>/")
    b.add_argument("--lang", help="only these languages (comma-separated)")
    b.add_argument(
        "--cores",
        choices=["shipped", "wikipedia"],
        default="shipped",
        help="benign cores: the shipped passages, or 2023 Wikipedia (needs network or a dump)",
    )
    b.add_argument("--cores-source", help="with --cores wikipedia: a local JSONL dump {id,url,title,text}")
    b.set_defaults(func=_build)

    s = sub.add_parser("stats", help="Table-5-style statistics of a case set")
    s.add_argument("path", help="lite, full, or a folder/file of case JSONL")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_stats)

    r = sub.add_parser("romanize", help="type native lines in Latin letters as people do (stdin -> stdout)")
    r.add_argument("--lang", required=True, help="language code (hi, bn, ta, ur...)")
    r.add_argument("--style", choices=["chat", "noisy"], default="chat")
    r.add_argument("--seed", type=int, default=0, help="seed of the noisy style's variation")
    r.set_defaults(func=_romanize)
    t = sub.add_parser("thresholds", help="print the shipped default gates (ijr thresholds > thresholds.yaml)")
    t.set_defaults(func=_thresholds)

    j = sub.add_parser("judge", help="score responses (JSONL in, JSONL out)")
    j.add_argument("--input", required=True)
    j.add_argument("--output", required=True)
    j.add_argument(
        "--scoring",
        choices=("ijr", "paper"),
        default="ijr",
        help="FREE scoring: ijr (grounded in the rows' optional prompt/task fields; default) "
        "or paper (no refusal phrase = COMPLY)",
    )
    j.set_defaults(func=_judge)

    for module, fn in (
        ("indicjr.cli.audit", "add_audit_commands"),
        ("indicjr.cli.report", "add_report_commands"),
        ("indicjr.cli.official", "add_official_commands"),
        ("indicjr.cli.generate", "add_generate_commands"),
        ("indicjr.cli.run", "add_run_commands"),
    ):
        _optional(module, fn)(sub)
    return p


def _optional(module: str, name: str) -> Callable[[argparse._SubParsersAction], None]:  # type: ignore[type-arg]
    import importlib

    try:
        return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return lambda _sub: None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()  # loads the subcommands, and with them the language registry
    except IJRError as exc:  # a broken languages.yaml (or $IJR_LANGUAGES): one line, not a traceback
        print(f"ijr: error: {exc}", file=sys.stderr)
        return exc.exit_code
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except IJRError as exc:
        if args.debug:
            raise
        print(f"ijr: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # a path we were given cannot be read or written: the user's to fix
        if args.debug:
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"ijr: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("ijr: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
