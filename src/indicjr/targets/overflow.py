"""Context overflow: a prompt longer than the model's context, in each server's own words.

Indic prompts fragment into many tokens (the paper's E6), so a small-context model meets prompts it cannot
read at all. Retrying such a prompt fails the same way every time, and counting it as an inference error
would drop it from the denominators without a word. The targets turn these answers into ContextOverflow
(targets/base.py); the runner records them as finish_reason "context_overflow".

What each server answers (quoted from its source; the fake server replays them, testing/fake_shapes.py):

    llama.cpp llama-server  400 {"error": {"code": 400, "type": "exceed_context_size_error", "message":
                            "request (N tokens) exceeds the available context size (M tokens), try
                            increasing it", "n_prompt_tokens": N, "n_ctx": M}}   (tools/server/server-
                            context.cpp, server-common.cpp format_error_response; also "input (N tokens) is
                            larger than the max context size (M tokens). skipping")
    llama-cpp-python server 400 {"error": {"message": "This model's maximum context length is M tokens.
                            However, you requested T tokens (N in the messages, C in the completion). ...",
                            "type": "invalid_request_error", "param": "messages", "code":
                            "context_length_exceeded"}}   (llama_cpp/server/errors.py, from the ValueError
                            "Requested tokens (N) exceed context window of M" in llama_cpp/llama.py);
                            and 500 "llama_decode returned 1" (llama_cpp/_internals.py) when the KV cache
                            fills — llama.h: "1 - could not find a KV slot for the batch (try reducing the
                            size of the batch or increase the context)"
    vLLM                    400 {"error": {"message": "This model's maximum context length is M tokens.
                            However, your request has N input tokens. ...", "type": "BadRequestError",
                            "param": "input_tokens", "code": 400}}   (older releases: the same words at the
                            top level with "object": "error")
    TGI                     422 {"error": "Input validation error: `inputs` tokens + `max_new_tokens` must
                            be <= M. Given: N `inputs` tokens and C `max_new_tokens`", "error_type":
                            "validation"}   (router/src/validation.rs MaxTotalTokens; InputLength: "`inputs`
                            must have less than M tokens. Given: N")
    OpenAI                  400 {"error": {"message": "This model's maximum context length is M tokens.
                            However, your messages resulted in N tokens. Please reduce the length of the
                            messages.", "type": "invalid_request_error", "param": "messages", "code":
                            "context_length_exceeded"}}
"""

from __future__ import annotations

import json

# Lower-cased words that only a context overflow produces (a parameter error never says them).
OVERFLOW_WORDS = (
    "exceed_context_size_error",
    "exceeds the available context size",
    "larger than the max context size",
    "context_length_exceeded",
    "maximum context length is",
    "exceed context window of",
    "`inputs` tokens + `max_new_tokens` must be <=",
    "`inputs` must have less than",
)
CLIENT_STATUSES = frozenset({400, 413, 422})
KV_CACHE_FULL = "llama_decode returned 1"  # llama-cpp-python's 500 when the context fills mid-answer


def context_overflow(status: int, body: bytes) -> str | None:
    """The server's message (one line, at most 300 characters) when `status` and `body` say the prompt
    does not fit the model's context; None for every other answer."""
    text = body[:4000].decode("utf-8", "replace")
    lowered = text.lower()
    if status in CLIENT_STATUSES and any(w in lowered for w in OVERFLOW_WORDS):
        return _message(text)
    if status >= 500 and KV_CACHE_FULL in lowered:
        return _message(text)
    return None


def _message(text: str) -> str:
    """error.message (or a top-level message / error string) from a JSON body, else the body itself."""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    found: object = text
    if isinstance(data, dict):
        err = data.get("error")
        if isinstance(err, dict) and isinstance(err.get("message"), str):
            found = err["message"]
        elif isinstance(err, str):
            found = err
        elif isinstance(data.get("message"), str):
            found = data["message"]
    return " ".join(str(found).split())[:300]
