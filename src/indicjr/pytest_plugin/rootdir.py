"""`--ijr-out DIR` (two words) must choose the same root directory as `--ijr-out=DIR`.

pytest decides its rootdir and ini file (`_pytest/config/findpaths.py: determine_setup`) from the
positional arguments of a first parse made *before* entry-point plugins are loaded: `--ijr-out` is still
unknown then, so `DIR` counts as a test path. Once DIR exists (the second run of the same command, the
documented way to resume), the root moves: at a project's root its testpaths are lost and the self-tests
are collected; elsewhere the project's thresholds.yaml and snapshots/ are no longer found.

By `pytest_load_initial_conftests` the plugin's options are known and pytest has re-parsed the command
line, so the true positional arguments are known. If they lead to another root, the root, ini file,
ini values and the ini's addopts are put back as pytest would have chosen them — before the initial
conftests, the cache and collection use them. A pytest whose internals do not look as expected gets one
line asking for the `--opt=value` form instead of a silently different run.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest


def _setup_for(config: pytest.Config, ns: Any) -> tuple[Path, Path | None, Any]:
    from _pytest.config.findpaths import determine_setup

    found = determine_setup(
        inifile=ns.inifilename,
        override_ini=ns.override_ini,
        args=ns.file_or_dir,
        rootdir_cmd_arg=ns.rootdir or None,
        invocation_dir=config.invocation_params.dir,
    )
    return found[0], found[1], found[2]


def restore_rootdir(config: pytest.Config, args: list[str]) -> None:
    """Re-decide rootdir/inifile from the arguments as parsed with the plugin's options known."""
    ns = config.known_args_namespace
    try:
        rootpath, inipath, inicfg = _setup_for(config, ns)
    except (ImportError, TypeError, AttributeError):
        rootpath, inipath, inicfg = config.rootpath, config.inipath, None
    if rootpath == config.rootpath and inipath == config.inipath:
        return
    internals = ("_rootpath", "_inipath", "_inicfg", "_inicache", "_parser")
    if inicfg is None or not all(hasattr(config, name) for name in internals):
        raise pytest.UsageError(
            "indicjr: pytest took the value of an --ijr-* option for a test path when choosing its root "
            "directory; write the option as --ijr-out=DIR (one word)"
        )
    config._rootpath = rootpath
    config._inipath = inipath
    config._inicfg = inicfg
    config._inicache.clear()
    config._parser.extra_info.update(rootdir=str(rootpath), inifile=str(inipath))
    for entry in reversed(config.getini("pythonpath")):
        sys.path.insert(0, str(entry))
    addopts = config.getini("addopts")
    if addopts:
        args[:] = [*addopts, *args]
        config.pluginmanager.consider_preparse(addopts, exclude_only=False)
    config.known_args_namespace = config._parser.parse_known_args(args, namespace=copy.copy(config.option))
    if config.known_args_namespace.confcutdir is None:  # as pytest derives it, from the right root
        config.known_args_namespace.confcutdir = str(inipath.parent if inipath else rootpath)
