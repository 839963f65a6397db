"""Persistence shared by the API and the worker: engine, sessions, ORM models, repositories."""
