"""Application services shared by the API and the worker. They raise domain errors and never commit."""
