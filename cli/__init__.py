"""The `innotune` command line. Imports stay inside commands so `innotune audit` starts fast."""

from cli.version import __version__

__all__ = ["__version__", "main"]


def main() -> None:
    """Console-script entry point: `--version` answers before click (15 ms) is imported."""
    import sys

    if sys.argv[1:] in (["--version"], ["-V"]):
        print(f"innotune {__version__}")
        return
    from cli.main import main as run

    run()
