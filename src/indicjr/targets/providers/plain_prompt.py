"""The one plain-text prompt format for base models (no chat template): `openai-completions:` and
`hf:PATH --ijr-chat-template none`.

    <system text>                       (when the case has one; several are joined by a blank line)

    User: <user message>
    Assistant: <earlier assistant turn>  (multi-turn cases only)
    User: <user message>
    Assistant:

Generation stops at STOP_SEQUENCES (the model starting the next turn itself), which are also cut from
a reply that ran into them. This is how the paper ran Sarvam 1 Base: the case's system and user text
with an answer cue, no chat template (README "Base models").
"""

from __future__ import annotations

from collections.abc import Sequence

ROLE_LABELS = {"user": "User", "assistant": "Assistant"}
STOP_SEQUENCES = ("\nUser:", "\nSystem:", "\n\nUser:")
ANSWER_CUE = "Assistant:"


def render(messages: Sequence[tuple[str, str]]) -> str:
    """The prompt for (role, content) messages, ending with the answer cue."""
    system = "\n\n".join(c.strip() for r, c in messages if r == "system")
    turns = [f"{ROLE_LABELS.get(r, r.title())}: {c.strip()}" for r, c in messages if r != "system"]
    head = f"{system}\n\n" if system else ""
    return head + "\n".join([*turns, ANSWER_CUE])


def cut_at_stop(text: str) -> tuple[str, bool]:
    """(text before the first stop sequence, whether one was found)."""
    cuts = [i for s in STOP_SEQUENCES if (i := text.find(s)) >= 0]
    return (text[: min(cuts)], True) if cuts else (text, False)
