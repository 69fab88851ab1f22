"""hf: targets with a tiny randomly initialised model and tokenizer built here — no downloads."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicjr.targets.base import Request, Settings
from indicjr.targets.registry import make_target
from indicjr.targets.runner import generate_all
from indicjr.testing.plans import plan_of

TEMPLATE = (
    "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}assistant:{% endif %}"
)


def _tiny_model(path: Path) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    words = ["[UNK]", "[PAD]", "<eos>", "system", "user", "assistant", ":", "be", "brief", "namaste", "hello"]
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", eos_token="<eos>")
    fast.chat_template = TEMPLATE
    fast.save_pretrained(path)
    config = GPT2Config(
        vocab_size=len(words),
        n_positions=64,
        n_embd=16,
        n_layer=1,
        n_head=2,
        bos_token_id=2,
        eos_token_id=2,
        pad_token_id=1,
    )
    GPT2LMHeadModel(config).save_pretrained(path)


def test_hf_target_generates_batched_answers_from_a_local_model(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="hf: targets need the optional extra `pip install indicjr[hf]` (torch)")
    pytest.importorskip("transformers", reason="hf: targets need the optional extra `pip install indicjr[hf]`")
    _tiny_model(tmp_path)
    settings = Settings(max_tokens=5, temperature=0.3, top_p=0.9, seed=13)
    target = make_target(f"hf:{tmp_path}", settings=settings)
    target.check()
    requests = [
        Request(
            case_id=f"c{i}",
            messages=(("system", "be brief"), ("user", "namaste " * (i + 1))),
            settings=settings,
        )
        for i in range(5)
    ]
    result = generate_all(requests, target=target, store=None, model=f"hf:{tmp_path}", plan=plan_of(concurrency=5))
    assert result.stats.n_generated == 5 and result.stats.n_errors == 0
    for r in result.responses.values():
        assert isinstance(r.text, str) and r.output_tokens <= 5 and r.input_tokens > 0
        assert r.finish_reason in ("stop", "length")


def test_hf_without_chat_template_uses_the_plain_prompt_and_the_store_key_follows_the_files(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="hf: targets need the optional extra `pip install indicjr[hf]` (torch)")
    pytest.importorskip("transformers", reason="hf: targets need the optional extra `pip install indicjr[hf]`")
    from indicjr.targets.providers.hf import HFTarget, model_fingerprint
    from indicjr.targets.registry import store_identity
    from indicjr.testing.tiny_model import make_tiny_model

    model = make_tiny_model(tmp_path / "tiny")
    settings = Settings(max_tokens=12, temperature=0.3, top_p=0.9, seed=13)
    plain = make_target(f"hf:{model}", settings=settings, chat_template="none")
    templated = make_target(f"hf:{model}", settings=settings)
    plain.check()
    templated.check()
    assert isinstance(plain, HFTarget) and isinstance(templated, HFTarget)
    assert plain.plain is True and templated.plain is False
    requests = [Request(case_id=f"c{i}", messages=(("user", f"question {i}"),), settings=settings) for i in range(3)]
    result = generate_all(requests, target=plain, store=None, model="m", plan=plan_of(concurrency=3))
    assert result.stats.n_errors == 0
    assert all("\nUser:" not in r.text for r in result.responses.values())  # cut at the next turn
    before = store_identity(f"hf:{model}", templated)
    assert store_identity(f"hf:{model}", plain) != before  # another prompt format, other answers
    (model / "generation_config.json").write_text('{"do_sample": false}', encoding="utf-8")
    assert model_fingerprint(str(model)) != templated.fingerprint
    assert store_identity(f"hf:{model}", make_target(f"hf:{model}", settings=settings)) != before
