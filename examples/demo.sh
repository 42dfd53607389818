#!/usr/bin/env bash
# The main job end to end, offline, in a throwaway repository:
# init, example records, a clean check, a broken index refused by the pre-commit
# hook on `git commit`, the fix, and the summary a new agent session loads.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/chord-memory-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.com
export GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.com
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

cd "$work" && mkdir repo home && cd repo
git init -q -b main
step "a new project: chord-memory init, and our pre-commit hook in .git/hooks"
show chord-memory init
cp "$here/../hooks/pre-commit" .git/hooks/pre-commit

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

step "what a new agent session loads: chord-memory summary"
show chord-memory summary
