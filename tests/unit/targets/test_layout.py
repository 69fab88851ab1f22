"""targets/ is split by concern, and the imports keep it so (read from the source, eager or lazy):

targets/*.py         the generation machinery: never imports a provider or the simulator, except
                     registry.py, which builds them (lazily, one scheme at a time)
targets/providers/   the providers; the helpers they share are http, shapes, plain_prompt and
                     hf_batch: a provider imports helpers and machinery, never another provider
targets/sim/         the simulator: imports neither the providers nor their helpers
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import indicjr.targets

ROOT = Path(indicjr.targets.__file__).parent
HELPERS = {"http", "shapes", "plain_prompt", "hf_batch"}


def _imports(path: Path) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("indicjr.targets"):
            names = [node.module + "." + a.name for a in node.names]
            found += [(n, node.lineno) for n in names]
        elif isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names if a.name.startswith("indicjr.targets")]
    return found


def _part(module: str) -> tuple[str, str] | None:
    """('providers', name) / ('sim', name) / ('top', name) for an indicjr.targets module, else None."""
    parts = module.split(".")[2:]
    if not parts:
        return None
    if parts[0] in ("providers", "sim"):
        return parts[0], parts[1] if len(parts) > 1 else ""
    return "top", parts[0]


def _violations() -> list[str]:
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        here = "top" if len(rel.parts) == 1 else rel.parts[0]
        for module, line in _imports(path):
            part = _part(module)
            if part is None:
                continue
            kind, name = part
            if here == "top" and kind != "top" and rel.name != "registry.py":
                wrong.append(f"{rel}:{line}: machinery imports {module}")
            if here == "providers" and kind == "providers" and name not in HELPERS and name != path.stem:
                wrong.append(f"{rel}:{line}: a provider imports another provider ({module})")
            if {here, kind} == {"providers", "sim"}:
                wrong.append(f"{rel}:{line}: {here} imports {module}")
    return wrong


def test_targets_imports_follow_the_split() -> None:
    wrong = _violations()
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_provider_importing_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "targets"
    (fake / "providers").mkdir(parents=True)
    (fake / "providers" / "newone.py").write_text("from indicjr.targets.providers.openai import OpenAITarget\n")
    (fake / "runner.py").write_text("from indicjr.targets.sim import SimTarget\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", fake)
    assert [v.split(": ", 1)[1] for v in _violations()] == [
        "a provider imports another provider (indicjr.targets.providers.openai.OpenAITarget)",
        "machinery imports indicjr.targets.sim.SimTarget",
    ]


def _getattr_on_targets(root: Path) -> list[str]:
    """`getattr(target, ...)` / `hasattr(t, ...)` calls: what a target offers is declared (base.Target),
    never probed with a default."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and node.args
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id in ("target", "t")
            ):
                found.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return found


def test_no_code_probes_a_target_for_undeclared_attributes() -> None:
    package = ROOT.parent
    found = [
        f for sub in ("targets", "run", "pytest_plugin", "cli", "scale") for f in _getattr_on_targets(package / sub)
    ]
    # registry.require_target is the one place that looks: it lists the missing members of the interface.
    assert found == ["targets/registry.py:" + str(_require_target_line())], found


def _require_target_line() -> int:
    tree = ast.parse((ROOT / "registry.py").read_text(encoding="utf-8"))
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "require_target")
    return next(n.lineno for n in ast.walk(fn) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "hasattr")
