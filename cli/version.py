"""The package's version: pyproject.toml reads it from here, `innotune --version` prints it."""

__version__ = "0.1.0"
