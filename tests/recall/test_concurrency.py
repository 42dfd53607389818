"""Recall from several processes while records are being added: no error, no half record."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers import git
from tests.recall import corpus

READER = """
import json, os, sys
from chord_memory.commands.recall import select
root, stop = sys.argv[1], sys.argv[2]
seen = []
while not os.path.exists(stop):
    hits, _, _ = select(root, "wombat", 100, "sqlite")
    seen.append([[h.id, h.data.decode(), h.conclusion] for h in hits])
json.dump(seen, sys.stdout)
"""
WRITER = """
import os, sys, time
from chord_memory import atomic
from chord_memory import index, memory_md
root = sys.argv[1]
for i in range(int(sys.argv[2])):
    rid = f"20261129-wombat-{i:03d}-aaaaaa"
    text = open(os.path.join(root, "template.md")).read().replace("RID", rid).replace("N", str(i))
    path = os.path.join(root, ".chord/memory/records", rid + ".md")
    line = f"- fact: Wombat rule number {i}. ([{rid}](.chord/memory/records/{rid}.md))"
    if i % 5 == 4:  # the careless way: indexed first, then written in two parts
        memory_md.update(root, [memory_md.Add(index.parse_entry(line, 0))])
        cut = text.index("summary:")  # the first part does not load
        with open(path, "w") as f:
            f.write(text[:cut]); f.flush(); time.sleep(0.05); f.write(text[cut:])
    else:  # the way extraction writes: the file whole, then its line
        atomic.create_exclusive(path, text.encode())
        memory_md.update(root, [memory_md.Add(index.parse_entry(line, 0))])
    time.sleep(0.01)
"""
TEMPLATE = (
    "---\nid: RID\ntype: fact\nsource: user\nstatus: stated\nactor: auto\n"
    "created: 2026-11-29T23:50:00Z\nsession: test:N\nsupersedes: null\nsummary: Wombat rule number N.\n"
    "---\n## Conclusion\nWombat rule number N holds in full.\n\n## Why\nBecause.\n"
)
COUNT = 30


def test_concurrent_recall_while_records_are_added(repo: Path) -> None:
    corpus.write(repo, corpus.records(200))
    (repo / "template.md").write_text(TEMPLATE)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    stop = repo.parent / "stop"
    readers = [subprocess.Popen([sys.executable, "-c", READER, str(repo), str(stop)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for _ in range(3)]
    time.sleep(0.3)
    writer = subprocess.run([sys.executable, "-c", WRITER, str(repo), str(COUNT)],
                            capture_output=True, text=True, timeout=60)
    assert writer.returncode == 0, writer.stderr
    time.sleep(0.2)
    stop.touch()
    results = []
    for proc in readers:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0 and "Traceback" not in err, err
        results += json.loads(out)
    assert len({len(hits) for hits in results}) > 3  # the readers saw the memory grow
    files = {p.stem: p.read_text() for p in (repo / corpus.REC).glob("20261129-wombat-*.md")}
    for hits in results:
        for rid, data, conclusion in hits:
            assert data == files[rid], f"{rid} was returned half-written"
            assert conclusion.endswith("holds in full.")
    final = subprocess.run([sys.executable, "-m", "chord_memory", "recall", "wombat", "--max", "100",
                            "--format", "json"], cwd=repo, capture_output=True, text=True)
    assert {r["id"] for r in json.loads(final.stdout)["records"]} == set(files)
