"""The HTML report in headless Chromium: no console errors, every figure rendered, `<script>` inert."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from indicjr.gates.thresholds import DEFAULT_THRESHOLDS, load_thresholds
from indicjr.langs import LANGS
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
    assert 'id="fig-comparison-json_jsr"' in rendered.stdout.split('<section id="comparison">', 1)[1]
    assert rendered.stdout.count("<svg") == 2 * len(FIGURES) + 1  # and the two runs side by side


def test_screenshot_renders(report_dir: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    out = chromium(report_dir / "report.html", tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,2000")
    assert out.returncode == 0 and shot.read_bytes()[:4] == b"\x89PNG"


def test_release_verdict_comes_first_and_the_comparison_is_on_the_page(
    rendered: subprocess.CompletedProcess[str],
) -> None:
    body = rendered.stdout.split("<body", 1)[1]
    assert body.index('<section id="verdict">') < body.index('<section id="comparison">') < body.index("Headline")
    verdict = body.split('<section id="verdict">', 1)[1].split("</section>", 1)[0]
    assert verdict.count('<table class="gates">') == 2  # one per run
    statuses = sum(verdict.count(f'<td class="{s}">') for s in ("PASS", "FAIL", "SKIPPED"))
    assert statuses == 2 * len(load_thresholds(DEFAULT_THRESHOLDS).gates)  # every gate of both runs
    comparison = body.split('<section id="comparison">', 1)[1].split("</section>", 1)[0]
    assert "json_jsr" in comparison and "json_sv_ab" in comparison and "<th>change</th>" in comparison


def test_screenshot_shows_the_gate_table_at_the_top(report_dir: Path, tmp_path: Path) -> None:
    """The verdict is the first thing on screen: its PASS/FAIL cell colours are in the first screenful."""
    import matplotlib.image

    shot = tmp_path / "top.png"
    out = chromium(report_dir / "report.html", tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,900")
    assert out.returncode == 0
    pixels = {tuple(int(c * 255 + 0.5) for c in px[:3]) for line in matplotlib.image.imread(shot) for px in line}
    pass_green, fail_red = (0xD4, 0xED, 0xDA), (0xF8, 0xD7, 0xDA)
    assert pass_green in pixels or fail_red in pixels


@pytest.mark.parametrize("lang", LANGS)
def test_a_font_the_page_declares_is_installed_for_every_language(lang: str) -> None:
    """Indic replies render as text, not boxes: some family of the report's font stack covers the script."""
    from indicjr.report.html import FONT_STACK

    listed = subprocess.run(["fc-list", f":lang={lang}", "family"], capture_output=True, text=True, check=False)
    installed = {name.strip() for line in listed.stdout.splitlines() for name in line.split(",")}
    declared = {f.strip().strip('"') for f in FONT_STACK.split(",")}
    assert installed & declared, f"no font of the report's stack covers {lang}; install fonts-noto-core"
