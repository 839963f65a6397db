"""InnoTune's pure core: input parsers, the version catalog, advisors, engine and differ.

Nothing here imports a web framework, an ORM, a task queue, the network or the clock.
"""
