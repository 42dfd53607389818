"""chord-memory mcp: the MCP server over stdio (mcp_server.py; needs the extra `[mcp]`)."""
from __future__ import annotations

import argparse

from chord_memory import paths


def run(args: argparse.Namespace) -> int:
    from chord_memory import mcp_server

    return mcp_server.main(paths.find_root())
