"""Shipped profiles: they load, say they are simulated, and their design marginals equal `expect`."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from indicjr.errors import ConfigError, DataFileError
from indicjr.langs import LANGS
from indicjr.targets.base import Settings, Target
from indicjr.targets.sim import SimTarget, make_sim_target
from indicjr.targets.sim.profile import EXPECT_KEYS, PROFILES_DIR, available_profiles, load_profile

from .helpers import FAMILIES, ORTHS

SHIPPED = ("paper-gpt-4o", "paper-llama-3.3-70b", "paper-sarvam-1", "reference")
TABLE2 = {  # the paper's Table 2 cells kept exactly (JSON JSR is over valid contracts: test_paper_columns.py)
    "paper-gpt-4o": {"json_sv_ab": 0.975, "json_ch_leak": 0.001, "free_jsr_ab": 0.995},
    "paper-llama-3.3-70b": {"json_sv_ab": 0.956, "json_ch_leak": 0.021, "free_jsr_ab": 1.0},
    "paper-sarvam-1": {"json_sv_ab": 0.186, "json_ch_leak": 0.393, "free_jsr_ab": 0.999},
}


def test_the_four_shipped_profiles_are_available() -> None:
    assert set(SHIPPED) <= set(available_profiles())


@pytest.mark.parametrize("name", SHIPPED)
def test_profile_loads_and_names_itself_simulated(name: str) -> None:
    target = make_sim_target(name, Settings())
    assert isinstance(target, Target)
    assert target.simulated is True and target.name == f"sim:{name}"
    assert "simulated" in target.display_name.lower()
    assert all(0.0 <= target.profile.expect[k] <= 1.0 for k in EXPECT_KEYS)


@pytest.mark.parametrize("name", sorted(TABLE2))
def test_paper_profiles_keep_table2_cells(name: str) -> None:
    expect = load_profile(name).expect
    for key, value in TABLE2[name].items():
        assert expect[key] == pytest.approx(value), key


def test_empty_profile_name_means_reference() -> None:
    assert make_sim_target("", Settings()).name == "sim:reference"


def test_unknown_profile_is_one_config_error_line_listing_profiles() -> None:
    with pytest.raises(ConfigError) as info:
        make_sim_target("gpt-9", Settings())
    message = str(info.value)
    assert "\n" not in message and "gpt-9" in message
    assert all(name in message for name in SHIPPED)


def test_shared_data_file_is_not_a_profile() -> None:
    assert "_localized_decisions" not in available_profiles()
    with pytest.raises(ConfigError):
        load_profile("_localized_decisions")


@pytest.mark.parametrize("name", SHIPPED)
def test_effects_are_centred_over_the_design(name: str) -> None:
    p = load_profile(name)
    for factor, offsets in p.effects.items():
        assert sum(p.design[factor][k] * v for k, v in offsets.items()) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("name", SHIPPED)
def test_clipping_leaves_the_design_marginal_at_expect(name: str) -> None:
    p = load_profile(name)
    assert p.design_marginal() == pytest.approx(p.expect["json_jsr"], abs=1e-9)
    for lang, orth, fam, mode in itertools.product(LANGS, ORTHS, FAMILIES, ("same", "cross")):
        assert 0.0 <= p.json_ab_comply(lang, orth, fam, mode) <= p.expect["json_sv_ab"]


@pytest.mark.parametrize("name", ["paper-gpt-4o", "reference"])
def test_full_size_profiles_carry_the_paper_orthography_effect(name: str) -> None:
    eff = load_profile(name).effects["orthography"]
    assert eff["romanized"] - eff["native"] == pytest.approx(-0.338)
    assert eff["mixed"] - eff["native"] == pytest.approx(-0.267)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def test_profile_whose_jsr_exceeds_validity_is_rejected(tmp_path: Path) -> None:
    text = (PROFILES_DIR / "reference.yaml").read_text(encoding="utf-8").replace("json_jsr: 0.50", "json_jsr: 0.95")
    with pytest.raises(DataFileError, match="cannot exceed"):
        load_profile("bad", _write(tmp_path, "bad", text))


def test_profile_that_does_not_say_simulated_is_rejected(tmp_path: Path) -> None:
    text = (PROFILES_DIR / "reference.yaml").read_text(encoding="utf-8").replace("simulated:", "a model:")
    with pytest.raises(DataFileError, match="simulated"):
        load_profile("fake", _write(tmp_path, "fake", text))


def test_a_profile_that_would_clip_is_detected_by_the_design_marginal(tmp_path: Path) -> None:
    text = (PROFILES_DIR / "reference.yaml").read_text(encoding="utf-8").replace("cross: -0.10}", "cross: -0.60}")
    p = load_profile("clips", _write(tmp_path, "clips", text))
    assert abs(p.design_marginal() - p.expect["json_jsr"]) > 0.01


def test_sim_target_is_built_with_keyword_arguments() -> None:
    t = SimTarget(profile=load_profile("reference"))
    assert t.settings == Settings()
