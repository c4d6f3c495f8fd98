"""ADR templates shipped with adr-memory (package data)."""
