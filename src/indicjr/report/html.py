"""The self-contained HTML report: one file, no scripts, no external resources, figures inline as SVG.

Model output is hostile input: every response, label and cell goes through html.escape, so a reply
containing `<script>` renders as text. Responses carry lang and dir attributes (Urdu is RTL) and the
page declares a font stack covering every script of the benchmark (each script's fonts are the registry's).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from indicjr.langs import LANG_NAMES, RTL_LANGS, RTL_SCRIPTS, SCRIPT_OF
from indicjr.metrics.rows import Row, wrapper_kind
from indicjr.report.examples import Example, teaching_examples
from indicjr.report.figures import COMPARISON, FigureFile
from indicjr.report.fonts import FONT_STACK, RTL_FONT_STACK
from indicjr.report.runs import Run, run_slugs
from indicjr.report.tables import (
    Table,
    lang_by_model,
    run_tables,
    table2,
)
from indicjr.report.terminal import endpoint_lines
from indicjr.report.verdict import comparison_table, verdict_table, warnings_of

CSS = f"""
body {{ font-family: {FONT_STACK}; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.85rem; }}
th, td {{ border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
th {{ background: #f3f3f3; }}
.sim {{ background: #fff3cd; border: 1px solid #e0c36b; padding: 0.75rem 1rem; font-weight: 600; }}
.note {{ color: #555; font-size: 0.8rem; }}
figure.ijr-figure {{ margin: 1rem 0 2rem; }}
figure.ijr-figure svg {{ max-width: 100%; height: auto; }}
table.gates td.FAIL {{ background: #f8d7da; font-weight: 600; }}
table.gates td.PASS {{ background: #d4edda; }}
table.gates td.SKIPPED {{ background: #fff3cd; }}
.warning {{ background: #f8d7da; border: 1px solid #d9534f; padding: 0.5rem 1rem; }}
td.worse {{ color: #a00; font-weight: 600; }} td.better {{ color: #070; }}
pre.prompt {{ white-space: pre-wrap; word-break: break-word; background: #eef3f8; padding: 0.5rem;
  border-left: 3px solid #369; font-family: {FONT_STACK}; }}
pre.response {{ white-space: pre-wrap; word-break: break-word; background: #f8f8f8; padding: 0.5rem;
  border-left: 3px solid #c33; font-family: {FONT_STACK}; }}
[dir="rtl"] {{ font-family: {RTL_FONT_STACK}; }}
"""


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def table_html(t: Table, css: str = "") -> str:
    """A table; with a css class, each cell also carries its own text as a class (PASS, FAIL, worse)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in t.header)

    def cell(c: str) -> str:
        return f'<td class="{esc(c)}">{esc(c)}</td>' if css and c.isalpha() else f"<td>{esc(c)}</td>"

    body = "".join("<tr>" + "".join(cell(c) for c in row) + "</tr>" for row in t.rows)
    note = f'<p class="note">{esc(t.note)}</p>' if t.note else ""
    rows = body or f'<tr><td colspan="{len(t.header)}">no data</td></tr>'
    klass = f' class="{esc(css)}"' if css else ""
    return f"<h3>{esc(t.title)}</h3><table{klass}><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{note}"


def inline_svg(svg_text: str) -> str:
    """The <svg> element alone (drop the XML prolog and DOCTYPE, invalid inside HTML)."""
    start = svg_text.find("<svg")
    return svg_text[start:] if start >= 0 else ""


def figure_html(f: FigureFile) -> str:
    return (
        f'<figure class="ijr-figure" id="fig-{esc(f.run)}-{esc(f.name)}" data-figure="{esc(f.name)}">'
        f"{inline_svg(f.svg_text)}<figcaption>{esc(f.title)} "
        f'(<a href="figures/{esc(f.png.name)}">PNG</a>, <a href="figures/{esc(f.svg.name)}">SVG</a>)'
        "</figcaption></figure>"
    )


def text_attrs(row: Row) -> str:
    """lang/dir for a response: the reply's detected language, else the case language; right-to-left scripts
    (the registry's: Urdu's Arabic) get dir=rtl."""
    v = row["verdict"]
    lang = v.get("response_lang") if v.get("response_lang") in LANG_NAMES else row.get("lang")
    rtl = v.get("response_script") in RTL_SCRIPTS or (lang in RTL_LANGS and v.get("response_script") != "Latin")
    return f'lang="{esc(lang or "und")}" dir="{"rtl" if rtl else "auto"}"'


def example_html(e: Example) -> str:
    r = e.row
    cond = " · ".join(
        str(x) for x in (r["lang"], r.get("track"), r.get("orthography"), r.get("family"), wrapper_kind(r)) if x
    )
    prompt = (
        f'<pre class="prompt" lang="{esc(r.get("lang") or "und")}" dir="auto">{esc(e.prompt)}</pre>'
        if e.prompt is not None
        else '<p class="note">prompt: the run\'s case set is no longer at its recorded path</p>'
    )
    return (
        f'<div class="example" data-kind="{esc(e.subset)}-{esc(e.kind)}"><p class="note"><code>{esc(r["id"])}</code>'
        f" — {esc(cond)} — decision {esc(r['verdict'].get('decision'))}</p>{prompt}"
        f'<pre class="response" {text_attrs(r)}>{esc(r.get("response") or "")}</pre></div>'
    )


def examples_html(run: Run) -> str:
    examples = teaching_examples(run.summary, run.rows)
    parts = [f"<h3>Example responses, by subset and outcome ({len(examples)}; model output shown as text)</h3>"]
    title = ""
    for e in examples:
        if e.title != title:
            title = e.title
            parts.append(f"<h4>{esc(e.subset)}: {esc(title)}</h4>")
        parts.append(example_html(e))
    return "".join(parts)


def run_section(run: Run, slug: str, figures: Sequence[FigureFile]) -> str:
    sim = ' <span class="sim">SIMULATED MODEL</span>' if run.simulated else ""
    parts = [
        f'<section id="run-{esc(slug)}"><h2>{esc(run.label)}{sim}</h2>',
        f'<p class="note">model <code>{esc(run.model)}</code> · profile {esc(run.summary.get("profile"))}'
        f" · scoring {esc(run.summary.get('scoring', 'paper'))}"
        f" · cases {esc(run.headline.get('n_cases'))} · inference errors "
        f"{esc(run.headline.get('n_inference_errors'))} · directory <code>{esc(run.path)}</code></p>",
        *(f'<p class="note">{esc(line)}</p>' for line in endpoint_lines(run.summary)),
    ]
    parts += [table_html(t) for t in run_tables(run)]
    parts += [figure_html(f) for f in figures if f.run == slug]
    parts.append(examples_html(run))
    return "".join(parts) + "</section>"


def render_html(runs: Sequence[Run], figures: Sequence[FigureFile] = ()) -> str:
    """The complete page as a string."""
    sims = [r.label for r in runs if r.simulated]
    banner = (
        (
            f'<p class="sim">Simulated model(s): {esc(", ".join(sims))}. These numbers come from a '
            "deterministic simulator, not from a real model; the paper profiles match Table 2 column by column "
            "(JSON JSR as the paper reads it: over valid contracts, json_jsr_valid).</p>"
        )
        if sims
        else ""
    )
    warn = "".join(f'<p class="warning">Warning: {esc(w)}</p>' for w in warnings_of(runs))
    verdicts = "".join(table_html(verdict_table(r), "gates") for r in runs)
    body = [banner, warn, f'<section id="verdict"><h2>Release verdict</h2>{verdicts}</section>']
    if len(runs) > 1:
        tables = "".join(table_html(comparison_table(runs[0], other), "comparison") for other in runs[1:])
        side_by_side = "".join(figure_html(f) for f in figures if f.run == COMPARISON)
        body.append(f'<section id="comparison"><h2>Comparison</h2>{tables}{side_by_side}</section>')
    body.append(table_html(table2(runs)))
    if len(runs) > 1:
        body += [
            table_html(lang_by_model(runs, "json_jsr", "JSON JSR")),
            table_html(lang_by_model(runs, "free_jsr", "FREE JSR")),
        ]
    body += [run_section(r, s, figures) for r, s in zip(runs, run_slugs(runs), strict=True)]
    langs = ", ".join(f"{LANG_NAMES[c]} ({SCRIPT_OF[c]})" for c in sorted(SCRIPT_OF))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>IndicJR report</title><style>{CSS}</style></head><body><h1>IndicJR report</h1>"
        + "".join(body)
        + f'<p class="note">Languages and scripts: {esc(langs)}.</p></body></html>\n'
    )
