"""Git hook scripts shipped with adr-memory (package data)."""
