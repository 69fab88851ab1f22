"""`ijr import-official PATH [--out DIR] [--exclude-defective] [--strip-contract]`.

Registered on the `ijr` parser by `add_official_commands`; the work is in indicjr.official.importer.
"""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_OUT = Path("cases") / "official"


def _import_official(args: argparse.Namespace) -> int:
    from indicjr.official.importer import import_release
    from indicjr.official.report import summary_lines

    out = Path(args.out) if args.out else DEFAULT_OUT
    result = import_release(
        Path(args.path), out, exclude_defective=args.exclude_defective, strip_contract=args.strip_contract
    )
    for line in summary_lines(result.report):
        print(line)
    print(f"{len(result.cases)} cases -> {out} (quality report: {out / 'quality.md'}, {out / 'quality.json'})")
    return 0


def add_official_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the import-official subcommand to the `ijr` subparsers."""
    p = sub.add_parser(
        "import-official",
        help="import the paper's public release, with a quality report",
        description="Convert a checkout of the public IJR release into case files "
        "(<lang>.jsonl + manifest.json) and write quality.json / quality.md beside them.",
    )
    p.add_argument("path", help="the release checkout (holds prompts_json/, prompts_free/, ...)")
    p.add_argument("--out", help=f"output folder (default {DEFAULT_OUT})")
    p.add_argument(
        "--exclude-defective",
        action="store_true",
        help="write only rows no detector flagged (default: all rows, tagged in meta.defects)",
    )
    p.add_argument(
        "--strip-contract",
        action="store_true",
        help="remove the JSON-contract paragraph the release left in FREE clean prompts",
    )
    p.set_defaults(func=_import_official)
