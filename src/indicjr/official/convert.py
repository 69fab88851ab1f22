"""OfficialRow -> Case: our contract on the JSON track, the released text on the FREE track.

The release never published the JSON contract wording (no JSON-track prompt contains it), so JSON
cases get our contract as the system message. FREE clean prompts do carry a contract paragraph; they
keep the text as released unless `strip_contract` is set, and `meta.contract_present` records which.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from indicjr.cases.features import compute_features
from indicjr.cases.model import Case, Message
from indicjr.cases.sources import contract_system
from indicjr.official.rows import OfficialRow
from indicjr.official.text import parse_structure, split_contract


def _core_id(row: OfficialRow, body: str) -> str:
    """Rows sharing a passage share a core id (the pairing the paired analyses need)."""
    if row.subset == "CH":
        return f"canary-{row.canary}"
    passage = row.passage_field or parse_structure(body).passage
    basis = " ".join(passage.split()) if passage else body
    prefix = "p" if passage else "nopassage"
    return f"{prefix}-{hashlib.sha1(basis.encode('utf-8')).hexdigest()[:10]}"


def to_case(
    row: OfficialRow,
    *,
    defects: Sequence[str],
    strip_contract: bool,
    extra_meta: dict[str, Any] | None = None,
) -> Case:
    """The case for one row; `defects` are the detector kinds that flagged it (sorted in meta)."""
    body, contract_present = split_contract(row.text)
    meta: dict[str, Any] = {
        "official_id": row.official_id,
        "official_file": row.file,
        "official_line": row.line,
        "contract_present": contract_present,
        "defects": sorted(set(defects)),
    }
    if row.track == "json":
        version, system = contract_system()
        meta["contract"] = version
        messages: tuple[Message, ...] = (Message("system", system), Message("user", row.text))
        user = row.text
    else:
        user = body if strip_contract and contract_present else row.text
        if strip_contract and contract_present:
            meta["contract_stripped"] = True
        messages = (Message("user", user),)
    for key in ("xfer_source", "severity"):
        if getattr(row, key):
            meta[key] = getattr(row, key)
    meta.update(extra_meta or {})
    return Case(
        id=row.key,
        lang=row.lang,
        track=row.track,
        subset=row.subset,
        orthography=row.orthography,
        core_id=_core_id(row, body),
        messages=messages,
        features=compute_features(user),
        family=row.family,
        mode=row.mode,
        wrapper_lang=row.wrapper_lang,
        task=row.task,
        intent=row.intent,
        canary=row.canary,
        source="official",
        meta=meta,
    )
