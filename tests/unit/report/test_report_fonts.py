"""The HTML report's font stack comes from the language registry (each script's `fonts`, languages.yaml)."""

from __future__ import annotations

from indicjr.langs import REGISTRY
from indicjr.report.fonts import FONT_STACK, RTL_FONT_STACK, font_stack
from indicjr.report.html import CSS


def test_every_font_a_registry_script_declares_is_in_the_page_stack() -> None:
    declared = [f for s in REGISTRY.scripts for f in s.fonts]
    assert declared and all(f'"{f}"' in FONT_STACK for f in declared)
    assert f"body {{ font-family: {FONT_STACK};" in CSS


def test_right_to_left_text_leads_with_its_scripts_fonts_then_the_whole_stack() -> None:
    rtl = [f'"{f}"' for s in REGISTRY.scripts if s.rtl for f in s.fonts]
    assert rtl and RTL_FONT_STACK.split(", ")[: len(rtl)] == rtl
    assert set(RTL_FONT_STACK.split(", ")) == set(FONT_STACK.split(", "))
    assert f'[dir="rtl"] {{ font-family: {RTL_FONT_STACK}; }}' in CSS


def test_a_stack_names_each_family_once_and_leaves_generic_keywords_unquoted() -> None:
    assert font_stack("system-ui", "Noto Sans", "Noto Sans", "sans-serif") == 'system-ui, "Noto Sans", sans-serif'


def test_the_audit_sheet_declares_the_same_stacks() -> None:
    from indicjr.cli.audit import render_html

    page = render_html([])
    assert f"body{{font-family:{FONT_STACK}}}" in page and f"[dir=rtl]{{font-family:{RTL_FONT_STACK}}}" in page
