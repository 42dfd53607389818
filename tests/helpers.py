"""What many test modules share: real git repositories, the command line in a child process,
memory files written by hand, and secrets in their providers' shapes, built at run time.

Test modules import helpers from here, never from each other (docs/layout.md).
"""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import string
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
REC = ".chord/memory/records"
UV = "20261120-use-uv-for-installs-3f9a1c"
MIG = "20261121-migrations-need-review-b71e04"
GH_TOKEN = "ghp_" + "x7Kq2mZp9RtLw4VbN8cYd3Hj6Fs1Ga5Ue0Ti"


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=repo, check=check, capture_output=True, text=True,
    )


def make_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q")
    return path


def cli(*args: str, cwd: Path | None = None, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "chord_memory", *args],
        cwd=cwd, capture_output=True, text=True, input=input,
    )


def add_examples(repo: Path) -> None:
    (repo / ".chord/memory/records").mkdir(parents=True, exist_ok=True)
    for f in (EXAMPLES / "records").iterdir():
        shutil.copy(f, repo / ".chord/memory/records" / f.name)
    shutil.copy(EXAMPLES / "MEMORY.md", repo / "MEMORY.md")


def record(rid: str, *, type: str = "fact", source: str = "user", status: str = "stated",
           summary: str = "A short summary.", conclusion: str = "The statement itself.",
           extra: str = "", supersedes: str = "null") -> str:
    return (
        f"---\nid: {rid}\ntype: {type}\nsource: {source}\nstatus: {status}\nactor: auto\n"
        f"created: 2026-11-29T23:50:00Z\nsession: test:1\nsupersedes: {supersedes}\n"
        f"summary: {summary}\n{extra}---\n## Conclusion\n{conclusion}\n\n## Why\nBecause.\n"
    )


def entry(rid: str, type: str = "fact", summary: str = "A short summary.") -> str:
    return f"- {type}: {summary} ([{rid}]({REC}/{rid}.md))"


def set_region(repo: Path, lines: list[str], keep: bool = True) -> None:
    """Put lines at the top of the region; keep=False drops the entries that were there."""
    text = (repo / "MEMORY.md").read_text()
    head, _, rest = text.partition("<!-- chord-memory:begin -->\n")
    old, _, tail = rest.partition("<!-- chord-memory:end -->\n")
    body = "".join(line + "\n" for line in lines) + (old if keep else "")
    (repo / "MEMORY.md").write_text(
        f"{head}<!-- chord-memory:begin -->\n{body}<!-- chord-memory:end -->\n{tail}")


def add_record(repo: Path, rid: str, text: str | None = None, **kw: str) -> None:
    (repo / REC / f"{rid}.md").write_text(text if text is not None else record(rid, **kw))


def index_with(repo: Path, rid: str, **kw: str) -> None:
    add_record(repo, rid, **kw)
    set_region(repo, [entry(rid, kw.get("type", "fact"), kw.get("summary", "A short summary."))])


def enable(repo: Path, extra: str = "") -> None:
    (repo / ".chord").mkdir(exist_ok=True)
    (repo / ".chord/config.yaml").write_text(f"memory:\n  enabled: true\n  freeze_after: 0\n{extra}")


def records(repo: Path) -> dict[str, str]:
    folder = repo / REC
    return {p.name: p.read_text() for p in folder.iterdir()} if folder.exists() else {}


def everything_written(repo: Path) -> str:
    """All text the tool wrote: memory files, and its state folder (ledger, log, status)."""
    out = []
    for base in (repo / ".chord", repo / ".git/chord-memory"):
        for dirpath, _, files in os.walk(base):
            for name in files:
                out.append((Path(dirpath) / name).read_bytes().decode("utf-8", "replace"))
    if (repo / "MEMORY.md").exists():
        out.append((repo / "MEMORY.md").read_text())
    return "\n".join(out)


def tree_digest(root: Path) -> dict[str, str]:
    """What each path outside .git is: a link's target, a file's hash, or its kind (a FIFO is
    never opened)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        if ".git" in dirnames:
            dirnames.remove(".git")
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            if p.is_symlink():
                out[str(p)] = "link:" + os.readlink(p)
            elif p.is_file():
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
            else:
                out[str(p)] = "dir" if p.is_dir() else "other"
    return out


def _rand(alphabet: str, n: int, rng: random.Random) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def secrets(rng: random.Random) -> list[str]:
    """Values in each provider's documented shape, built at run time."""
    an = string.ascii_letters + string.digits
    return [
        "ghp_" + _rand(an, 36, rng),
        "github_pat_" + _rand(an, 22, rng) + "_" + _rand(an, 59, rng),
        "AKIA" + _rand(string.ascii_uppercase + string.digits, 16, rng),
        "xoxb-" + _rand(string.digits, 12, rng) + "-" + _rand(string.digits, 12, rng)
        + "-" + _rand(an, 24, rng),
        "sk-ant-api03-" + _rand(an + "-_", 93, rng) + "AA",
        "sk_live_" + _rand(an, 24, rng),
        "glpat-" + _rand(an + "-_", 20, rng),
        "hf_" + _rand(an, 34, rng),
        "npm_" + _rand(an, 36, rng),
        "Tr0ub4dor-" + _rand(an, 10, rng),
    ]
