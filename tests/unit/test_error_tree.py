"""The transport errors sit under IJRError (errors.py draws the tree); the interrupts stay interrupts."""

from __future__ import annotations

import pytest

from indicjr.errors import EXIT_TARGET, IJRError, Interrupted, TargetError, TransportError
from indicjr.run.engine import GenerationInterrupted
from indicjr.targets.base import Fault, PermanentError, TransientError


@pytest.mark.parametrize("error", [TransientError("x"), PermanentError("x"), Fault("x", kind="reset")])
def test_transport_errors_are_target_errors(error: Exception) -> None:
    assert isinstance(error, TransportError) and isinstance(error, TargetError) and isinstance(error, IJRError)
    assert error.exit_code == EXIT_TARGET  # escaping a command, one line and exit 6, not a traceback


def test_interrupts_share_a_root_that_no_except_exception_catches() -> None:
    from indicjr.scale.ray_engine import RayInterrupted

    for cls in (GenerationInterrupted, RayInterrupted):
        assert issubclass(cls, Interrupted) and issubclass(cls, KeyboardInterrupt)
        assert not issubclass(cls, Exception)  # a per-request `except Exception` must not swallow Ctrl-C


def test_every_exception_the_targets_define_is_an_ijr_error() -> None:
    """The whole tree: each exception class defined in any module under indicjr.targets (providers and
    simulator included) sits under IJRError, so a command ends in one line and exit 6, never a traceback."""
    import importlib
    import inspect
    import pkgutil

    import indicjr.targets

    defined = []
    for info in pkgutil.walk_packages(indicjr.targets.__path__, "indicjr.targets."):
        module = importlib.import_module(info.name)
        defined += [
            c
            for _, c in inspect.getmembers(module, inspect.isclass)
            if issubclass(c, BaseException) and c.__module__ == info.name
        ]
    assert {c.__name__ for c in defined} >= {"TransientError", "PermanentError", "Fault", "ContextOverflow"}
    assert [c.__qualname__ for c in defined if not issubclass(c, IJRError)] == []
