"""Targets: the models under test (simulated, OpenAI-compatible, Anthropic, local HF), store and runner."""
