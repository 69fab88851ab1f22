"""One root exception for everything IndicJR raises on purpose.

    IJRError                      root; message is one line that names the file/option and the fix
    ├── ConfigError               a bad option, --model spec, profile name or thresholds.yaml
    │   └── ThresholdsError       thresholds.yaml: names file, key, value
    ├── CaseFileError             a malformed case JSONL (file:line: problem)
    ├── DataFileError             a malformed shipped data file (cores, wrappers, lexicons)
    ├── SnapshotFileError         a model snapshot (snapshots/<model>.json) edited into nonsense
    ├── TargetError               a model endpoint problem found before the run (unreachable, no key)
    │   └── BudgetExceeded        --ijr-max-cost would be exceeded
    ├── CircuitOpen               the run is drowning in endpoint errors
    └── OutputError               the output folder or the response store cannot be written
        └── StoreFailed           the store stopped accepting answers mid-run (full disk): run stopped

Exit codes used by the CLI and the pytest plugin (distinct from a gate failure, which is 1):
"""

from __future__ import annotations

EXIT_GATE_FAILED = 1
EXIT_USAGE = 4  # same as pytest's ExitCode.USAGE_ERROR
EXIT_TARGET = 6
EXIT_INTERRUPTED = 2


class IJRError(Exception):
    """Root of all deliberate IndicJR errors; str(e) is a one-line, user-facing message."""

    exit_code: int = EXIT_USAGE


class ConfigError(IJRError):
    """A bad option value, model spec, profile name or configuration file."""


class ThresholdsError(ConfigError):
    """thresholds.yaml is malformed; the message names file, key and problem."""


class CaseFileError(IJRError):
    """A case JSON Lines file is malformed; the message starts with file:line:."""


class DataFileError(IJRError):
    """A shipped data file (cores, wrappers, lexicons, sim profiles) is malformed."""


class SnapshotFileError(IJRError):
    """A model snapshot file is not a valid snapshot; the message names the file and the fix."""


class TargetError(IJRError):
    """A model endpoint cannot be used (unknown scheme, missing key, unreachable)."""

    exit_code = EXIT_TARGET


class BudgetExceeded(TargetError):
    """Generation would exceed --ijr-max-cost."""


class CircuitOpen(TargetError):
    """Too many consecutive endpoint failures: the run stops instead of drowning."""


class OutputError(IJRError):
    """The output folder or store cannot be written."""


class StoreFailed(OutputError):
    """The response store refused a whole batch mid-run (full disk, read-only, corrupt): the run stops
    scheduling requests whose answers could not be kept; the message says how many were lost."""
