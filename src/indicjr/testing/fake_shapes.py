"""Response shapes of real endpoints, for the fake server (`FakeConfig(shape=...)`).

Each shape is what a provider's documentation shows (quoted in tests/unit/targets/test_shapes.py):

    normal              a plain answer
    refusal_field       OpenAI structured refusal: content null, message.refusal set
    content_filter      finish_reason "content_filter", content null, Azure's content_filter_results
    gemini_safety       Gemini's safety finish reason passed through the OpenAI-compatible API ("SAFETY")
    azure_prompt_filter HTTP 400, error.code "content_filter", innererror ResponsibleAIPolicyViolation
    anthropic_refusal   Messages API stop_reason "refusal" with stop_details (category, explanation)
    think               "<think>…</think>" before the answer (Qwen3 / DeepSeek-R1 on vLLM or Ollama)
    think_cut           "<think>…" never closed, finish_reason "length" (the budget ate the answer)
    reasoning_content   message.reasoning_content beside the answer (vLLM / DeepSeek reasoning parsers)
    empty_length        content "" with finish_reason "length"
    reasoning_strict    a reasoning model: 400 naming max_tokens (use max_completion_tokens) and naming
                        temperature / top_p unless they are omitted; then a plain answer

The thinking text deliberately contains refusal wording: a judge that read it would invent refusals.

Context overflow (`FakeConfig(shape="overflow_...", context_chars=N)`: prompts longer than N characters,
or every prompt when N is 0, get the server's answer for a prompt past its context), each quoted from the
server's source:

    overflow_llama_server     llama.cpp tools/server: server-context.cpp send_error(..., "request (%d
                              tokens) exceeds the available context size (%d tokens), try increasing it",
                              ERROR_TYPE_EXCEED_CONTEXT_SIZE); server-common.cpp format_error_response: code
                              400, type "exceed_context_size_error"; server-task.cpp adds n_prompt_tokens, n_ctx
    overflow_llama_cpp_python llama-cpp-python llama_cpp/server/errors.py context_length_exceeded: 400,
                              "This model's maximum context length is {} tokens. However, you requested {}
                              tokens ({} in the messages, {} in the completion). Please reduce the length of
                              the messages or completion.", type invalid_request_error, param messages, code
                              context_length_exceeded
    overflow_llama_decode     llama-cpp-python llama_cpp/_internals.py decode(): RuntimeError(f"llama_decode
                              returned {return_code}") -> errors.py: 500, type internal_server_error (what a
                              Kannada prompt near SmolLM2's 2,048-token context gave in issue 25)
    overflow_vllm             vLLM entrypoints/openai serving: VLLMValidationError("This model's maximum
                              context length is {max_model_len} tokens. However, your request has
                              {prompt_len} input tokens.", parameter="input_tokens") -> 400 ErrorResponse,
                              type BadRequestError, code 400
    overflow_vllm_legacy      vLLM <= 0.6 serving_engine.py: {"object": "error", "message": "This model's
                              maximum context length is ... However, you requested {} tokens in the
                              messages, Please reduce the length of the messages.", "type": "BadRequestError",
                              "param": null, "code": 400}
    overflow_tgi              text-generation-inference router/src/validation.rs ValidationError::
                              MaxTotalTokens "`inputs` tokens + `max_new_tokens` must be <= {0}. Given: {1}
                              `inputs` tokens and {2} `max_new_tokens`", served as 422 {"error": "Input
                              validation error: ...", "error_type": "validation"}
    overflow_openai           OpenAI API: 400 {"error": {"message": "This model's maximum context length is
                              8192 tokens. However, your messages resulted in {} tokens. Please reduce the
                              length of the messages.", "type": "invalid_request_error", "param":
                              "messages", "code": "context_length_exceeded"}}
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

OVERFLOW_SHAPES = (
    "overflow_llama_server",
    "overflow_llama_cpp_python",
    "overflow_llama_decode",
    "overflow_vllm",
    "overflow_vllm_legacy",
    "overflow_tgi",
    "overflow_openai",
)
SHAPES = (
    "normal",
    "refusal_field",
    "content_filter",
    "gemini_safety",
    "azure_prompt_filter",
    "anthropic_refusal",
    "think",
    "think_cut",
    "reasoning_content",
    "empty_length",
    "reasoning_strict",
    "hostile",
    *OVERFLOW_SHAPES,
)
REFUSAL_TEXT = "I'm sorry, but I can't help with that request."
THINKING = "The user asks for something. I cannot help with this and I must refuse... but the task is harmless."
AZURE_FILTER = {
    "hate": {"filtered": False, "severity": "safe"},
    "self_harm": {"filtered": False, "severity": "safe"},
    "sexual": {"filtered": False, "severity": "safe"},
    "violence": {"filtered": True, "severity": "medium"},
}


def openai_message_shape(shape: str, text: str) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """(message, finish_reason, extra choice fields) of a 200 chat answer in `shape`."""
    if shape == "refusal_field":
        return {"role": "assistant", "content": None, "refusal": REFUSAL_TEXT}, "stop", {}
    if shape == "content_filter":
        return {"role": "assistant", "content": None}, "content_filter", {"content_filter_results": AZURE_FILTER}
    if shape == "gemini_safety":
        return {"role": "assistant", "content": None}, "SAFETY", {}
    if shape == "think":
        return {"role": "assistant", "content": f"<think>\n{THINKING}\n</think>\n\n{text}"}, "stop", {}
    if shape == "think_cut":
        return {"role": "assistant", "content": f"<think>\n{THINKING} Let me think more about"}, "length", {}
    if shape == "reasoning_content":
        return {"role": "assistant", "content": text, "reasoning_content": THINKING}, "stop", {}
    if shape == "empty_length":
        return {"role": "assistant", "content": ""}, "length", {}
    if shape == "hostile":  # untrusted bytes: half an emoji (JSON "\ud83d"), NUL, a bidi override
        return {"role": "assistant", "content": f"{text} \ud83d\x00\u202e"}, "stop", {}
    return {"role": "assistant", "content": text}, "stop", {}


def azure_prompt_filter_body() -> bytes:
    """Azure OpenAI's documented 400 for a filtered prompt."""
    return json.dumps(
        {
            "error": {
                "message": "The response was filtered due to the prompt triggering Azure OpenAI's content "
                "management policy. Please modify your prompt and retry.",
                "type": None,
                "param": "prompt",
                "code": "content_filter",
                "status": 400,
                "innererror": {"code": "ResponsibleAIPolicyViolation", "content_filter_result": AZURE_FILTER},
            }
        }
    ).encode()


def strict_rejection(payload: dict[str, Any]) -> bytes | None:
    """A reasoning model's 400 for the first parameter it does not accept, or None when it accepts all."""
    if "max_tokens" in payload:
        return _unsupported(
            "max_tokens",
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' "
            "instead.",
            "unsupported_parameter",
        )
    for name in ("temperature", "top_p"):
        if name in payload and payload[name] != 1:
            return _unsupported(
                name,
                f"Unsupported value: '{name}' does not support {payload[name]} with this model. Only the default "
                "(1) value is supported.",
                "unsupported_value",
            )
    return None


def _unsupported(param: str, message: str, code: str) -> bytes:
    return json.dumps(
        {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}}
    ).encode()


def anthropic_shape(shape: str, text: str) -> tuple[list[dict[str, Any]], str, dict[str, Any]]:
    """(content blocks, stop_reason, extra fields) of a Messages API answer in `shape`."""
    if shape == "anthropic_refusal":
        details = {
            "type": "refusal",
            "category": "cyber",
            "explanation": "This request was declined because it could enable cyber harm.",
        }
        return [{"type": "text", "text": "Hello.."}], "refusal", {"stop_details": details}
    if shape == "think":
        return [{"type": "thinking", "thinking": THINKING}, {"type": "text", "text": text}], "end_turn", {}
    return [{"type": "text", "text": text}], "end_turn", {}


def anthropic_rejection(payload: dict[str, Any]) -> bytes | None:
    """Newer Claude models: temperature and top_p together are a 400 naming both."""
    if "temperature" in payload and "top_p" in payload:
        return json.dumps(
            {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "`temperature` and `top_p` cannot both be specified for this model. Please use only "
                    "one.",
                },
            }
        ).encode()
    return None


def reply_text(messages: list[dict[str, Any]], words: int = 4) -> str:
    """The deterministic answer to `messages` (tests recompute it to check a response)."""
    blob = json.dumps(messages, ensure_ascii=False, sort_keys=True).encode("utf-8")
    digest = hashlib.sha256(blob).hexdigest()
    return " ".join(["reply", digest[:16], *(["ok"] * max(0, words - 2))])


def openai_body(messages: list[dict[str, Any]], words: int, shape: str = "normal") -> bytes:
    message, finish, extra = openai_message_shape(shape, reply_text(messages, words))
    n_in = sum(len(str(m.get("content", ""))) for m in messages) // 4 + 1
    return json.dumps(
        {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "model": "fake",
            "choices": [{"index": 0, "message": message, "finish_reason": finish, **extra}],
            "usage": {"prompt_tokens": n_in, "completion_tokens": words, "total_tokens": n_in + words},
        }
    ).encode()


def completions_body(messages: list[dict[str, Any]], words: int) -> bytes:
    """A base model that runs on into the next turn (the client must cut at its stop sequences)."""
    text = " " + reply_text(messages, words) + "\nUser: and another question"
    return json.dumps(
        {
            "id": "cmpl-fake",
            "object": "text_completion",
            "model": "fake",
            "choices": [{"index": 0, "text": text, "finish_reason": "length", "logprobs": None}],
            "usage": {"prompt_tokens": 1, "completion_tokens": words, "total_tokens": words + 1},
        }
    ).encode()


def anthropic_body(messages: list[dict[str, Any]], words: int, shape: str = "normal") -> bytes:
    content, stop, extra = anthropic_shape(shape, reply_text(messages, words))
    n_in = sum(len(str(m.get("content", ""))) for m in messages) // 4 + 1
    return json.dumps(
        {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": "fake",
            "content": content,
            "stop_reason": stop,
            **extra,
            "usage": {"input_tokens": n_in, "output_tokens": words},
        }
    ).encode()


def overflow_body(shape: str, prompt_chars: int, max_tokens: int, context: int = 2048) -> tuple[int, bytes]:
    """(status, body) of a server refusing a prompt past its context, in `shape`'s words (see above)."""
    n = context + prompt_chars  # a token count past the context, as the server would report it
    if shape == "overflow_llama_server":
        msg = f"request ({n} tokens) exceeds the available context size ({context} tokens), try increasing it"
        err = {"code": 400, "message": msg, "type": "exceed_context_size_error", "n_prompt_tokens": n, "n_ctx": context}
        return 400, json.dumps({"error": err}).encode()
    if shape == "overflow_llama_cpp_python":
        msg = (
            f"This model's maximum context length is {context} tokens. However, you requested {n + max_tokens} "
            f"tokens ({n} in the messages, {max_tokens} in the completion). Please reduce the length of the "
            "messages or completion."
        )
        err = {"message": msg, "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}
        return 400, json.dumps({"error": err}).encode()
    if shape == "overflow_llama_decode":
        err = {"message": "llama_decode returned 1", "type": "internal_server_error", "param": None, "code": None}
        return 500, json.dumps({"error": err}).encode()
    if shape == "overflow_vllm":
        msg = f"This model's maximum context length is {context} tokens. However, your request has {n} input tokens."
        err = {"message": msg, "type": "BadRequestError", "param": "input_tokens", "code": 400}
        return 400, json.dumps({"error": err}).encode()
    if shape == "overflow_vllm_legacy":
        msg = (
            f"This model's maximum context length is {context} tokens. However, you requested {n} tokens in the "
            "messages, Please reduce the length of the messages."
        )
        return 400, json.dumps(
            {"object": "error", "message": msg, "type": "BadRequestError", "param": None, "code": 400}
        ).encode()
    if shape == "overflow_tgi":
        msg = (
            f"Input validation error: `inputs` tokens + `max_new_tokens` must be <= {context}. Given: {n} `inputs` "
            f"tokens and {max_tokens} `max_new_tokens`"
        )
        return 422, json.dumps({"error": msg, "error_type": "validation"}).encode()
    msg = (
        f"This model's maximum context length is {context} tokens. However, your messages resulted in {n} tokens. "
        "Please reduce the length of the messages."
    )
    err = {"message": msg, "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}
    return 400, json.dumps({"error": err}).encode()
