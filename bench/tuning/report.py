"""Figures of the tuning-gain bench: medians, ratios, targets, bench/results/tuning_gain.json and the
table in docs/tuning-gain.md (regenerated from the JSON, every workload measured so far)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results" / "tuning_gain.json"
AB_RESULTS = ROOT / "bench" / "results" / "tuning_ab.json"
DOC = ROOT / "docs" / "tuning-gain.md"
PAIRS = {"production/expert": ("production", "expert"), "ci/relaxed": ("ci", "relaxed")}
LABELS = {
    "default": "Debian default (collected base)",
    "production": "ours, --profile production",
    "ci": "ours, --profile ci",
    "expert": "expert hand-tuned (bench/reference/expert.cnf)",
    "relaxed": "expert, relaxed durability (bench/reference/expert-relaxed.cnf)",
}


def summarise(runs: list[dict[str, float]]) -> dict[str, Any]:
    """Median TPS and p95 over the rounds, and the spread (max-min)/median as a noise figure."""
    if not runs:
        return {"median_tps": None, "median_p95_ms": None, "spread": None}
    tps = [run["tps"] for run in runs]
    median = statistics.median(tps)
    return {
        "median_tps": round(median, 1),
        "median_p95_ms": round(statistics.median(run["p95_ms"] for run in runs), 2),
        "spread": round((max(tps) - min(tps)) / median, 3) if median else None,
    }


def ratios(configs: dict[str, dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    out: dict[str, dict[str, float | None]] = {}
    for label, (ours, ref) in PAIRS.items():
        a, b = configs.get(ours, {}), configs.get(ref, {})
        tps = a.get("median_tps") / b["median_tps"] if a.get("median_tps") and b.get("median_tps") else None
        p95 = (
            a.get("median_p95_ms") / b["median_p95_ms"]
            if a.get("median_p95_ms") and b.get("median_p95_ms")
            else None
        )
        out[label] = {"tps": round(tps, 3) if tps else None, "p95": round(p95, 3) if p95 else None}
    return out


def targets(ratio: dict[str, dict[str, float | None]]) -> dict[str, bool | None]:
    """production ≥ 100% of expert TPS; ci ≥ relaxed TPS (None when not measured)."""
    return {
        label: (value["tps"] >= 1.0 if value["tps"] is not None else None) for label, value in ratio.items()
    }


def paired(runs: dict[str, list[dict[str, float]]]) -> dict[str, dict[str, float] | None]:
    """Per pair, the TPS ratio of each round (both configurations ran in the same round, minutes apart, so
    slow drift of the shared machine cancels): the median, lowest and highest. A pair whose ratios span
    1.0 is not told apart by this run."""
    out: dict[str, dict[str, float] | None] = {}
    for label, (ours, ref) in PAIRS.items():
        a, b = runs.get(ours) or [], runs.get(ref) or []
        each = [x["tps"] / y["tps"] for x, y in zip(a, b, strict=False) if y["tps"]]
        out[label] = (
            {
                "median": round(statistics.median(each), 3),
                "low": round(min(each), 3),
                "high": round(max(each), 3),
            }
            if each
            else None
        )
    return out


#: Variables that differ between two starts of one configuration (positions, counters), not settings.
_VOLATILE = ("gtid_", "log_bin_basename", "log_bin_index", "relay_log_basename", "relay_log_index")


def differences(variables: dict[str, dict[str, str]]) -> dict[str, dict[str, list[str]]]:
    """Per pair, every global variable whose value differs between the two configurations as they ran
    (name → [ours, reference]): an empty map means the server ran the same settings under both, and the
    ratio measures only the machine's noise."""
    out: dict[str, dict[str, list[str]]] = {}
    for label, (ours, ref) in PAIRS.items():
        a, b = variables.get(ours), variables.get(ref)
        if a is None or b is None:
            continue
        out[label] = {
            name: [a.get(name, "—"), b.get(name, "—")]
            for name in sorted(set(a) | set(b))
            if a.get(name) != b.get(name) and not name.startswith(_VOLATILE)
        }
    return out


def save(workload: str, entry: dict[str, Any], *, diagnosis: bool = False) -> None:
    """Merge this workload's entry into the results file and regenerate the doc; a diagnosis
    (A/B variants, a subset of configurations) goes to its own file and leaves the doc alone."""
    path = AB_RESULTS if diagnosis else RESULTS
    data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault("workloads", {})[workload] = entry
    data["workloads"] = dict(sorted(data["workloads"].items()))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
    if not diagnosis:
        DOC.write_text(render(data))


def _fmt(value: float | None, digits: int = 0) -> str:
    return "—" if value is None else f"{value:,.{digits}f}"


def _table(entry: dict[str, Any]) -> list[str]:
    lines = [
        "| configuration | median TPS | median p95 (ms) | TPS per round | spread |",
        "|---|---:|---:|---|---:|",
    ]
    for name, config in entry["configs"].items():
        if not config.get("started", True):
            lines.append(
                f"| {LABELS.get(name, name)} | **FAILED TO START** | | {config.get('start_errors')} | |"
            )
            continue
        rounds = ", ".join(_fmt(run["tps"]) for run in config["rounds"])
        spread = f"{config['spread']:.0%}" if config.get("spread") is not None else "—"
        lines.append(
            f"| {LABELS.get(name, name)} | {_fmt(config['median_tps'])} | {_fmt(config['median_p95_ms'], 1)} "
            f"| {rounds} | {spread} |"
        )
    return lines


def _verdicts(entry: dict[str, Any]) -> list[str]:
    lines = []
    for label, value in entry["ratios"].items():
        met = entry["targets"].get(label)
        verdict = "not measured" if met is None else ("target met" if met else "**target missed**")
        lines.append(
            f"- {label}: TPS ×{_fmt(value['tps'], 2)}, p95 ×{_fmt(value['p95'], 2)} — {verdict}"
            + _pair_note(entry, label)
        )
    checks = entry.get("apply_sql", [])
    failed = [check for check in checks if not check["ok"]]
    lines.append(f"- apply_sql: {len(checks) - len(failed)} of {len(checks)} statements applied as intended")
    lines += [
        f"  - FAILED ({check['profile']}): `{check['statement']}` — {check['note']}" for check in failed
    ]
    lines += [f"- **FAILURE**: {failure}" for failure in entry.get("failures", [])]
    return lines


def _pair_note(entry: dict[str, Any], label: str) -> str:
    """The per-round ratios and the settings the pair differs in, when the run recorded them."""
    notes = []
    rounds = (entry.get("paired") or {}).get(label)
    if rounds:
        notes.append(
            f"per-round ratio {rounds['median']:.2f} (from {rounds['low']:.2f} to {rounds['high']:.2f})"
        )
    differ = (entry.get("differences") or {}).get(label)
    if differ is not None:
        shown = ", ".join(f"{name} {ours} vs {ref}" for name, (ours, ref) in list(differ.items())[:8])
        notes.append(
            f"settings differ in: {shown}" if differ else "the server ran the same settings under both"
        )
    return f" ({'; '.join(notes)})" if notes else ""


def _advice(entry: dict[str, Any]) -> list[str]:
    lines = ["", f"Our advice (from {entry['params'].get('advice_from', 'the working tree')}):", ""]
    for profile, result in entry.get("advice", {}).items():
        changes = [
            f"`{f['variable']}` → {f['recommended']}"
            for f in result["findings"]
            if f.get("recommended") is not None
        ]
        lines.append(f"- {profile}: {', '.join(dict.fromkeys(changes)) or 'no change'}")
    return lines


def _settings(entry: dict[str, Any]) -> list[str]:
    """Live values per configuration (read from the running server after its first start)."""
    settings: dict[str, dict[str, str]] = entry.get("settings", {})
    if not settings:
        return []
    names = list(settings)
    lines = ["| variable | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for variable in next(iter(settings.values())):
        values = [_short(settings[name].get(variable, "")) for name in names]
        lines.append(f"| {variable} | " + " | ".join(values) + " |")
    return ["", "Live values of each configuration (`SELECT @@GLOBAL.x` after its first start):", "", *lines]


def _short(value: str) -> str:
    """Bytes as MiB/GiB when they are whole multiples."""
    if value.isdigit() and int(value) >= 1 << 20 and int(value) % (1 << 20) == 0:
        number = int(value)
        return f"{number >> 30}G" if number % (1 << 30) == 0 else f"{number >> 20}M"
    return value


def render(data: dict[str, Any]) -> str:
    lines = [
        "# Tuning gain: our advice against a hand-tuned configuration",
        "",
        "Generated by `bench/tuning_gain.py` (run by hand, never in CI) from `bench/results/tuning_gain.json`;",
        "do not edit by hand. Each workload runs a private MariaDB instance, collects its inputs with",
        "`innotune collect` under load, audits them with `--profile production` and `--profile ci`, and",
        "measures every configuration in interleaved rounds (restart, prewarm, warm-up, measured run).",
        "Targets: production ≥ 100% of the expert TPS with durability kept; ci ≥ the relaxed reference.",
        "Spread is (max − min) / median of the rounds' TPS: the noise of this shared 2-core machine.",
        "",
        "```sh",
        ".venv/bin/python bench/tuning_gain.py --workload a --rounds 4",
        "```",
    ]
    for name, entry in data.get("workloads", {}).items():
        params = entry["params"]
        lines += ["", f"## Workload {name}: {entry['title']}", ""]
        lines.append(
            f"{params['test']}, {params['tables']} tables × {params['table_size']:,} rows "
            f"({_fmt(params.get('data_gib'), 2)} GiB), {params['threads']} threads, {params['rounds']} round(s) of "
            f"{params['warmup_s']} s warm-up + {params['run_s']} s measured; memory limit "
            f"{params.get('memory_limit') or 'none'}; measured {entry['when']} on {entry['host']['describe']}."
        )
        lines += ["", *_table(entry), "", *_verdicts(entry), *_advice(entry), *_settings(entry)]
        if entry.get("notes"):
            lines += ["", *[f"- {note}" for note in entry["notes"]]]
    return "\n".join(lines) + "\n"
