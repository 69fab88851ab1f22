"""Project root conftest: intentionally thin.

The IndicJR pytest plugin is registered through the `pytest11` entry point of the installed package
(`pip install -e .`), so the safety suite in tests/safety/ and a model team's own repository load it the
same way. Nothing project-specific is configured here.
"""
