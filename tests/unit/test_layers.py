"""No import from a lower layer of the package to a higher one (eager or lazy, inside a function).

A lower layer is what a higher one builds on: a case source under `official/` imported by `cases/`, or
the audit CLI living in `judge/` and importing `run/`, made `judge` and `cases` depend on everything
above them. Packages of one layer do not import each other either.
"""

from __future__ import annotations

import ast
from pathlib import Path

import indicjr

ROOT = Path(indicjr.__file__).parent
LAYERS: dict[str, int] = {
    **dict.fromkeys(("errors", "untrusted", "slug", "yamlio"), 0),
    **dict.fromkeys(("jsonl", "langs"), 1),
    **dict.fromkeys(("cases", "targets", "metrics"), 2),
    **dict.fromkeys(("judge", "scale", "gates"), 3),
    "run": 4,
    **dict.fromkeys(("report", "official"), 5),
    **dict.fromkeys(("pytest_plugin", "cli"), 6),
    **dict.fromkeys(("suite", "testing"), 7),
}


def _package(path: Path) -> str:
    rel = path.relative_to(ROOT).parts
    return rel[0] if len(rel) > 1 else rel[0].removesuffix(".py")


def _imports(path: Path) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("indicjr."):
            found.append((node.module.split(".")[1], node.lineno))
        elif isinstance(node, ast.Import):
            found += [(a.name.split(".")[1], node.lineno) for a in node.names if a.name.startswith("indicjr.")]
    return found


def test_every_package_has_a_layer() -> None:
    packages = {_package(p) for p in ROOT.rglob("*.py")} - {"__init__"}
    assert packages <= set(LAYERS), sorted(packages - set(LAYERS))


def test_no_import_goes_up_or_sideways() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {_package(path)} imports {target}"
        for path in sorted(ROOT.rglob("*.py"))
        if _package(path) != "__init__"
        for target, line in _imports(path)
        if target != _package(path) and LAYERS[target] >= LAYERS[_package(path)]
    ]
    assert not wrong, "\n".join(wrong)
