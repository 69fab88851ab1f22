"""Generation parameters that adapt once, visibly, when an endpoint rejects one by name.

Reasoning models answer `max_tokens` with a 400 naming it ("use max_completion_tokens"), and reject
`temperature` / `top_p` other than the default; some Anthropic models reject `temperature` and `top_p`
together. The adapter reads the 400, renames or omits the parameter it names for the rest of the run,
and the target retries that request at once. Each change is recorded (`summary.json`
`generation.param_adaptations`); the recorded settings keep the requested values, and the store key
does not change (the same request, sent in the form the endpoint accepts).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping
from typing import Any

RENAMES = {"max_tokens": "max_completion_tokens"}
# Checked in this order when a message names several (Anthropic's "temperature and top_p cannot both
# be specified"): top_p goes first, the paper's temperature is kept as long as possible.
OMITTABLE = ("top_p", "seed", "temperature")


class ParamAdapter:
    """Renames and omissions learned from 400s; shared by every request of one target."""

    def __init__(self, *, renames: Mapping[str, str] | None = None, omittable: tuple[str, ...] = OMITTABLE) -> None:
        self._renames_known = dict(RENAMES if renames is None else renames)
        self._omittable = omittable
        self._renamed: dict[str, str] = {}
        self._omitted: set[str] = set()
        self._log: list[str] = []
        self._lock = threading.Lock()

    @property
    def adaptations(self) -> tuple[str, ...]:
        """What changed, in the order learned: 'max_tokens -> max_completion_tokens', 'temperature omitted'."""
        return tuple(self._log)

    def apply(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in payload.items():
            if k in self._omitted:
                continue
            out[self._renamed.get(k, k)] = v
        return out

    def learn(self, status: int, body: bytes, sent: Mapping[str, Any]) -> bool:
        """True when this 400 names a parameter we sent and can adapt (the request is worth resending)."""
        if status != 400:
            return False
        name = rejected_parameter(body, [k for k in sent if k in self._renames_known or k in self._omittable])
        if name is None:
            return False
        with self._lock:  # another request may have learned it already: then only resend
            if name in self._renamed or name in self._omitted:
                return True
            if name in self._renames_known:
                self._renamed[name] = self._renames_known[name]
                self._log.append(f"{name} -> {self._renames_known[name]}")
            else:
                self._omitted.add(name)
                self._log.append(f"{name} omitted")
        return True


def rejected_parameter(body: bytes, candidates: list[str]) -> str | None:
    """The candidate a 400 body names: its `error.param` first, else the first named in the message."""
    if not candidates:
        return None
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        param = error.get("param")
        if isinstance(param, str) and param in candidates:
            return param
        message = str(error.get("message") or "")
    else:
        message = body[:2000].decode("utf-8", "replace")
    ordered = [c for c in (*RENAMES, *OMITTABLE) if c in candidates]
    for name in ordered:
        if re.search(rf"(?<![A-Za-z_]){re.escape(name)}(?![A-Za-z_])", message):
            return name
    return None
