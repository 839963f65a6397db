"""Lines the real mariadbd 10.11.19 was asked about (bench/option_oracle.py), replayed without it.

Each case records what the server did — refused to start, disabled a plugin, or accepted (maybe
with a warning or a clamp) — and judge() must say the same. Pure: no server needed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from advisor.optioncheck import Outcome, judge

CASES: list[dict[str, Any]] = json.loads(Path(__file__).with_name("cases.json").read_text())
CLASS = {
    Outcome.ACCEPTS: "accepts", Outcome.CLAMPS: "accepts", Outcome.IGNORES_WITH_WARNING: "accepts",
    Outcome.DISABLES_PLUGIN: "disables_plugin", Outcome.REFUSES_TO_START: "refuses",
}  # fmt: skip


def test_the_kept_cases_cover_every_outcome() -> None:
    """The replayed set holds refusals, plugin losses and acceptances, a few hundred in all."""
    observed = {case["observed"] for case in CASES}
    assert observed == {"refuses", "disables_plugin", "accepts"}
    assert len(CASES) >= 200


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case['name']}={case['value']}")
def test_judge_agrees_with_the_recorded_server(case: dict[str, Any]) -> None:
    """judge() classes the line as the real server did when the case was recorded."""
    verdict = judge(case["name"], case["value"], flavor="mariadb", version="10.11.19")
    assert CLASS[verdict.outcome] == case["observed"], verdict.message
