"""The Celery worker: a thin layer of tasks that take ids, call a service and save."""
