"""Audits: submitted against a server's snapshot or one-shot, queued, run by a job, read and listed.

`submit` queues them (and enqueues their runs), `runs` runs one, `sweep` re-sends stuck ones,
`callbacks` posts finished ones to their callback URL, `jobs` holds the job bodies, `view` is the
audit as the API and callbacks show it, `queries` reads them.
"""

from services.audits.queries import get_audit, list_audits
from services.audits.submit import ANALYZE_PARAMETERS, analyze, server_parameters, submit_audit
from services.audits.view import audit_as_dict

__all__ = [
    "ANALYZE_PARAMETERS",
    "analyze",
    "audit_as_dict",
    "get_audit",
    "list_audits",
    "server_parameters",
    "submit_audit",
]
