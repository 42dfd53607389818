#!/usr/bin/env bash
# The main job end to end, offline, in a throwaway repository: init and the git
# hooks, example records, a clean check, a broken index refused by the hook on
# `git commit` and fixed, then a finished Claude Code session, a commit whose
# post-commit hook extracts memory in the background (offline rules extractor),
# status, the new index and records, a clean check, and the summary a new
# agent session loads.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/chord-memory-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.com
export GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.com
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
# The hooks start no extraction when CI is set (docs/hooks.md): right for a CI checkout, but this
# throwaway repository is the demo's own, and showing the hook at work is the point. So a CI job
# that runs `make demo` sees the same demo as a developer does.
unset CI CHORD_MEMORY_SKIP
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

cd "$work" && mkdir repo home && cd repo
git init -q -b main
step "a new project: chord-memory init, and the git hooks (chord-memory install)"
show chord-memory init
show chord-memory install

step "three records from earlier sessions, indexed in MEMORY.md"
mkdir -p .chord/memory/records
cp "$here"/records/*.md .chord/memory/records/
cp "$here/MEMORY.md" MEMORY.md
show chord-memory check --all && echo "(no findings)"
git add -A && git commit -qm "Add project memory" && echo "committed: the hook passed"

step "a hand edit that points the index at a record that does not exist"
sed -i 's#<!-- chord-memory:begin -->#&\n- fact: Staging runs on Fridays. ([20261130-staging-fridays-9a0b1c](.chord/memory/records/20261130-staging-fridays-9a0b1c.md))#' MEMORY.md
git add MEMORY.md
if git commit -qm "Index a record that is not there"; then
    echo "unexpected: the commit went through" >&2; exit 1
fi
echo "refused by the hook, as it should be"

step "the fix: add the record the entry points to, and the commit goes through"
cat > .chord/memory/records/20261130-staging-fridays-9a0b1c.md <<'RECORD'
---
id: 20261130-staging-fridays-9a0b1c
type: fact
source: user
status: stated
actor: human
created: 2026-11-30T10:00:00Z
session: demo
supersedes: null
summary: Staging runs on Fridays.
---
## Conclusion
The staging environment is refreshed from production data every Friday; do not schedule load tests then.

## Why
The user said load tests on Fridays collide with the refresh and give misleading numbers.
RECORD
git add .chord/memory/records
show chord-memory check --staged && echo "(no findings)"
git commit -qm "Add the staging record" && echo "committed"

step "a finished Claude Code session of this project (a token was pasted into it), and extraction on"
printf 'memory:\n  enabled: true\n  freeze_after: 0s\n' > .chord/config.yaml
echo "$ cat .chord/config.yaml"; cat .chord/config.yaml
sessions=$(python -c 'import os, sys; from chord_memory.transcripts import claude_code_project_dir as d; print(d(sys.argv[1], os.environ["HOME"]))' "$PWD")
mkdir -p "$sessions"
sed "s#@PROJECT@#$PWD#g" "$here/transcripts/claude-code-session.jsonl" > "$sessions/5b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.jsonl"
echo "wrote ~/.claude/projects/$(basename "$sessions")/5b1e2c3d-….jsonl ($(wc -l < "$sessions"/*.jsonl) lines)"

step "a commit: the post-commit hook starts the extraction in the background and returns at once"
export CHORD_MEMORY_DEBOUNCE=0.2   # the worker's quiet period before a run (default 1 s)
git add .chord/config.yaml
TIMEFORMAT='git commit returned after %3R s'
time git commit -qm "Turn on memory extraction"
echo "meanwhile, the worker (its log is .git/chord-memory/extract.log):"
for _ in $(seq 300); do
    grep -qE '\] (run done|MEMORY-FAIL)' .git/chord-memory/extract.log 2>/dev/null && break
    sleep 0.1
done
if ! grep -qE '\] run done' .git/chord-memory/extract.log 2>/dev/null; then
    echo "the background extraction did not finish within 30 s; its log:" >&2
    cat .git/chord-memory/extract.log >&2 2>/dev/null || echo "(no log)" >&2
    exit 1
fi
sed 's/^/    /' .git/chord-memory/extract.log
show chord-memory status
echo "--- the new index entries (new ones on top):"
sed -n '/chord-memory:begin/,/chord-memory:end/p' MEMORY.md
echo "--- one new record:"
cat "$(ls -t .chord/memory/records/*.md | head -1)"
show chord-memory check --all && echo "(no findings)"
if grep -rq 'ghp_R8x2' MEMORY.md .chord .git/chord-memory; then echo "a secret leaked" >&2; exit 1; fi
echo "the pasted token is in no file chord-memory wrote"

step "what a new agent session loads: chord-memory summary"
show chord-memory summary

step "what a later prompt recalls: chord-memory recall (SQLite FTS5, ranked)"
show chord-memory recall "why do the database tests deadlock" --max 2
