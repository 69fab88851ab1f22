"""A run, without pytest: options -> the selected cases -> generation -> verdict rows -> results files.

options.py    the run's options (shared by the plugin and the CLI), validated into RunOptions
selection.py  which cases: a profile (lite, full, a path), language/track filters, a seeded limit
engine.py     generate every selected case's responses (store, resume), judge them into rows
results.py    case + response -> result row; results.jsonl / summary.json, user-only
"""
