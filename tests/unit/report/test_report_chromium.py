"""The HTML report in headless Chromium: no console errors, every figure rendered, `<script>` inert."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from indicjr.report.figures import FIGURES

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (/usr/bin/chromium absent)"
)


def chromium(page: Path, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    cmd = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *extra,
        page.as_uri(),
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=90, check=False)


@pytest.fixture(scope="module")
def rendered(report_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    out = chromium(report_dir / "report.html", tmp_path_factory.mktemp("chromium"), "--dump-dom")
    assert out.returncode == 0, out.stderr[-2000:]
    return out


def test_page_logs_no_console_messages(rendered: subprocess.CompletedProcess[str]) -> None:
    console = [line for line in rendered.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert console == []
    assert "ijr-xss" not in rendered.stderr


def test_script_response_is_text_and_never_runs(rendered: subprocess.CompletedProcess[str]) -> None:
    dom = rendered.stdout
    assert "data-pwned" in dom  # the text is on the page …
    assert 'data-pwned="1"' not in dom.split("<body", 1)[0]  # … but the <html> element was never touched
    assert "&lt;script&gt;document.documentElement" in dom


def test_every_figure_is_in_the_rendered_dom(rendered: subprocess.CompletedProcess[str]) -> None:
    for slug in ("sim-model-a", "sim-model-b"):
        for name in FIGURES:
            assert f'id="fig-{slug}-{name}"' in rendered.stdout
    assert rendered.stdout.count("<svg") == 2 * len(FIGURES)


def test_screenshot_renders(report_dir: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    out = chromium(report_dir / "report.html", tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,2000")
    assert out.returncode == 0 and shot.read_bytes()[:4] == b"\x89PNG"
