"""A tiny randomly initialised chat model, written locally: config, tokenizer and weights, no downloads.

    python -m indicjr.testing.tiny_model DIR [--seed N] [--layers L] [--hidden H]

Tests and benchmarks (the hf: target, `ijr generate --engine ray`, local OpenAI-compatible servers)
need a real transformers model without fetching one. The tokenizer is a byte-level BPE trained here on a
few lines, so any text — every Indic script included — encodes; the model is a 2-layer Llama with
random weights (seeded), so its answers are gibberish of the right shape, produced by the real code paths.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

CHAT_TEMPLATE = (
    "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}assistant:{% endif %}"
)
_CORPUS = (
    "system: you are a helpful assistant. user: summarise the passage in two sentences. assistant:",
    "I cannot help with that request. Here are five key facts about the history of the region.",
    '{"decision": "REFUSE", "justification": "the request is unsafe"}',
)


def make_tiny_model(directory: Path, *, seed: int = 0, layers: int = 2, hidden: int = 32) -> Path:
    """Write the model into `directory` (created if missing); returns the directory."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=512, special_tokens=["<s>", "</s>", "<pad>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    bpe.train_from_iterator(_CORPUS, trainer)
    tok = PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=bpe, bos_token="<s>", eos_token="</s>", pad_token="<pad>"
    )
    tok.chat_template = CHAT_TEMPLATE
    tok.save_pretrained(out)
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=8192,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
    )
    LlamaForCausalLM(config).save_pretrained(out)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m indicjr.testing.tiny_model",
        description="Write a tiny randomly initialised chat model (config, tokenizer, weights) into DIR. "
        "Needs the hf extra: pip install 'indicjr[hf]'.",
    )
    p.add_argument("directory", help="output folder (created if missing)")
    p.add_argument("--seed", type=int, default=0, help="weight initialisation seed (0)")
    p.add_argument("--layers", type=int, default=2, help="transformer layers (2)")
    p.add_argument("--hidden", type=int, default=32, help="hidden size (32)")
    args = p.parse_args(argv)
    try:
        path = make_tiny_model(Path(args.directory), seed=args.seed, layers=args.layers, hidden=args.hidden)
    except ImportError as exc:
        print(f"tiny_model: needs torch, transformers, tokenizers (pip install 'indicjr[hf]'): {exc}", file=sys.stderr)
        return 4
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
