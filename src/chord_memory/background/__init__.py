"""Background extraction, from a git event to a finished run, left to right:

    decide.py  should this event start an extraction? (what `chord_memory.hook` runs, in O(1))
    queue.py   the pending triggers, one file per work tree, claimed by a run, never lost
    start.py   the detached start of the worker, away from git and the hook
    worker.py  the worker: takes the lock, works through the queue, runs the pipeline

The questions about git's own state (a rebase in progress, a later event coming, a hook
installed) are gitio.py's. docs/hooks.md tells the whole story.
"""
