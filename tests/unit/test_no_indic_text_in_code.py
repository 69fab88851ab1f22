"""The team standard: Indic-language text lives in data files (YAML/JSONL), never in Python code.

Every .py under src/ and tools/ is scanned for a character of the Indic and Perso-Arabic blocks; a
regex or character set names its code points as `\\uXXXX` escapes with an English comment, and a
comment or docstring gives a romanized gloss (and, where the example matters, the test or data file
that holds it natively). Tests under tests/ may keep native text: it is their data.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("src", "tools")
# Brahmic and Sinhala scripts (U+0900-U+0DFF), Arabic (U+0600-U+06FF), Arabic Supplement (U+0750-U+077F),
# Arabic Presentation Forms-A (U+FB50-U+FDFF) and -B (U+FE70-U+FEFF).
INDIC = re.compile("[\u0900-\u0dff\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]")


def indic_lines(root: Path) -> list[str]:
    """`path:line: text` for every line of a .py file under root holding an Indic or Perso-Arabic character."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if INDIC.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


@pytest.mark.parametrize("folder", SCANNED)
def test_python_code_holds_no_indic_text(folder: str) -> None:
    found = indic_lines(ROOT / folder)
    assert not found, "Indic text in Python code (move it to a data file or use \\u escapes):\n" + "\n".join(found)


def test_the_scan_names_file_and_line_of_indic_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text('x = 1\nDANDA = "\u0964"  # danda\n', encoding="utf-8")
    (tmp_path / "pkg" / "b.py").write_text('QMARK = "\\u061f"  # escaped: fine\n', encoding="utf-8")
    assert indic_lines(tmp_path / "pkg") == ['pkg/a.py:2: DANDA = "\u0964"  # danda']
