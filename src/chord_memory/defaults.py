"""Every default of the configuration, in one place (docs/configuration.md).

A leaf module with no imports: the full configuration (config.py, validated with
pydantic) and the cheap views the hot paths read (settings.py for check, summary
and the hooks; recall/options.py for recall) all take their defaults from here, so
a default is changed once.
"""
from __future__ import annotations

TYPE_CHECKING = False  # records.py, on a hook's path, imports this module: no `typing` at run time
if TYPE_CHECKING:
    from typing import Final

ENABLED = False
EXTRACTOR: Final = "rules"
FREEZE_AFTER = 600.0  # seconds a session must be unchanged before it is read
INJECTION_BUDGET = 4000  # characters of the summary a new session loads

SUMMARY_CHARS = 160
STATEMENT_CHARS = 1000
RECORD_BYTES = 4096

MAX_RECALL = 5
BACKEND: Final = "sqlite"
PREFER_OVER_DOC_BRIDGE = True

MIN_SIGHTINGS = 2
MAX_PER_RUN = 3
AUTO_PROMOTE = False

ENDPOINT_TIMEOUT = 120.0  # seconds
STRUCTURED_OUTPUT: Final = "json_schema"
