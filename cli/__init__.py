"""The `innotune` command line. Imports stay inside commands so `innotune audit` starts fast."""
