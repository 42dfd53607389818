"""Wiring chord-memory into an agent's own configuration (`chord-memory install --agent NAME`).

    claude_code.py  our hooks merged into .claude/settings.json, and taken out again
"""
