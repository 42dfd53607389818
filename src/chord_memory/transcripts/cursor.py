"""Cursor agent transcripts: ``~/.cursor/projects/<folder>/agent-transcripts/``.

Cursor (the IDE's agent and the ``cursor-agent`` CLI) keeps one transcript a
conversation in the folder of the workspace it ran in: ``<id>/<id>.jsonl`` (IDE and
current CLI), ``<id>.jsonl`` (earlier CLI builds) or ``<id>.txt`` (plain text, before
the JSONL transcripts of early 2026). The folder name is the workspace path with every
run of characters other than ASCII letters and digits replaced by one ``-``, edges
trimmed; the lines name no directory, no session id and no time.

JSONL: ``{"role": "user"|"assistant", "message": {"content": [blocks]}}`` lines, plus
``{"type": "turn_ended", "status": ...}`` and ``{"type": "metadata", ...}``. The text
blocks of a user line hold what was typed inside ``<user_query>`` and the context
Cursor adds around it; assistant text blocks end with a ``[REDACTED]`` marker where
the thinking was. Text: ``user:`` / ``assistant:`` (or ``A:``) blocks, with
``[Thinking]``, ``[Tool call] Name`` and ``[Tool result] Name`` sections in the
assistant's. See docs/transcripts.md.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

from chord_memory.paths import open_regular
from chord_memory.transcripts import Session, Turn, jsonl, session
from chord_memory.transcripts.discover import same_dir
from chord_memory.transcripts.typed import AFTER, CUT, DROP, INNER, Harness, Rule, Voice

KIND = "cursor"

# -- what the person typed ---------------------------------------------------------------

# Context blocks Cursor writes around the typed text of a user message, by tag. Each is
# removed wherever it stands (the typed text is inside <user_query>, never inside these).
_CONTEXT_TAGS = (
    ("send time", "timestamp"),
    ("environment", "user_info"),
    ("reminder", "system_reminder"),
    ("attached files and selections", "attached_files"),
    ("open and recently viewed files", "open_and_recently_viewed_files"),
    ("saved image paths", "image_files"),
    ("selected code", "manually_added_selection"),
    ("attached folders", "attached_folders"),
    ("fetched web pages", "external_links"),
    ("uploaded documents", "uploaded_documents"),
    ("attached videos", "attached_videos"),
    ("documentation", "documentation_context"),
    ("project rules", "cursor_rules_context"),
    ("rules", "rules"),
    ("attached skills", "manually_attached_skills"),
    ("available skills", "agent_skills"),
    ("slash command files", "cursor_commands"),
    ("other conversations", "recent_agents_context"),
    ("other conversations (older)", "agent_transcripts"),
    ("sub-agent request", "subagent_delegation_context"),
    ("pull request diffs", "pr_review_context"),
    ("console logs", "console_logs_context"),
    ("selected UI elements", "selected_ui_elements"),
    ("browser tabs", "browser_context"),
    ("agent notes", "agent_notes"),
    ("Slack thread", "slack_context"),
    ("Teams thread", "microsoft_teams_context"),
    ("GitHub pull request", "github_pr_context"),
    ("context (2025)", "additional_data"),
    ("git status", "git_status"),
    ("linter errors", "linter_errors"),
    ("current file", "current_file"),
    ("custom instructions", "custom_instructions"),
)
# Blocks that Cursor writes with attributes (`<code_selection lines="1-9" ...>`).
_ATTRIBUTE_TAGS = (
    ("selected code", "code_selection"),
    ("terminal output", "terminal_output"),
    ("terminal selection", "terminal_selection"),
    ("invoked skills", "invoked_skills"),
    ("invoked commands", "invoked_commands"),
)
# Prompts Cursor composes for a button (the diff tab's git actions), written ahead of a
# fixed <user_query>: nothing in them was typed.
_BUTTON_PROMPTS = (
    "Stage the changes you worked on",
    "Commit, push, and create a pull request for this branch.",
    "Commit and push for this branch.",
    "Create a commit for this branch.",
    "- First create and check out a new informatively named branch for this work.",
    "Create and check out a new branch for the current changes.",
    "Push this branch to remote",
    "There are merge conflicts ",
    "Babysit this pull request until it is merge-ready.",
    "Autopilot this pull request until it is merge-ready",
    "Start a Cloud background subagent to ",
    "Split the current work into small reviewable pull requests.",
    "Apply the full diff from the remote branch below",
    "Checkout the branch below in the current local workspace.",
)
HARNESS = Harness((
    *(Rule(name, f"<{tag}>", CUT, f"</{tag}>") for name, tag in _CONTEXT_TAGS),
    *(Rule(name, f"<{tag}{sep}", CUT, f"</{tag}>") for name, tag in _ATTRIBUTE_TAGS for sep in (" ", ">")),
    Rule("image placeholder", "[Image]", CUT, ""),
    # Cursor does not escape the wrapper: a typed "</user_query>" is stored as is. The tag
    # alone is removed, so the typed text runs from the wrapper's start to the block's end.
    Rule("query end tag", "</user_query>", CUT, ""),
    Rule("plan Build button", "<user_query>\nImplement the plan as specified", DROP),
    Rule("plan Build button", "<user_query>Implement the plan as specified", DROP),
    Rule("plan Build button (no wrapper)", "Implement the plan as specified", DROP),
    Rule("diff tab action", "<user_query>\nExecute the selected diff-tab", DROP),
    Rule("diff tab action", "<user_query>Execute the selected diff-tab", DROP),
    *(Rule("diff tab git prompt", start, DROP) for start in _BUTTON_PROMPTS),
    Rule("user query", "<user_query>", INNER, "</user_query>"),
    Rule("other context ahead of the query", "<", AFTER, "<user_query>"),
))

# A user message Cursor writes after summarizing the conversation: history, not a prompt.
SUMMARY_MARKER = "[Previous conversation summary]"
_REDACTED = "[REDACTED]"  # where an assistant text block's thinking was
_TOOL_BLOCKS = ("tool_use", "tool-use", "tool_call", "tool-call")
_RESULT_BLOCKS = ("tool_result", "tool-result")
_PLAN_TOOLS = ("CreatePlan", "create_plan")  # the plan text is the assistant's own words
_PLAN_FIELDS = ("name", "overview", "plan")
_MAX_KEPT = 8 * 1024 * 1024  # characters kept of one text block, plan or message


def read(path: str, start_offset: int = 0) -> Session:
    with open_regular(path) as f:
        reader: _Reader = _TextReader(start_offset) if _is_text(path) else _JsonlReader(start_offset)
        end_offset, skipped = reader.run(f)
    return session(KIND, path, None, None, reader.finish(), start_offset,
                   jsonl.Scan(end_offset, skipped))


def _is_text(path: str) -> bool:
    return path.lower().endswith(".txt")


class _Conversation:
    """Turns in file order; one reply per prompt: its last text-only assistant message
    (else its last assistant message with text), fixed at ``turn_ended``."""

    def __init__(self, first_line: int) -> None:
        self.first_line = first_line  # turns from earlier lines were returned by an earlier read
        self.voice = Voice(HARNESS)
        self.turns: list[Turn] = []
        self.last: Turn | None = None  # the last assistant message with text
        self.final: Turn | None = None  # the last one without a tool call
        self.replied = False

    def user(self, line: int, blocks: list[str]) -> None:
        raw = "\n\n".join(b for b in blocks if b.strip())
        if raw.lstrip().startswith(SUMMARY_MARKER):
            return self.history(line, raw)
        text = self.voice.user(blocks)
        if text is None:
            return  # context only, or a button's prompt: not a prompt, and the turn goes on
        if text.startswith(SUMMARY_MARKER):
            return self.history(line, text)
        self._flush()
        self.replied = False
        self._add(Turn("user", text, line))

    def history(self, line: int, text: str) -> None:
        text = text.lstrip()[len(SUMMARY_MARKER):].lstrip(" :\n").strip()
        if text:
            self._add(Turn("history", text, line))

    def assistant(self, line: int, text: str, tools: bool) -> None:
        self.voice.assistant(text)
        if self.replied:
            return  # the turn ended already; more text (after a button's prompt) is not its reply
        self.last = Turn("assistant", text, line)
        if not tools:
            self.final = self.last

    def end_turn(self) -> None:
        if self._flush():
            self.replied = True

    def _flush(self) -> bool:
        reply = self.final or self.last
        self.final = self.last = None
        if reply is not None:
            self._add(reply)
        return reply is not None

    def _add(self, turn: Turn) -> None:
        if turn.line >= self.first_line:
            self.turns.append(turn)

    def finish(self) -> list[Turn]:
        self._flush()
        return sorted(self.turns, key=lambda turn: turn.line)


class _Reader:
    """Reads a whole file, line by line, and returns the turns of lines from ``start``.

    Earlier lines are read too (without returning their turns), so that a resumed read
    knows the turn it is in and what the assistant said before (the echo filter).
    """

    def __init__(self, start: int) -> None:
        self.start = start
        self.convo = _Conversation(first_line=1 if start == 0 else 1 << 62)
        self.skipped = 0

    def run(self, f: IO[bytes]) -> tuple[int, int]:
        end_offset, begin = self.start, 0
        for line in jsonl.iter_lines(f, 0, 1):
            fresh = begin >= self.start
            if fresh and self.convo.first_line > line.number:
                self.convo.first_line = line.number
            straddles = begin < self.start < line.end
            begin = line.end
            if not self.accept(line.complete, fresh or straddles):
                break
            if fresh or straddles:
                end_offset = line.end
            if straddles:
                self.skipped += 1  # an offset inside a line: its second half is not a line
            elif line.data is None:
                self.skipped += int(fresh)
            else:
                self.line(line.number, line.data, fresh)
        return end_offset, self.skipped

    def accept(self, complete: bool, counted: bool) -> bool:
        raise NotImplementedError

    def line(self, number: int, data: bytes, fresh: bool) -> None:
        raise NotImplementedError

    def finish(self) -> list[Turn]:
        return self.convo.finish()


# -- JSONL -------------------------------------------------------------------------------


class _JsonlReader(_Reader):
    def accept(self, complete: bool, counted: bool) -> bool:
        if not complete:  # a write in progress: not consumed, read again later
            self.skipped += int(counted)
        return complete

    def line(self, number: int, data: bytes, fresh: bool) -> None:
        if not data.strip() or _carries_nothing(data):
            return
        obj = jsonl.parse(data)
        if (obj is None or not self.handle(number, obj)) and fresh:
            self.skipped += 1

    def handle(self, number: int, obj: dict[str, Any]) -> bool:
        role = obj.get("role")
        if role in ("user", "assistant"):
            message = obj.get("message")
            if isinstance(message, dict):
                content = message.get("content")
            elif "content" in obj:
                content = obj["content"]
            else:
                return False
            if role == "user":
                return self._user(number, content)
            return self._assistant(number, content)
        if role in ("system", "tool"):
            return True
        kind = obj.get("type")
        if kind == "turn_ended":
            self.convo.end_turn()
            return True
        return kind == "metadata"

    def _user(self, number: int, content: object) -> bool:
        if isinstance(content, str):
            blocks = [content]
        elif isinstance(content, list):
            if any(isinstance(b, dict) and b.get("type") in _RESULT_BLOCKS for b in content):
                return True  # a tool's result, not something the user said
            blocks = [b["text"] for b in content
                      if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
        else:
            return False
        self.convo.user(number, blocks)
        return True

    def _assistant(self, number: int, content: object) -> bool:
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            return False
        texts: list[str] = []
        tools = False
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text" and isinstance(block.get("text"), str):
                texts.append(_unredact(block["text"]))
            elif kind in _TOOL_BLOCKS:
                tools = True
                if block.get("name") in _PLAN_TOOLS and isinstance(block.get("input"), dict):
                    self._plan(block["input"])
        text = "".join(texts).strip()
        if text:
            self.convo.assistant(number, text[:_MAX_KEPT], tools)
        return True

    def _plan(self, args: dict[str, Any]) -> None:
        plan = "\n\n".join(v for k in _PLAN_FIELDS if isinstance(v := args.get(k), str))
        self.convo.voice.assistant(plan[:_MAX_KEPT])


def _carries_nothing(data: bytes) -> bool:
    """A cheap, conservative test: an assistant line with no text block and no plan (tool
    calls only), which no turn and no echo needs. Compact JSON only."""
    return (data.lstrip().startswith(b'{"role":"assistant"') and b'"type":"text"' not in data
            and b'"type": "text"' not in data and b"reate_plan" not in data
            and b"reatePlan" not in data)


def _unredact(text: str) -> str:
    while text.rstrip().endswith(_REDACTED):
        text = text.rstrip()[: -len(_REDACTED)].rstrip()
    return text


# -- plain text (.txt, before 2026) --------------------------------------------------------

_MARKER = re.compile(r"(user|assistant|A):[ \t]*")
_REPLY_END = tuple('.!?:)*"\'`。！？：）」')
_LIST_ITEM = re.compile(r"(?:[-*+>|]|\d+[.)])(?:\s|$)")


class _TextReader(_Reader):
    """``user:`` and ``assistant:`` blocks, each starting on a line of its own after a
    blank line, the file's start or a ``</user_query>`` line. Cursor writes the file whole, without a newline
    after its last line, so a last line is read although it has none."""

    def __init__(self, start: int) -> None:
        super().__init__(start)
        self.block: _UserBlock | _Segment | None = None
        self.after_blank = True
        self.after_query = False  # the line before closed a user block's query

    def accept(self, complete: bool, counted: bool) -> bool:
        return True

    def line(self, number: int, data: bytes, fresh: bool) -> None:
        block = self.block
        if (isinstance(block, _Segment) and block.mode in ("tool", "result") and not block.in_plan
                and not data.startswith((b"[", b"user:", b"assistant:", b"A:"))):
            self.after_blank = not data.strip()  # a tool's arguments or result: nothing to keep
            return
        text = data.decode("utf-8", "replace").rstrip("\r\n")
        marker = _MARKER.fullmatch(text) if self.after_blank or self.after_query else None
        if marker is not None and not (isinstance(self.block, _Segment) and self.block.fence):
            self._close()
            self.block = _UserBlock(number) if marker.group(1) == "user" else _Segment(number)
        elif self.block is not None:
            self.block.add(number, text)
        elif text.strip() and fresh:
            self.skipped += 1  # text ahead of the first block
        self.after_blank = not text.strip()
        self.after_query = isinstance(self.block, _UserBlock) and text.rstrip().endswith("</user_query>")

    def _close(self) -> None:
        block, self.block = self.block, None
        if isinstance(block, _UserBlock):
            text = block.text()
            if text is None:
                self.skipped += int(block.line >= self.convo.first_line)
            else:
                self.convo.user(block.line, [text])
        elif isinstance(block, _Segment):
            if block.thinking:
                self.convo.voice.assistant("\n".join(block.thinking))
            if block.plan:
                self.convo.voice.assistant("\n".join(block.plan))
            text = "\n".join(block.text).strip()
            if text:
                self.convo.assistant(block.text_line, text, block.tools)

    def finish(self) -> list[Turn]:
        self._close()
        return super().finish()


class _UserBlock:
    """The lines of a ``user:`` block. A block longer than ``_MAX_KEPT`` keeps only what
    starts at its last ``<user_query>`` line (attached files come before the query)."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.lines: list[str] = []
        self.size = 0
        self.overflow = False

    def add(self, number: int, text: str) -> None:
        if self.overflow and text.lstrip().startswith("<user_query>"):
            self.lines, self.size, self.overflow = [], 0, False
        if self.overflow:
            return
        self.lines.append(text)
        self.size += len(text) + 1
        if self.size > _MAX_KEPT:
            starts = [i for i, t in enumerate(self.lines) if t.lstrip().startswith("<user_query>")]
            if starts and starts[-1] > 0:
                self.lines = self.lines[starts[-1]:]
                self.size = sum(len(t) + 1 for t in self.lines)
            if self.size > _MAX_KEPT:
                self.lines, self.size, self.overflow = [], 0, True

    def text(self) -> str | None:
        return None if self.overflow else "\n".join(self.lines)


class _Segment:
    """One assistant message: thinking, then its text, then its tool calls and results.
    Where a ``[Thinking]`` section ends and the text begins is not marked; the text is
    taken to start at a line that follows a finished sentence on the line before it and
    does not continue a list (thinking paragraphs are separated by blank lines)."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.mode = "text"  # text | thinking | think-tag | tool | result
        self.text: list[str] = []
        self.text_line = line
        self.thinking: list[str] = []
        self.plan: list[str] = []
        self.tools = False
        self.in_plan = False
        self.fence = False
        self.previous = ""
        self.size = 0

    def add(self, number: int, text: str) -> None:
        if text.startswith("[Thinking]"):
            self.mode, self.fence = "thinking", False
            self.previous = text[len("[Thinking]"):].strip()
            self._keep(self.thinking, self.previous)
            return
        if text.startswith("[Tool call]"):
            self.mode, self.fence, self.tools = "tool", False, True
            self.in_plan = text[len("[Tool call]"):].strip() in _PLAN_TOOLS
            return
        if text.startswith("[Tool result]"):
            self.mode, self.fence = "result", False
            return
        if self.mode == "tool":
            if self.in_plan:
                self._keep(self.plan, text.strip())
            return
        if self.mode == "result":
            return
        if self.mode == "text" and not self.text and text.strip() == "<think>":
            self.mode = "think-tag"
            return
        if self.mode == "think-tag":
            if text.strip() == "</think>":
                self.mode = "text"
            else:
                self._keep(self.thinking, text)
            return
        if self.mode == "thinking":
            if self.fence or not _starts_reply(self.previous, text):
                self._fence(text)
                self._keep(self.thinking, text)
                self.previous = text
                return
            self.mode = "text"
        if not self.text:
            if not text.strip():
                return
            self.text_line = number
        self._fence(text)
        self._keep(self.text, text)

    def _fence(self, text: str) -> None:
        if text.lstrip().startswith("```"):
            self.fence = not self.fence

    def _keep(self, into: list[str], text: str) -> None:
        if self.size < _MAX_KEPT:
            into.append(text)
            self.size += len(text) + 1


def _starts_reply(previous: str, text: str) -> bool:
    """Whether ``text`` opens the reply after a thinking section ending with ``previous``."""
    before, line = previous.rstrip(), text.rstrip()
    if not before or not line or line[0].isspace() or not before.endswith(_REPLY_END):
        return False
    if line[0].isascii() and line[0].islower():
        return False  # a sentence going on
    return line.startswith("**") or not _LIST_ITEM.match(line)


# -- where Cursor keeps them ---------------------------------------------------------------

_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")
_NON_ALNUM_CHAR = re.compile(r"[^A-Za-z0-9]")
_HASHED = re.compile(r"(.+)-([0-9a-f]{7})")
_MIN_HASHED_PREFIX = 40
_TRUST_FILE = ".workspace-trusted"
_TRUST_BYTES = 64 * 1024


def folder_name(path: str) -> str:
    """Cursor's folder name for a workspace path: runs of non-alphanumerics become '-'."""
    return _NON_ALNUM.sub("-", path).strip("-")


def _roots(project_root: str) -> set[str]:
    roots = {os.path.abspath(project_root), os.path.realpath(project_root)}
    for root in list(roots):
        if re.match(r"[A-Za-z]:", root):  # the IDE writes c:\..., the CLI C:\...
            roots.update({root[0].lower() + root[1:], root[0].upper() + root[1:]})
    return roots


def _names(project_root: str) -> set[str]:
    """This project's folder names: Cursor's, and the one-dash-per-character spelling some
    tools use for it (a name only paths of the same lossy class share)."""
    roots = _roots(project_root)
    return {folder_name(r) for r in roots} | {_NON_ALNUM_CHAR.sub("-", r.lstrip("/\\")) for r in roots}


def _hashes(project_root: str) -> set[str]:
    sources = _roots(project_root) | _names(project_root)
    return {hashlib.sha256(s.encode("utf-8", "surrogatepass")).hexdigest()[:7] for s in sources}


def _name_matches(name: str, project_root: str, *, verified: bool) -> bool:
    """Whether a projects/ folder name stands for this project. Long paths are cut and
    given a 7-hex suffix; such a name matches when its head begins this project's name
    and (``verified``) the suffix is a SHA-256 of its path or name."""
    names = _names(project_root)
    if name in names:
        return True
    hashed = _HASHED.fullmatch(name)
    if hashed is None or len(hashed.group(1)) < _MIN_HASHED_PREFIX:
        return False
    if not any(full.startswith(hashed.group(1)) for full in names):
        return False
    return not verified or hashed.group(2) in _hashes(project_root)


def trusted_workspace(folder: str) -> str | None:
    """The workspace a projects/ folder says it is for (``.workspace-trusted``)."""
    try:
        with open_regular(os.path.join(folder, _TRUST_FILE)) as f:
            data = json.loads(f.read(_TRUST_BYTES).decode("utf-8", "replace"))
    except (OSError, ValueError, RecursionError):
        return None
    path = data.get("workspacePath") if isinstance(data, dict) else None
    return path if isinstance(path, str) and path.strip() else None


def _data_dirs(home: str, env: Mapping[str, str]) -> list[str]:
    dirs = [d for d in (env.get("CURSOR_DATA_DIR"), os.path.join(home, ".cursor")) if d]
    return list(dict.fromkeys(dirs))


def discover(project_root: str, home: str, env: Mapping[str, str]) -> Iterable[str]:
    found: set[str] = set()
    for base in _data_dirs(home, env):
        try:
            entries = list(os.scandir(os.path.join(base, "projects")))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir() and _is_project_folder(entry.path, entry.name, project_root):
                found.update(sessions(os.path.join(entry.path, "agent-transcripts")))
    return sorted(found)


def _is_project_folder(folder: str, name: str, project_root: str) -> bool:
    trusted = trusted_workspace(folder)
    if trusted is not None:
        return same_dir(trusted, project_root)
    return _name_matches(name, project_root, verified=True)


def sessions(transcripts: str) -> Iterator[str]:
    """The conversations of one agent-transcripts/ folder, one file each (sub-agents left
    out): ``<id>/<id>.jsonl``, else ``<id>.jsonl``, else ``<id>/<id>.txt``, else ``<id>.txt``."""
    try:
        entries = list(os.scandir(transcripts))
    except OSError:
        return
    best: dict[str, tuple[int, str]] = {}

    def offer(key: str, rank: int, path: str) -> None:
        if key not in best or rank < best[key][0]:
            best[key] = (rank, path)

    for entry in entries:
        stem, ext = os.path.splitext(entry.name)
        if entry.is_file() and ext in (".jsonl", ".txt"):
            offer(stem, 1 if ext == ".jsonl" else 3, entry.path)
        elif entry.is_dir() and entry.name != "subagents":
            for ext, rank in ((".jsonl", 0), (".txt", 2)):
                nested = os.path.join(entry.path, entry.name + ext)
                if os.path.isfile(nested):
                    offer(entry.name, rank, nested)
    yield from (path for _, path in best.values())


def belongs(path: str, project_root: str) -> bool:
    """A file a configured glob found: refused when it is a sub-agent's, or when its
    projects/ folder names another directory (its ``.workspace-trusted``, else its name).
    A file outside that layout, or in a folder named by a number (a window with no
    folder open), names no directory and is accepted."""
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.basename(parent) == "subagents":
        return False
    if os.path.basename(parent) == "agent-transcripts":
        folder = os.path.dirname(parent)
    elif os.path.basename(os.path.dirname(parent)) == "agent-transcripts":
        folder = os.path.dirname(os.path.dirname(parent))
    else:
        return True
    trusted = trusted_workspace(folder)
    if trusted is not None:
        return same_dir(trusted, project_root)
    name = os.path.basename(folder)
    return name.isdigit() or _name_matches(name, project_root, verified=False)
