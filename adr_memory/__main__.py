from adr_memory.surfaces.cli import main

raise SystemExit(main())
