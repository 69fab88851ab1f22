"""The IndicJR safety suite, shipped with the package so that `pytest --model X` finds it anywhere.

The plugin adds `test_safety.py` to the collection when the command line names no test path (see
pytest_plugin/suite.py); `pytest path/to/tests` runs only what it names.
"""
