"""Property test: for generated option files and change sets, the real `patch` turns the original into
exactly the recommended file, and only the changed lines differ."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.differ import render_changes
from advisor.findings import Finding
from advisor.inputs.optionfiles import parse_option_file
from tests.advisor.inputs.test_optionfiles_properties import VALUES, option_files
from tests.advisor.test_differ import PATCH, context, drop, setting

NEW_NAMES = st.sampled_from(
    ["innodb_buffer_pool_size", "max_connections", "thread_cache_size", "tmp_table_size"]
)


@st.composite
def change_sets(draw: st.DrawFn) -> tuple[str, list[Finding]]:
    text, _ = draw(option_files())
    entries = parse_option_file(text, "my.cnf").entries()
    findings: list[Finding] = []
    for index, entry in enumerate(entries):
        action = draw(st.sampled_from(["keep", "keep", "set", "drop"]))
        if action == "set":
            findings.append(setting(f"r.set{index}", entry.name, draw(VALUES)))
        elif action == "drop":
            findings.append(drop(f"r.drop{index}", "my.cnf", entry.line))
    for index, name in enumerate(draw(st.lists(NEW_NAMES, max_size=3, unique=True))):
        findings.append(setting(f"r.add{index}", name, draw(VALUES)))
    return text, findings


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(change_sets())
def test_patch_applies_every_generated_diff(case: tuple[str, list[Finding]]) -> None:
    """Whatever the file (CRLF, BOM, no final newline, odd quoting) and changes, patch reproduces mycnf."""
    text, findings = case
    diff, mycnf = render_changes(context({"my.cnf": text}), findings)
    if not diff:
        assert mycnf == text
        return
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "my.cnf").write_bytes(text.encode("utf-8"))
        run = subprocess.run(
            [PATCH, "-p1", "--batch", "--silent"], input=diff.encode(), cwd=folder, capture_output=True
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert Path(folder, "my.cnf").read_bytes().decode("utf-8") == mycnf
