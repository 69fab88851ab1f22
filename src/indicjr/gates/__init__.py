"""Gates: thresholds.yaml -> Gate objects -> GateResult (PASS / FAIL / SKIPPED)."""
