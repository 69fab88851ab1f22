"""Security: the API key is never written anywhere, names become safe slugs, outputs are user-only,
HTML escapes model output, and requests go only to the configured endpoint."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from indicjr.testing.fake_server import FakeConfig, FakeServer, Faults
from tests.reliability.conftest import SECRET, openai_args, read_rows, read_summary, run_suite

HOSTILE = '<script>alert("ijr")</script><img src=x onerror=alert(1)>'


def _ijr(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from indicjr.cli import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_api_key_appears_in_no_file_output_or_error_and_requests_reach_only_the_configured_endpoint(
    suite: pytest.Pytester, tiny_cases: Path
) -> None:
    config = FakeConfig(api_key=SECRET, faults=Faults(rate_500=0.6, rate_429=0.1))
    with FakeServer(config=config) as fake, FakeServer(config=FakeConfig()) as decoy:
        env = {"OPENAI_API_KEY": SECRET, "OPENAI_BASE_URL": decoy.openai_base}
        run = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-out=out", "--junitxml=junit.xml", "-rA"), env=env)
        assert run.returncode == 0, run.stdout[-2000:]
        report = _ijr("report", "out", "--no-figures", cwd=suite.path)
        assert report.returncode == 0, report.stderr
        fake.configure(FakeConfig(api_key="sk-another-key"))  # the key is now rejected: an error message
        rejected = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-out=rejected"), env=env)
        assert fake.total() > 0 and decoy.total() == 0  # only --api-base was contacted, never the env base
        n_calls = read_summary(suite.path / "out")["generation"]["n_calls"]
        assert sum(fake.counts().values()) == n_calls
    assert rejected.returncode == 4 and "OPENAI_API_KEY" in rejected.stderr
    assert any(r["verdict"]["error"] for r in read_rows(suite.path / "out"))  # error texts were written
    written = [p for p in suite.path.rglob("*") if p.is_file()]
    assert {"results.jsonl", "summary.json", "junit.xml", "store.sqlite"} <= {p.name for p in written}
    for path in written:
        assert SECRET.encode() not in path.read_bytes(), path
    for text in (run.stdout, run.stderr, report.stdout, report.stderr, rejected.stdout, rejected.stderr):
        assert SECRET not in text


def test_store_and_outputs_are_created_user_only(suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer) -> None:
    result = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-out=runs/out"))
    assert result.returncode == 0, result.stdout[-2000:]
    out, store = suite.path / "runs" / "out", suite.path / ".ijr" / "store.sqlite"
    assert _mode(store) == 0o600 and _mode(store.parent) == 0o700
    assert _mode(out) == 0o700 and _mode(out.parent) == 0o700
    for f in out.iterdir():
        assert _mode(f) == 0o600, f


@pytest.mark.parametrize("spec", ["sim:../../etc", "openai:../../x", "openai:/tmp/abs", "sim:..\\..\\win"])
def test_model_names_become_safe_slugs_that_cannot_escape_the_output_folder(
    suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer, spec: str
) -> None:
    args = [f"--model={spec}", "--ijr-lang=hi", "--ijr-limit=4"]
    if spec.startswith("openai:"):
        args += [f"--api-base={fake.openai_base}"]
    before = {p for p in suite.path.parent.rglob("*")}
    result = run_suite(suite, tiny_cases, *args)
    created = {p for p in suite.path.parent.rglob("*")} - before
    runs = suite.path / ".ijr" / "runs"
    for p in created:
        assert p.resolve().is_relative_to(suite.path.resolve()), p
        assert ".." not in p.relative_to(suite.path).parts
    run_dirs = [p for p in created if p.parent == runs]
    if result.returncode == 0:
        assert len(run_dirs) == 1 and (run_dirs[0] / "summary.json").is_file()
    else:  # an unknown simulated profile is refused as a usage error, and nothing is written
        assert result.returncode == 4 and not run_dirs, result.stdout[-2000:] + result.stderr


def test_html_report_escapes_model_output(suite: pytest.Pytester, tiny_cases: Path, fake: FakeServer) -> None:
    result = run_suite(suite, tiny_cases, *openai_args(fake, "--ijr-out=out"))
    assert result.returncode == 0, result.stdout[-2000:]
    out = suite.path / "out"
    rows = read_rows(out)
    for r in rows:
        r["response"] = HOSTILE
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    summary = read_summary(out)
    summary["model_display_name"] = HOSTILE
    (out / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    report = _ijr("report", "out", "--out", "rep", "--no-figures", cwd=suite.path)
    assert report.returncode == 0, report.stderr
    pages = list((suite.path / "rep").rglob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<img src=x" not in text
        assert "&lt;script&gt;alert" in text


URL_SECRET = "ijr-url-canary-PASSWORD-789"
FORMS = ["http://user:{s}@{host}/v1", "http://{host}/v1?api-version=1&api-key={s}", "http://{host}/v1?key={s}"]


@pytest.mark.parametrize("form", FORMS)
def test_credentials_inside_api_base_reach_the_server_and_appear_in_no_file_output_or_store_key(
    suite: pytest.Pytester, tiny_cases: Path, form: str
) -> None:
    with FakeServer(config=FakeConfig(api_key=URL_SECRET, faults=Faults(rate_500=0.5))) as fake:
        base = form.format(s=URL_SECRET, host=fake.url.removeprefix("http://"))
        args = ["--model", "openai:test", f"--api-base={base}", "--ijr-timeout=30"]  # generous: not about timeouts
        run = run_suite(suite, tiny_cases, *args, "--ijr-out=out", "--junitxml=junit.xml", "-rA")
        assert run.returncode == 0, run.stdout[-2000:]  # the credentials were sent: no 401
        report = _ijr("report", "out", "--no-figures", cwd=suite.path)
        fake.configure(FakeConfig(api_key="another-key"))  # now rejected: the error names the endpoint
        rejected = run_suite(suite, tiny_cases, *args, "--ijr-out=rejected")
        fake.stop()  # unreachable: another message naming it
        gone = run_suite(suite, tiny_cases, *args, "--ijr-out=gone")
    assert rejected.returncode == 4 and gone.returncode == 4
    assert "127.0.0.1" in rejected.stderr and "127.0.0.1" in gone.stderr
    summary = read_summary(suite.path / "out")
    assert summary["generation"]["endpoint"] == fake.openai_base + ("?api-version=1" if "version" in form else "")
    assert summary["generation"]["retries"]  # faults were met: their messages were written somewhere
    for path in [p for p in suite.path.rglob("*") if p.is_file()]:
        assert URL_SECRET.encode() not in path.read_bytes(), path
    for r in (run, report, rejected, gone):
        assert URL_SECRET not in r.stdout + r.stderr
