"""The providers behind `--model` schemes (registered in targets/registry.py) and the helpers they share.

    openai.py        openai: and openai-completions: (an OpenAI-compatible server)
    anthropic.py     anthropic: (the Messages API)
    hf.py            hf: (a local transformers model), batching over hf_batch.py (shared with scale/)
    replay.py        replay: (a previous run's answers)
    http.py          what the HTTP providers share: transport, status -> error mapping, JSON, JSONEndpoint
    shapes.py        response shapes (provider blocks, reasoning) read into one Reading
    plain_prompt.py  the plain-text prompt of base models (openai-completions:, hf: without a template)

A provider imports these helpers and the generation machinery (targets/*.py), never another provider
(tests/unit/targets/test_layout.py); the simulator lives apart, in targets/sim/.
"""
