"""A bounded schemathesis run over every operation of the real app (PostgreSQL, Redis, a worker):
schema-conforming and schema-violating requests alike must never get a 5xx.

A handful of cases per operation and mode (a few hundred in all) keep it to seconds;
bench/fuzz.py runs the long version (10,000+ requests) against a served process.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from api.app import create_app
from tests.api.helpers import Tenants
from tests.fixtures.real_services import ServiceUrls
from tests.fixtures.worker_process import WorkerProcess

CASES_PER_OPERATION_AND_MODE = 4


@pytest.fixture(scope="module")
def api_schema(service_urls: ServiceUrls) -> Iterator[Any]:
    """The app's own OpenAPI document, its operations called in-process (ASGI)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATABASE_URL", service_urls.database_url)
        patch.setenv("CELERY_BROKER_URL", service_urls.broker_url)
        patch.setenv("INNOTUNE_CELERY_QUEUE", service_urls.queue)
        patch.setenv("INNOTUNE_RATE_LIMIT_PER_MINUTE", "1000000")
        from tests.fixtures.settings import reset_process_state

        reset_process_state()
        app = create_app()
        yield schemathesis.openapi.from_asgi("/openapi.json", app), app
    reset_process_state()


def _fuzz(operation: Any, mode: GenerationMode, headers: dict[str, str]) -> list[int]:
    """Statuses of a few generated requests to one operation (its long-polls made short)."""
    statuses: list[int] = []

    @settings(
        max_examples=CASES_PER_OPERATION_AND_MODE,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def call(case: Any) -> None:
        if case.query and "wait" in case.query:
            case.query["wait"] = 0  # a long-poll proves nothing here and costs a minute
        response = case.call(headers=headers)  # schemathesis' own ASGI client: it encodes what it generates
        statuses.append(response.status_code)
        assert response.status_code < 500, f"{operation.label} ({mode.value}): {response.text[:300]}"

    try:
        call()
    except Unsatisfiable:  # nothing to violate: an operation without parameters or body
        assert mode is GenerationMode.NEGATIVE
    return statuses


def test_every_operation_answers_without_a_server_error(
    api_schema: tuple[Any, Any], tenants: Tenants, worker_process: WorkerProcess
) -> None:
    schema, _ = api_schema
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 30
    statuses: list[int] = []
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            statuses += _fuzz(operation, mode, tenants.mine.headers)
    assert len(statuses) >= 200, len(statuses)
    assert all(status < 500 for status in statuses)
