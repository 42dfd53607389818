"""chord-memory learnings list | promote|reject|revoke --ids ID... --by human"""
from __future__ import annotations

import argparse
import sys

from chord_memory import decisions, learnings, paths
from chord_memory.errors import UserError
from chord_memory.secrets import scrub


def _list(root: str, r: decisions.Rules) -> str:
    every = learnings.load_all(root)
    if not every:
        return "No learnings yet: extraction records lessons it sees in sessions here.\n"
    ready = learnings.ready(every, r.min_sightings)
    shown = ready[: r.max_per_run]
    out: list[str] = []
    if shown:
        out.append(f"Ready to promote (seen in at least {r.min_sightings} distinct sessions; "
                   f"{len(shown)} of {len(ready)} shown, memory.recurrence.maxPerRun is {r.max_per_run}):")
        out += [f"  {lr.key}  ({lr.sessions} sessions)  {lr.lesson}" for lr in shown]
        keys = " ".join(lr.key for lr in shown)
        out += ["", "Promote them:", f"  chord-memory learnings promote --ids {keys} --by human",
                "Or turn them down:", f"  chord-memory learnings reject --ids {keys} --by human"]
        if r.auto:
            out.append("(memory.autoPromote is on: extraction promotes ready learnings itself, "
                       f"at most {r.max_per_run} a run, recorded as actor: auto)")
    elif ready:
        out.append(f"{len(ready)} ready to promote; none shown because memory.recurrence.maxPerRun is 0.")
    else:
        out.append(f"Nothing is ready to promote (a lesson needs {r.min_sightings} distinct sessions).")
    waiting = [lr for lr in every if lr.status == "open" and lr not in ready]
    if waiting:
        out.append(f"Seen, not ready yet: {len(waiting)} ("
                   + ", ".join(f"{lr.key} {lr.sessions}/{r.min_sightings}" for lr in waiting[:5])
                   + (", …" if len(waiting) > 5 else "") + ")")
    for lr in every:
        if lr.status != "open":
            last = lr.actions[-1] if lr.actions else {}
            what = f" as {lr.record}" if lr.record else ""
            out.append(f"{lr.status.capitalize()}{what}: {lr.key} "
                       f"(by {last.get('by', '?')} on {last.get('at', '?')[:10]})")
    return scrub("\n".join(out) + "\n")[0]  # the files may hold a secret typed in by hand


def run(args: argparse.Namespace) -> int:
    return learnings_command(paths.find_root(), args.action, args.ids, args.by)


def learnings_command(root: str, action: str, ids: list[str], by: str | None) -> int:
    """list, or promote / reject / revoke the learnings named by ids, as `by` (human only)."""
    if action == "list":
        sys.stdout.write(_list(root, decisions.rules(root)))
        return 0
    if not ids:
        raise UserError(f"`learnings {action}` needs --ids ID... (see `chord-memory learnings list`)")
    if by != "human":
        raise UserError(f"say who acts: `learnings {action} --ids … --by human` (automatic "
                        "promotion happens during extraction when memory.autoPromote is on)")
    if action == "promote":
        r = decisions.rules(root)
        known = decisions.known_conclusions(root, r.limits)
        for key in ids:
            rid = decisions.promote(root, key, "human", r.limits, known)
            print(f"promoted {key} as {paths.record_path(rid)} (actor: human); its line is at the "
                  "top of MEMORY.md")
    elif action == "reject":
        for key in ids:
            lr = decisions.reject(root, key, "human")
            print(f"rejected {lr.key} (by human)")
    else:
        for ident in ids:
            lr = decisions.revoke(root, ident, "human")
            print(f"revoked {lr.key}: {lr.record} left the index; its record file stays (by human)")
    return 0
