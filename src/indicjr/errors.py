"""One root exception for everything IndicJR raises on purpose.

    IJRError                      root; message is one line that names the file/option and the fix
    ├── ConfigError               a bad option, --model spec, profile name or thresholds.yaml
    │   └── ThresholdsError       thresholds.yaml: names file, key, value
    ├── CaseFileError             a malformed case JSONL (file:line: problem)
    ├── DataFileError             a malformed or incomplete data file (language registry, cores, lexicons)
    ├── SnapshotFileError         a model snapshot (snapshots/<model>.json) edited into nonsense
    ├── TargetError               a model endpoint problem (unreachable, no key); exit status 6
    │   ├── BudgetExceeded        --ijr-max-cost would be exceeded
    │   ├── CircuitOpen           the run is drowning in endpoint errors
    │   └── TransportError        one request failed at the endpoint (targets raise, the runner handles)
    │       ├── TransientError    worth a retry: 429, 5xx, timeout, reset, malformed body (targets/base.py)
    │       │   └── Fault         a TransientError naming its kind for the retry counters (targets/base.py)
    │       └── PermanentError    retrying cannot fix it: 400, 401, 404, a replayed error (targets/base.py)
    │           └── ContextOverflow  the prompt does not fit the model's context (targets/base.py)
    └── OutputError               the output folder or the response store cannot be written
        └── StoreFailed           the store stopped accepting answers mid-run (full disk): run stopped

    Interrupted (a KeyboardInterrupt) Ctrl-C carrying what was finished before it; deliberately NOT an
    │                             IJRError/Exception, so no `except Exception` (a target bug caught per
    │                             request) and no `except IJRError` (a usage error) can swallow Ctrl-C
    ├── GenerationInterrupted     the answers finished and stored (run/engine.py)
    └── RayInterrupted            a Ray batch run's stats (scale/ray_engine.py)

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
    """A data file (language registry, cores, wrappers, lexicons, sim profiles) is malformed or incomplete:
    the message names the file and the section."""


class SnapshotFileError(IJRError):
    """A model snapshot file is not a valid snapshot; the message names the file and the fix."""


class TargetError(IJRError):
    """A model endpoint cannot be used (unknown scheme, missing key, unreachable)."""

    exit_code = EXIT_TARGET


class BudgetExceeded(TargetError):
    """Generation would exceed --ijr-max-cost."""


class TransportError(TargetError):
    """One request failed at the endpoint. Raised by a target, handled by the runner (retried, counted,
    recorded per case as an inference error): never turned into a refusal or a compliance."""


class CircuitOpen(TargetError):
    """Too many consecutive endpoint failures: the run stops instead of drowning."""


class OutputError(IJRError):
    """The output folder or store cannot be written."""


class StoreFailed(OutputError):
    """The response store refused a whole batch mid-run (full disk, read-only, corrupt): the run stops
    scheduling requests whose answers could not be kept; the message says how many were lost."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, carrying what was finished before it (see the tree above for why not an IJRError)."""
