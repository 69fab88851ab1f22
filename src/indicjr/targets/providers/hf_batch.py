"""One batch of chat requests through a local transformers causal LM: the code every hf: path shares.

The in-process `hf:` target (targets/providers/hf.py) and the Ray replicas (scale/replica.py) both call
`HFGenerator.generate_batch`, so an answer does not depend on which engine produced it beyond the
batch composition (sampling is seeded per batch with settings.seed). torch and transformers are
imported here only, lazily, and only when a model is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from indicjr.errors import ConfigError
from indicjr.targets.base import Request, Response, Settings
from indicjr.targets.providers import plain_prompt
from indicjr.targets.providers.shapes import split_reasoning


class HFGenerator:
    """Loads the model lazily (load() or the first batch); left-pads batches of one settings value."""

    def __init__(self, *, path: str, name: str, device: str | None = None, chat_template: str = "auto") -> None:
        self.path = path
        self.name = name
        self.chat_template = chat_template
        self._device = device
        self._model: Any = None
        self._tok: Any = None

    def load(self) -> None:
        if self._model is not None:
            return
        from transformers import AutoModelForCausalLM, AutoTokenizer

        try:
            tok = AutoTokenizer.from_pretrained(self.path)
            # Typed as Any: transformers' stubs vary by version (and are absent without the extra).
            model: Any = AutoModelForCausalLM.from_pretrained(self.path)
        except (OSError, ValueError) as e:
            raise ConfigError(f"{self.name}: cannot load model: {' '.join(str(e).split())[:200]}") from None
        tok.padding_side = "left"  # decoder-only batches must be left-padded
        if tok.pad_token is None:
            tok.pad_token = tok.eos_token
        if self._device:
            model.to(self._device)
        model.eval()
        self._tok, self._model = tok, model

    @property
    def plain(self) -> bool:
        """True when prompts use the plain format (no chat template, by choice or for lack of one)."""
        return self.chat_template == "none" or not getattr(self._tok, "chat_template", None)

    def prompt(self, request: Request) -> str:
        if self.plain:
            return plain_prompt.render(request.messages)
        messages = [{"role": r, "content": c} for r, c in request.messages]
        return str(self._tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))

    def generate_batch(self, requests: Sequence[Request]) -> list[Response]:
        """One response per request, in order. All requests must share one Settings value."""
        import torch

        self.load()
        s: Settings = requests[0].settings
        if any(r.settings != s for r in requests):
            raise ValueError("generate_batch: requests in one batch must share their settings")
        enc = self._tok(
            [self.prompt(r) for r in requests], return_tensors="pt", padding=True, add_special_tokens=False
        ).to(self._model.device)
        torch.manual_seed(s.seed)
        sampling = (
            {"do_sample": True, "temperature": s.temperature, "top_p": s.top_p}
            if s.temperature > 0
            else {"do_sample": False}
        )  # greedy: passing temperature/top_p would only draw warnings
        with torch.no_grad():
            out = self._model.generate(
                **enc, **sampling, max_new_tokens=s.max_tokens, pad_token_id=self._tok.pad_token_id
            )
        n_in = enc["input_ids"].shape[1]
        return [
            self._response(row[n_in:], int(mask.sum()), s.max_tokens)
            for row, mask in zip(out, enc["attention_mask"], strict=True)
        ]

    def _response(self, generated: Any, tokens_in: int, max_tokens: int) -> Response:
        ids = generated.tolist()
        eos = self._tok.eos_token_id
        stopped = eos is not None and eos in ids
        if stopped:
            ids = ids[: ids.index(eos)]
        text = self._tok.decode(ids, skip_special_tokens=True)
        if self.plain:
            text, cut = plain_prompt.cut_at_stop(text)
            stopped = stopped or cut
        answer, reasoning = split_reasoning(text)
        finish = "stop" if stopped or len(ids) < max_tokens else "length"
        return Response(
            text=answer, finish_reason=finish, input_tokens=tokens_in, output_tokens=len(ids), reasoning=reasoning
        )
