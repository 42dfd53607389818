"""A large Aider chat history (``.aider.chat.history.md``) in the shape aider/io.py writes.

Mostly aider's own output, as long sessions are: lint and test errors (one ``> `` line
each), command output written in one piece (``> `` on its first line only), file and
commit notes, token counts; with prompts (some pasted, several ``#### `` lines), replies
with SEARCH/REPLACE blocks and reasoning, and architect hand-offs (``####`` lines that
repeat the plan). Standard library only; the same ``seed`` gives the same bytes.
"""
from __future__ import annotations

import os
import random

_WORDS = ["status", "json", "flag", "parser", "config", "server", "fixture", "request",
          "handler", "cache", "retry", "backoff", "timeout", "schema", "migration", "index",
          "column", "value", "key", "token", "session", "update", "create", "delete", "return",
          "raise", "error", "check", "test", "build", "deploy", "module"]


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(n)).capitalize() + "."


def _code(rng: random.Random, lines: int) -> list[str]:
    return [f"    {rng.choice(_WORDS)}_{i} = {rng.choice(_WORDS)}({rng.randint(0, 999)})"
            for i in range(lines)]


def _user(inp: str) -> str:
    return ("\n#### " + "  \n#### ".join(inp.splitlines())).rstrip() + "  \n"


def _tool(msg: str) -> str:
    return "> " + msg.strip() + "  \n"


def _ai(content: str) -> str:
    return "\n" + content.strip() + "\n\n"


def _reply(rng: random.Random, fname: str) -> str:
    parts = [f"<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>\n\n{_sentence(rng, 40)}\n\n"
             "</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>"] if rng.random() < 0.3 else []
    parts.append(_sentence(rng, 25))
    for _ in range(rng.randint(1, 3)):
        old, new = _code(rng, rng.randint(3, 30)), _code(rng, rng.randint(3, 60))
        parts.append("\n".join([fname, "```python", "<<<<<<< SEARCH", *old, "=======", *new,
                                ">>>>>>> REPLACE", "```"]))
    return "\n\n".join(parts)


def _turn(rng: random.Random, n: int) -> str:
    fname = f"src/app/{rng.choice(_WORDS)}_{n % 50}.py"
    out = []
    if rng.random() < 0.2:  # a pasted traceback: one #### line each
        out.append(_user("Fix this:\n" + "\n".join(f'  File "{fname}", line {i}, in {rng.choice(_WORDS)}'
                                                   for i in range(rng.randint(5, 40)))))
    else:
        out.append(_user(_sentence(rng, rng.randint(6, 40))))
    out.append(_tool(fname))
    out.append(_tool("Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y"))
    if rng.random() < 0.15:  # architect: the plan, then the same plan handed to the editor
        plan = _sentence(rng, 60) + "\n\n" + "\n".join(f"- {_sentence(rng, 12)}" for _ in range(8))
        out.append(_ai(plan))
        out.append(_tool("Tokens: 9.1k sent, 700 received. Cost: $0.04 message, $1.20 session."))
        out.append(_tool("Edit the files? (Y)es/(N)o [Yes]: y"))
        out.append(_user(plan))
    out.append(_ai(_reply(rng, fname)))
    out.append(_tool(f"Tokens: {rng.randint(2, 90)}k sent, {rng.randint(50, 3000)} received. "
                     f"Cost: $0.{rng.randint(10, 99)} message, $3.10 session."))
    out.append(_tool(f"Applied edit to {fname}"))
    out.append(_tool(f"Commit {rng.getrandbits(28):07x} fix: {_sentence(rng, 8)}"))
    for _ in range(rng.randint(1, 4)):  # lint / test errors: one write a line
        out.append(_tool("# Fix any errors below, if possible."))
        out.append(_tool(f"## Running: flake8 {fname}"))
        for i in range(rng.randint(20, 400)):
            out.append(_tool(f"{fname}:{i}:1: F821 undefined name '{rng.choice(_WORDS)}' "
                             + "x" * rng.randint(0, 120)))
        out.append(_tool("Attempt to fix lint errors? (Y)es/(N)o [Yes]: y"))
        out.append(_ai(_reply(rng, fname)))
        out.append(_tool(f"Applied edit to {fname}"))
    if rng.random() < 0.3:  # command output logged in one write (older aider)
        body = "\n".join(f"{fname}::test_{rng.choice(_WORDS)}_{i} PASSED " + "." * rng.randint(0, 80)
                         for i in range(rng.randint(200, 3000)))
        out.append(_user("/run pytest -v"))
        out.append("> " + body + "  \n")
        out.append(_tool("Add the output to the chat? (Y)es/(N)o [Yes]: n"))
    return "".join(out)


def generate(folder: str, size_mb: int, seed: int = 1) -> str:
    """Write a history of at least ``size_mb`` MB under ``folder``; return its path."""
    rng = random.Random(seed)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, ".aider.chat.history.md")
    target, written, n = size_mb * 1024 * 1024, 0, 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        while written < target:
            if n % 40 == 0:
                chunk = (f"\n# aider chat started at 2025-10-{1 + n // 40 % 28:02d} 09:00:00\n\n"
                         + _tool("Aider v0.86.1") + _tool("Git repo: .git with 420 files"))
            else:
                chunk = _turn(rng, n)
            f.write(chunk)
            written += len(chunk.encode("utf-8"))
            n += 1
    return path
