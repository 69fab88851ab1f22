"""The README's exit codes are every exit code the code can produce, and no other.

The code side: the EXIT_* constants, each error class's exit_code, pytest's own codes that a run of the
suite can end with, and every integer literal the sources hand to sys.exit/SystemExit, return from a CLI
main or assign to an exit status. The `ijr` CLI's argparse errors and Ctrl-C use the documented codes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import indicjr.errors as errors
from indicjr.cli import main

ROOT = Path(__file__).resolve().parents[2]
# pytest's own endings of a suite run (ExitCode): ok, failed, interrupted, internal error, usage, none collected
PYTEST_CODES = {int(c) for c in pytest.ExitCode}


def _readme_codes() -> set[int]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("Exit codes")
    paragraph = text[start : text.index("\n\n", start)]
    return {int(c) for c in re.findall(r"\*\*(\d+)\*\*", paragraph)}


def _error_classes(cls: type = errors.IJRError) -> list[type]:
    return [cls, *(c for sub in cls.__subclasses__() for c in _error_classes(sub))]


def _literal_exits() -> set[int]:
    """Integer literals in sys.exit(N), SystemExit(N), `exit_code = N`, `exitstatus = N`, `return N` in main()."""
    found: set[int] = set()
    for path in (ROOT / "src" / "indicjr").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "exit",
                "SystemExit",
            ):
                found |= {a.value for a in node.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, int)}
            elif isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Constant):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {getattr(t, "attr", getattr(t, "id", "")) for t in targets}
                if names & {"exit_code", "exitstatus"} and isinstance(node.value.value, int):
                    found.add(node.value.value)
            elif isinstance(node, ast.FunctionDef) and node.name in ("main", "run"):
                found |= {
                    r.value.value
                    for r in ast.walk(node)
                    if isinstance(r, ast.Return)
                    and isinstance(r.value, ast.Constant)
                    and isinstance(r.value.value, int)
                }
    return found


def test_the_readme_lists_exactly_the_exit_codes_the_code_can_produce() -> None:
    constants = {v for k, v in vars(errors).items() if k.startswith("EXIT_")}
    classes = {c.exit_code for c in _error_classes()}
    produced = {0} | constants | classes | PYTEST_CODES | _literal_exits()
    assert _readme_codes() == produced


def test_ijr_option_errors_exit_with_the_usage_code(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--no-such-option"], ["no-such-command"], ["report"], ["diff", "--bogus"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == errors.EXIT_USAGE, argv
    assert "ijr: error: " in capsys.readouterr().err


def test_ijr_interrupted_exits_with_the_interrupted_code(monkeypatch: pytest.MonkeyPatch) -> None:
    import indicjr.cli as cli

    def interrupted(_args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_thresholds", interrupted)
    assert main(["thresholds"]) == errors.EXIT_INTERRUPTED
