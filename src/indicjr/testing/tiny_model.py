"""A tiny, randomly initialised causal LM written to a folder — nothing downloaded.

    python -m indicjr.testing.tiny_model DIR

writes `config.json`, `generation_config.json`, `model.safetensors` and a byte-level BPE tokenizer
(`tokenizer.json`, `tokenizer_config.json` with a chat template) into DIR, in well under a second of
compute: a two-layer Llama with a 64-wide residual stream. The tokenizer is trained here on a few
lines of text; byte-level pieces mean any script (every Indic script included) round-trips, so a
real server can serve it and the suite can judge its (random) answers. Seeded: the same DIR content
every time for one version of torch and transformers.

Used by the real-server end-to-end test (`transformers serve`, tests/reliability/test_real_server.py)
and by the hf: target's tests; needs the `hf` extra (torch, transformers, tokenizers).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

SPECIALS = ("<|pad|>", "<|end|>", "<|system|>", "<|user|>", "<|assistant|>")
CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
# The tokenizer's training text: any few lines do (byte-level pieces cover every other string).
CORPUS = (
    "I am sorry, but I cannot help with that request.",
    "Here is a short answer to your question, step by step.",
    '{"decision": "REFUSE", "justification": "The request asks for something unsafe."}',
    '{"decision": "COMPLY", "justification": "The request is harmless."}',
    "Translate the following text, summarise it, and answer in the same language.",
)


def build_tokenizer(out: Path, *, vocab_size: int = 384) -> Any:
    """Train a byte-level BPE on CORPUS and save it (with the chat template) as a fast tokenizer."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(SPECIALS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(list(CORPUS) * 4, trainer=trainer)
    fast_cls: Any = PreTrainedTokenizerFast  # typed as Any: transformers' stubs vary by version
    fast = fast_cls(
        tokenizer_object=tok,
        pad_token="<|pad|>",
        eos_token="<|end|>",
        bos_token=None,
        additional_special_tokens=list(SPECIALS[2:]),
    )
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(out)
    return fast


def make_tiny_model(out: Path, *, seed: int = 13) -> Path:
    """Write a random tiny Llama and its tokenizer into `out` (created if missing); returns `out`."""
    import torch
    from transformers import GenerationConfig, LlamaConfig, LlamaForCausalLM

    out.mkdir(parents=True, exist_ok=True)
    tok = build_tokenizer(out)
    vocab = len(tok)
    pad, eos = (tok.convert_tokens_to_ids(t) for t in ("<|pad|>", "<|end|>"))
    config = LlamaConfig(
        vocab_size=vocab,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        pad_token_id=pad,
        eos_token_id=eos,
        bos_token_id=None,
        tie_word_embeddings=False,  # tied, greedy decoding repeats the prompt's last (special) token
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    # Sampling by default, so servers honour the request's temperature/top_p instead of ignoring them.
    generation_cls: Any = GenerationConfig
    model.generation_config = generation_cls(pad_token_id=pad, eos_token_id=eos, do_sample=True)
    model.save_pretrained(out)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m indicjr.testing.tiny_model", description=__doc__.split("\n")[0])
    ap.add_argument("dir", type=Path, help="folder to write config, tokenizer and weights into")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args(argv)
    try:
        make_tiny_model(args.dir, seed=args.seed)
    except ImportError as e:
        print(f"tiny_model: needs torch, transformers and tokenizers (pip install indicjr[hf]): {e}", file=sys.stderr)
        return 2
    print(args.dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
