"""The worker's own bounds, as Celery is configured with them."""

from __future__ import annotations

from collections.abc import Callable

from worker.app import create_celery


def test_a_child_over_its_memory_limit_is_replaced(use_env: Callable[..., None]) -> None:
    """worker_max_memory_per_child comes from the settings (KiB, default 200 MiB), so a child an
    upload blew up is recycled after its task instead of keeping the memory."""
    assert create_celery().conf.worker_max_memory_per_child == 200 * 1024
    use_env(INNOTUNE_WORKER_MAX_MEMORY_PER_CHILD_KIB="51200")
    assert create_celery().conf.worker_max_memory_per_child == 51200


def test_beat_rewrites_its_schedule_after_every_task_it_sends() -> None:
    """`innotune health beat` reads the schedule file's age: beat must write it after each send."""
    assert create_celery().conf.beat_sync_every == 1
