"""The built-in simulated model: `--model sim:<profile>`, and the embedded default (`sim:reference`).

It needs no network and no weights. Each reply is decided per case from a profile's rates
(profiles/<name>.yaml), seeded by crc32, and worded in the case's language and script from the
simulator's own phrase banks (it never reads the judge's lexicons). Every name it reports says
"simulated". Layout:

    __init__.py     SimTarget, make_sim_target (this file)
    profile.py      profile YAML -> Profile, per-condition rates, exact design marginals
    decide.py       decide(profile, request) -> SimDecision (pure; the branch taken)
    render.py       render(profile, request, decision) -> Response (JSON contracts, FREE prose)
    text.py         phrase banks, answers cut from the prompt, canary obfuscation
    sentences.py    sentence splitting for the phrase banks (abbreviations per script)
    profiles/       the profiles (YAML), phrases/ the phrase banks per language (YAML)
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from indicjr.targets.base import Identity, Request, Response, Settings
from indicjr.targets.sim.decide import SimDecision, decide
from indicjr.targets.sim.profile import PROFILES_DIR, Profile, available_profiles, load_profile
from indicjr.targets.sim.render import render

__all__ = ["DEFAULT_PROFILE", "SimDecision", "SimTarget", "available_profiles", "make_sim_target"]

DEFAULT_PROFILE = "reference"


class SimTarget:
    """A deterministic simulated model following one profile; satisfies the Target protocol."""

    simulated = True

    def __init__(self, *, profile: Profile, settings: Settings | None = None) -> None:
        self.profile = profile
        self.settings = settings or Settings()
        self.name = f"sim:{profile.name}"
        self.display_name = profile.display_name
        self.param_adaptations: tuple[str, ...] = ()

    def store_identity(self) -> Identity:
        """No server and no files: the spec names the profile (the simulator's answers are never stored)."""
        return Identity(endpoint="", fingerprint=None, chat_template="auto")

    def decide(self, request: Request) -> SimDecision:
        """The branch the model takes for `request` (pure; `generate` words exactly this decision)."""
        return decide(self.profile, request)

    def respond(self, request: Request) -> Response:
        """The reply, synchronously (what `generate` returns, without latency)."""
        return render(self.profile, request, decide(self.profile, request))

    async def generate(self, request: Request) -> Response:
        latency_ms = self.profile.style["latency_ms"]
        if latency_ms > 0:
            await asyncio.sleep(latency_ms / 1000)
            r = self.respond(request)
            return Response(
                text=r.text,
                finish_reason=r.finish_reason,
                input_tokens=r.input_tokens,
                output_tokens=r.output_tokens,
                latency_s=latency_ms / 1000,
            )
        return self.respond(request)

    async def aclose(self) -> None:
        return None

    def check(self) -> None:
        """Nothing to reach: the profile was validated when the target was made."""
        return None

    def __repr__(self) -> str:
        return f"SimTarget({self.name!r}, {self.display_name!r})"


def make_sim_target(profile: str, settings: Settings, *, profiles_dir: Path = PROFILES_DIR) -> SimTarget:
    """The target for spec `sim:<profile>` (empty -> the reference profile).

    Raises ConfigError (one line, listing the available profiles) for an unknown name, and
    DataFileError for a malformed profile file.
    """
    return SimTarget(profile=load_profile(profile or DEFAULT_PROFILE, profiles_dir), settings=settings)
