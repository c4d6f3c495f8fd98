from adr_memory.cli import main

raise SystemExit(main())
