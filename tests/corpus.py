"""Where the shared real-world corpus lives: `../shared/corpus` beside the checkout."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def corpus_file(relative: str) -> Path:
    """A corpus file by its path under the corpus; a missing corpus is an error, never a skip."""
    path = CORPUS / relative
    if not path.exists():
        raise FileNotFoundError(f"corpus file missing: {path}")
    return path
