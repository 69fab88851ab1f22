"""Cases: the benchmark's prompts under their conditions (model, files, building, profiles)."""
