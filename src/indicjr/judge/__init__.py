"""The deterministic judge: contract parser, refusal detector, leakage and script checks, verdicts."""
