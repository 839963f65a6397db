"""The HTTP API (FastAPI): thin routers over the services."""
