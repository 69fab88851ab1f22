"""A run, without pytest: options -> the selected cases -> generation -> verdict rows -> results files.

option_table.py  every option, one row each: pytest option, `ijr run` flag, record field, parser
option_values.py how a row's raw value becomes its field (one ConfigError line naming the flag)
options.py    the run's five option records (selection, endpoint, pacing, outputs, scoring), built from the table
selection.py  which cases: a profile (lite, full, a path), language/track filters, a seeded limit
engine.py     generate every selected case's responses (store, resume), judge them into rows
results.py    case + response -> result row; results.jsonl / summary.json, user-only
"""
