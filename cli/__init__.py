"""The `innotune` command line. Imports stay inside commands so `innotune audit` starts fast."""

from cli.version import __version__

__all__ = ["__version__", "main"]


def main() -> None:
    """Console-script entry point: `--version` and a plain `audit` command line run without click
    (importing it costs ~15 ms); everything else, help and errors included, goes through click."""
    import sys

    argv = sys.argv[1:]
    if argv in (["--version"], ["-V"]):
        print(f"innotune {__version__}")
        return
    if argv[:1] == ["audit"]:
        # One audit, then the process ends: the cycle collector would only walk the ~200 modules'
        # objects over and over while they import (~4% of the whole run); what the audit leaves
        # behind is freed at exit.
        import gc

        gc.disable()
        _plain_audit(argv[1:])
    from cli.main import main as run

    run()


def _plain_audit(argv: list[str]) -> None:
    """Run `innotune audit` without click when cli.audit_options can read the whole command line."""
    import sys

    from cli.audit_options import parse_plain
    from cli.audit_run import UsageProblem, run_audit_command

    parameters = parse_plain(argv)
    if parameters is None:
        return
    try:
        status = run_audit_command(**parameters)  # type: ignore[arg-type]
    except UsageProblem:
        return  # nothing printed yet: click runs the command again and reports it
    except BrokenPipeError:
        # like click: a reader that went away (`| head`) is no error worth a traceback; what is
        # still buffered goes nowhere (the way the Python documentation shows for SIGPIPE)
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    sys.exit(status)
