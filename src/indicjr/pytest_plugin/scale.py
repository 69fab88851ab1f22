"""`--ijr-engine ray`: the controller fills the response store on a Ray cluster before any worker starts.

Runs in the controller's `pytest_sessionstart`, ahead of pytest-xdist's own (which starts the workers),
over the profile's cases after --ijr-lang/--ijr-track/--ijr-limit (a -k/-m selection is applied later,
at collection, so Ray may answer a few cases that are then deselected). The workers' ordinary
generation then finds every answer in the store and calls no model.
"""

from __future__ import annotations

import sys

import pytest

from indicjr.errors import IJRError
from indicjr.pytest_plugin.options import usage_error
from indicjr.pytest_plugin.state import get_state, is_worker


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    state = get_state(config)
    if state is None or is_worker(config) or state.options.endpoint.engine != "ray" or config.option.collectonly:
        return
    from indicjr.run.engine import load_case_set, prefill_with_ray
    from indicjr.scale.ray_engine import RayInterrupted, print_stats

    try:
        cases = load_case_set(state.options.selection, root=state.root).cases
        stats = prefill_with_ray(cases, state.options)
    except IJRError as exc:
        raise usage_error(exc, state.options.outputs.debug) from None
    except RayInterrupted as exc:
        print_stats(exc.stats, stream=sys.stderr)
        raise pytest.exit("interrupted during ray generation: rerun the same command to resume", returncode=2) from None
    print_stats(stats, stream=sys.stderr)
    collector = config.pluginmanager.get_plugin("indicjr-results")
    if collector is not None:
        numbers = {k: v for k, v in stats.to_dict().items() if not isinstance(v, bool)}
        collector.add_generation({"ray": numbers})
