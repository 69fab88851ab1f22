"""Reports: terminal table, Markdown, HTML and figures — all rendered from summary.json / result rows."""
