"""Render docs/advisors.md from the rule registry (a test keeps the checked-in file fresh)."""

from __future__ import annotations

import inspect

from advisor.advisors import ADVISOR_MODULES, all_rules


def render_advisors_markdown() -> str:
    """One section per advisor, one entry per rule: id, severity, versions, doc, references."""
    lines = [
        "# Advisors and their rules",
        "",
        "Generated from the rule registry by `python -m advisor.docs > docs/advisors.md`; do not edit.",
        "",
        "A rule with `needs` cannot judge without that input. When the input is missing and the rule",
        "found nothing, the audit reports it as not run: one `inputs.missing` info finding per missing",
        "input, naming the rules held back and the flag that provides the input (advisor/derived/inputs.py).",
        "",
    ]
    rules = all_rules()
    for advisor in ADVISOR_MODULES:
        lines += [f"## {advisor}", ""]
        for item in (r for r in rules if r.advisor == advisor):
            lines += [
                f"### `{item.id}`",
                "",
                f"- severity: {item.severity.value}",
                f"- versions: {item.versions.describe()}",
                *(
                    [f"- needs: {', '.join(item.needs)} (without it: an `inputs.missing` info finding)"]
                    if item.needs
                    else []
                ),
                "",
                inspect.cleandoc(item.doc),
                "",
                "References:",
                "",
                *[f"- {ref}" for ref in item.references],
                "",
            ]
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    import sys

    sys.stdout.write(render_advisors_markdown())
