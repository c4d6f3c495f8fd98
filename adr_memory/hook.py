"""`python -m adr_memory.hook`: the name the installed git hooks run (kept as it was)."""

from adr_memory.surfaces.hook import main

if __name__ == "__main__":
    raise SystemExit(main())
