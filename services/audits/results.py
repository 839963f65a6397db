"""What a succeeded audit stores: its results — or, when nothing changed, a reference to the
identical results of the server's previous audit — and the facts fleet views read.

"Nothing changed" means the same snapshot content, the same advisor version and the same results
(findings, diff, files, drop-in, warnings, figures: compared by a SHA-256 of them). A daily
re-audit of an unchanged server then adds a row of ids and hashes, not another copy of its my.cnf.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import msgspec

from advisor.audit import ADVISOR_VERSION, AuditResult
from services.audit_facts import audit_facts
from store.models import RESULT_ATTRIBUTES
from store.repositories.audits import PreviousAudit


def result_hash(result: Mapping[str, Any]) -> str:
    """SHA-256 of the results an audit stores, in a canonical JSON form: keys sorted, no spaces, UTF-8
    (msgspec writes for JSON values the bytes `json.dumps(sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)` did, several times faster)."""
    stored = {name: result.get(name) for name in RESULT_ATTRIBUTES}
    return hashlib.sha256(msgspec.json.encode(stored, order="sorted", enc_hook=str)).hexdigest()


def succeeded_values(
    outcome: AuditResult, content_hash: str, previous: PreviousAudit | None
) -> dict[str, Any]:
    """The audit's columns (ORM attribute names) for this outcome: a copy of the results, or a
    reference to the copy its previous audit uses when snapshot, advisor and results are the same."""
    result = outcome.to_dict()
    digest = result_hash(result)
    values: dict[str, Any] = {
        "advisor_version": ADVISOR_VERSION,
        "worst_severity": outcome.worst_severity,
        "flavor": result["server"]["flavor"],
        "version": result["server"]["version"],
        "result_hash": digest,
        "error": None,
        **audit_facts(result, content_hash, previous),
    }
    unchanged = (
        previous is not None
        and previous.content_hash == content_hash
        and previous.advisor_version == ADVISOR_VERSION
        and previous.result_hash == digest
    )
    values["result_of"] = (previous.result_of or previous.id) if unchanged and previous else None
    for name in RESULT_ATTRIBUTES:
        values[f"stored_{name}"] = None if unchanged else result[name]
    return values
