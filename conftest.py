"""Project root conftest: intentionally thin.

The IndicJR pytest plugin is registered through the `pytest11` entry point of the installed package
(`pip install -e .`), and the safety suite ships inside it (src/indicjr/suite/): `pytest` here and
`pytest --model X` in a model team's repository load both the same way. Nothing project-specific is
configured here.
"""
