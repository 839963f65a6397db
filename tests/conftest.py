"""Fixtures live in tests/fixtures/, split by domain."""

pytest_plugins = [
    "tests.fixtures.real_services",
    "tests.fixtures.settings",
    "tests.fixtures.worker_process",
    "tests.fixtures.service_data",
    "tests.fixtures.callbacks",
    "tests.fixtures.fleet_data",
    "tests.fixtures.jobs",
    "tests.fixtures.recommended_mariadbd",
]
