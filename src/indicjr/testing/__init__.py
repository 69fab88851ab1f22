"""Test tooling shipped with IndicJR: a loopback fake LLM server for tests and benchmarks."""
