"""chord-memory: project memory for coding agents, kept in the repository."""
from __future__ import annotations

__version__ = "0.1.0"
