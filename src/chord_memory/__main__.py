from __future__ import annotations

from chord_memory.cli import main

raise SystemExit(main())
