"""Process-wide configuration: settings and logging, shared by every entry point."""
