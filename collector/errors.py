"""The one error the collector raises for a problem the user can act on."""

from __future__ import annotations


class CollectError(Exception):
    """Collection failed: cannot connect, lacks a privilege it cannot do without, cannot upload.

    The message is a sentence for the user; the command prints it and exits 1.
    """
