"""adr-memory: a git-native memory of architecture decisions."""

__version__ = "0.1.0"
