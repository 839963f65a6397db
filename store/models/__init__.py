"""ORM models, one module per table; importing this package registers them all on Base.metadata."""
