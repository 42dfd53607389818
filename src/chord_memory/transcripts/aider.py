"""Aider chat history: the Markdown log ``.aider.chat.history.md`` in the directory aider ran in.

Aider appends to one file per project (its git root by default); every run adds a
``# aider chat started at <time>`` header, and all runs in the file are one transcript.
``aider/io.py`` writes four kinds of text, each in one write:

- what was sent as the user's message: ``\\n#### line  \\n#### line  \\n`` (every line
  prefixed, every line ending with two spaces);
- aider's own output (tool output, warnings, confirmations, edits applied, commits,
  token counts): ``> text  \\n``, the prefix on the first line only;
- the model's reply: ``\\n<reply>\\n\\n``, with no prefix;
- the header.

The first releases (May 2023) wrote ``_text_  `` notes and ``---`` before ``#### >  <prompt>``
under a ``# Aider chat started at`` header; those runs are read too.

The two trailing spaces tell a logged line from the model's own Markdown (a ``#### ``
heading, a ``> `` quote) in files that keep them; files whose trailing spaces were
stripped are read with the prefixes alone. Not everything aider logs as ``####`` was
typed: the architect's plan handed to the editor model, the question ``/ask`` and
``/code`` log a second time, ``/help``'s docs, ``/lint``'s errors, answers to a
"(Y)es/(N)o/(A)ll" question: those are dropped (docs/transcripts.md has the table).
The reply of a turn is the model's last reply before the next prompt, without its
reasoning and without the edits aider applies from it (its tool calls). See
docs/transcripts.md.
"""
from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from typing import IO

from chord_memory.paths import open_regular
from chord_memory.transcripts import Session, Turn, jsonl, session
from chord_memory.transcripts.typed import DROP, Harness, Rule, Voice

KIND = "aider"
UNIT = "bytes"
HISTORY_NAME = ".aider.chat.history.md"
CONFIG_NAME = ".aider.conf.yml"
ENV_FILE = ".env"
ENV_VAR = "AIDER_CHAT_HISTORY_FILE"
_CONFIG_KEYS = ("chat-history-file", "chat_history_file")

# Text aider logs as the user's message that the user did not type (prefix rules; the
# rules that need the log's structure are in _Parser.prompt, and both are in the docs).
HARNESS = Harness((
    Rule("/help: the docs aider looked up for the question", "# Question:", DROP),
    Rule("/lint: the linter's errors sent to the model", "# Fix any errors below, if possible.", DROP),
))

_HEADER = b"# aider chat started at "
# The first releases (May 2023) wrote "# Aider chat started at", their own output as
# "_text_  " or "*text*  " lines, and "---" before "#### >  <prompt>".
_LEGACY_HEADER = b"# Aider chat started at "
_LEGACY_PROMPT = re.compile(r"\A>\s+")
_PROBE_BYTES = 256 * 1024
_MAX_ELEMENT = jsonl.MAX_LINE_BYTES  # a prompt or a reply larger than this is skipped
_MAX_RECENT = 8 * 1024 * 1024  # characters of this turn's replies kept to spot a hand-off
_OK = "Ok, please go ahead and make those changes."  # what /ok sends (via /code)
# A "(Y)es/(N)o/(A)ll/(S)kip all" answer that a group preference gave: logged as input.
_CONFIRM = re.compile(r"\(Y\)es/\(N\)o\b.*\]: *\S* *$", re.IGNORECASE)
# `aider --test` (before 0.60-ish) ran the tests and sent their failure as the message.
_RUN_OUTPUT = re.compile(r"\AI ran this command:\n\n.*?\n\n(?:And got|Which produced) this output:",
                         re.DOTALL)
_REASONING = re.compile(
    r"<(thinking-content-[0-9a-f]+|think|thinking|reasoning)>.*?</\1>"
    r"|-----\s*\n\*\*► THINKING\*\*.*?-----\s*\n\*\*► ANSWER\*\*",
    re.DOTALL,
)
_REASONING_CLOSE = re.compile(r"</thinking-content-[0-9a-f]+>")
_SPACE = re.compile(r"\s+")
# Edits in the reply (aider applies them: its tool calls): a fenced block, with the line
# before it (a file name in the "whole" and "diff" formats), ...
_FENCED = re.compile(r"^(?:([^\s`~][^\n]*)\n)?(`{3,}|~{3,})([^\n]*)\n(.*?)^\2[ \t]*$\n?",
                     re.MULTILINE | re.DOTALL)
# ... SEARCH/REPLACE blocks written without a fence, and the "patch" format.
_BARE_EDITS = re.compile(r"^<{5,9} (?:SEARCH|ORIGINAL)[^\n]*\n.*?^>{5,9} (?:REPLACE|UPDATED)[^\n]*$\n?"
                         r"|^\*\*\* Begin Patch[^\n]*\n.*?^\*\*\* End Patch[^\n]*$\n?",
                         re.MULTILINE | re.DOTALL)
_FILE_NAME = re.compile(r"[\w.\-/\\]*(?:[/\\][\w.\-]+|\w\.[A-Za-z0-9]{1,10})")
_GAPS = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")  # where an edit was
_EDIT_MARKS = ("```", "~~~", "<<<<<<< SEARCH", "<<<<<<< ORIGINAL", "*** Begin Patch")

# What the parser is in the middle of.
_NONE, _USER, _REPLY, _TOOL = range(4)
_QUIET = (_NONE, _TOOL)  # states a line of aider's output only moves to _NONE


def read(path: str, start_offset: int = 0) -> Session:
    """The prompts and replies of ``path`` from ``start_offset`` (a byte offset)."""
    with open_regular(path) as f:
        aider, strict = _probe(f)
        f.seek(0)
        parser = _Parser(strict)
        end_offset, skipped = _scan(f, start_offset, parser if aider else None)
    return session(KIND, path, session_id(path), _cwd(path), parser.finish(), start_offset,
                   jsonl.Scan(end_offset, skipped + parser.skipped))


def session_id(path: str) -> str:
    """``aider-`` and a short hash of the file's real path (the file names no session)."""
    digest = hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape"))
    return "aider-" + digest.hexdigest()[:12]


def _cwd(path: str) -> str:
    return os.path.dirname(os.path.abspath(path))


def _probe(f: IO[bytes]) -> tuple[bool, bool]:
    """(an aider log?, are the two trailing spaces kept?) from the file's first lines.

    A log is one with a header, or with lines ending as aider ends them. Strict (the
    spaces are kept) unless most ``#### `` and ``> `` lines lack them.
    """
    head = f.read(_PROBE_BYTES)
    lines = head.split(b"\n")
    if len(head) == _PROBE_BYTES:
        lines.pop()  # cut by the probe
    header, marked, unmarked = False, 0, 0
    for line in lines:
        line = line.rstrip(b"\r")
        if line[:len(_HEADER)].lower() == _HEADER:
            header = True
        elif line.startswith((b"#### ", b"> ")) or line in (b"####", b">"):
            if line.endswith(b"  "):
                marked += 1
            else:
                unmarked += 1
    return header or marked >= 2, marked >= unmarked


def _scan(f: IO[bytes], start_offset: int, parser: _Parser | None) -> tuple[int, int]:
    """Feed the lines to ``parser`` (those before ``start_offset`` only prime it).

    The lines most of a long log is made of (aider's own output, the lines of a reply)
    are handled here, without a call; every other line goes to ``_Parser.line``.
    """
    end_offset, skipped, offset, number = start_offset, 0, 0, 0
    emitting = start_offset == 0
    if parser is not None:
        parser.emit = emitting
    p = parser if parser is not None else _Parser(True)
    strict = p.strict
    readline, limit = f.readline, jsonl.MAX_LINE_BYTES + 1
    while True:
        raw: bytes | None = readline(limit)
        if not raw:
            break
        start, number = offset, number + 1
        offset += len(raw)
        complete = raw.endswith(b"\n")
        if not complete and len(raw) == limit:  # longer than MAX_LINE_BYTES: read past it
            offset, complete = _discard_rest(f, offset)
            raw = None
        if not emitting and offset > start_offset:
            emitting = True
            if parser is not None:
                parser.begin_emit()
            if start < start_offset:  # the offset is not at a line start
                if complete:
                    end_offset = offset
                skipped += 1
                continue
        if not complete:
            if emitting:
                skipped += 1  # a write in progress: not consumed, read again later
                if parser is not None:
                    end_offset = parser.hold_back(raw or b"", end_offset)
            break
        if emitting:
            end_offset = offset
        if raw is None:
            skipped += 1 if emitting else 0  # longer than MAX_LINE_BYTES: not kept
            continue
        if parser is None:
            skipped += 1 if emitting and raw.strip() else 0  # not an aider log
            continue
        state, head = p.state, raw[:1]
        if head != b"#" and head != b">" and not raw.isspace() and not (
                p.legacy and head in b"-_*"):
            if state == _REPLY:  # a line of the reply
                p.prev_blank = False
                if not p.over:
                    p.size += len(raw)
                    if p.size > _MAX_ELEMENT:
                        p.over, p.parts = True, []
                    else:
                        p.parts.append(raw[:-1])
                continue
            if state == _TOOL:  # a line of aider's output of several lines
                p.prev_blank = False
                if strict and (raw.endswith(b"  \n") or raw.endswith(b"  \r\n")):
                    p.state = _NONE
                continue
        elif (strict and state in _QUIET and raw.startswith(b"> ")
              and (raw.endswith(b"  \n") or raw.endswith(b"  \r\n"))):
            p.state, p.prev_blank = _NONE, False  # one line of aider's output
            continue
        p.line(number, raw, start)
    return end_offset, skipped


def _discard_rest(f: IO[bytes], end: int) -> tuple[int, bool]:
    """Read past the rest of an oversized line in chunks: (its end, whether it ended)."""
    while True:
        chunk = f.readline(1024 * 1024)
        end += len(chunk)
        if not chunk:
            return end, False
        if chunk.endswith(b"\n"):
            return end, True


def _command(text: str) -> tuple[str, str]:
    """(command, its arguments) of a message starting with ``/`` or ``!`` (aider's split)."""
    if text.startswith("!"):
        return "!", text[1:].strip()
    parts = text.split(None, 1)
    return parts[0], parts[1].strip() if len(parts) > 1 else ""


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def without_reasoning(text: str) -> str:
    """A reply without the model's reasoning (aider logs it inside tags)."""
    if "<think" not in text and "<reasoning>" not in text and "► THINKING" not in text:
        return text.strip()
    text = _REASONING.sub("", text)
    close = _REASONING_CLOSE.search(text)
    if close is not None:  # a closing tag without its opening: the reasoning is before it
        text = text[close.end():]
    return text.strip()


def without_edits(reply: str) -> str:
    """A reply without the file edits aider applies from it (SEARCH/REPLACE blocks, whole
    files after their name, unified diffs, patches); other code blocks stay."""
    if not any(mark in reply for mark in _EDIT_MARKS):
        return reply
    kept = _BARE_EDITS.sub("", _FENCED.sub(_edit_or_code, reply))
    return reply if kept == reply else _GAPS.sub("\n\n", kept).strip()


def _edit_or_code(m: re.Match[str]) -> str:
    before, info, body = m.group(1) or "", m.group(3).strip(), m.group(4)
    if "<<<<<<< SEARCH" in body or "<<<<<<< ORIGINAL" in body or "*** Begin Patch" in body:
        return ""  # the "diff", "diff-fenced" and "patch" formats (ORIGINAL/UPDATED: 2023)
    if info == "diff" and ("\n+++ " in body or body.startswith(("--- ", "+++ ", "@@"))):
        return ""  # the "udiff" format (its file names are inside)
    name = before.strip().strip("`*:")
    if name and _FILE_NAME.fullmatch(name):
        return ""  # the "whole" format: a file's name, then all of the file
    return m.group(0)


class _Parser:
    """The state machine over the log's lines; turns are recorded only while ``emit``."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.emit = True
        self.voice = Voice(HARNESS)
        self.turns: list[Turn] = []
        self.skipped = 0
        self.state = _NONE
        self.prev_blank = True
        # the prompt or reply being read
        self.parts: list[bytes] = []
        self.size = 0
        self.first_line = 0
        self.first_offset = 0
        self.over = False
        # the reply a "####" block followed, kept until the block is known to be a message
        self.held: tuple[list[bytes], int, bool, int, int] | None = None
        # the turn
        self.pending: Turn | None = None  # the last reply since the prompt
        self.recent: list[str] = []  # this turn's replies (to spot a hand-off)
        self.recent_chars = 0
        self.expect: str | None = None  # what a chat command logs again as the next message
        self.legacy = False  # in a run of the first releases

    # -- lines -------------------------------------------------------------------------------

    def line(self, number: int, raw: bytes, start: int) -> None:
        body = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1] if raw.endswith(b"\n") else raw
        if not body.strip():
            self._blank(body)
            return
        head = body[:1]
        if self.legacy and head in b"-_*" and self._legacy(body):
            return
        blank_before, self.prev_blank = self.prev_blank, False
        if head == b"#":
            if body[:len(_HEADER)].lower() == _HEADER:
                self._close()
                self.state, self.expect = _NONE, None
                self.legacy = body.startswith(_LEGACY_HEADER)
                return
            if body.startswith(b"####") and body[4:5] in (b" ", b"") and self._user_line(
                    body, blank_before):
                if self.state == _REPLY:  # the reply ends here, unless text follows the block
                    self.held = (self.parts, self.size, self.over, self.first_line,
                                 self.first_offset)
                    self._open(_USER, number, start)
                elif self.state != _USER:
                    self._close()
                    self._open(_USER, number, start)
                self._add(body[5:])
                return
        elif head == b">" and body[1:2] in (b" ", b""):
            if not self.strict:
                self._close()
                self.state = _TOOL  # continued by the lines that follow, up to a blank line
                return
            if body.endswith(b"  "):  # one whole line of aider's output
                self._close()
                self.state = _NONE
                return
            if self.state == _TOOL or not (self.state == _REPLY or blank_before):
                self._close()
                self.state = _TOOL  # aider's output of several lines: up to its last line
                return
            # else a quote in the model's reply: read on as reply text
        if self.state == _TOOL:
            if self.strict and body.endswith(b"  "):
                self.state = _NONE  # the last line of aider's output
            return
        if self.state == _USER:
            self._fold()  # aider writes nothing right after a message: these were the reply's
        if self.state != _REPLY:
            self._close()
            self._open(_REPLY, number, start)
        self._add(body)

    def _legacy(self, body: bytes) -> bool:
        """A line the first releases wrote: their separator before a message, or their own
        output. Read and done with when True."""
        if body == b"---":
            self._blank(body)  # the separator that opens a message
            return True
        if self.strict and body[-3:] in (b"_  ", b"*  ") and len(body) > 4:
            self._close()
            self.state, self.prev_blank = _NONE, False
            return True
        return False

    def _user_line(self, body: bytes, blank_before: bool) -> bool:
        if self.state != _USER and not blank_before:
            return False  # aider starts every message with a blank line
        if self.strict:
            return body.endswith(b"  ")
        if self.state == _REPLY:
            return False  # without the trailing spaces: a heading in the model's reply
        return bool(body[5:].strip()) or self.state == _USER

    def _blank(self, body: bytes) -> None:
        self.prev_blank = True
        if self.state == _USER:
            self._close()
            self.state = _NONE
        elif self.state == _REPLY:
            self._add(b"")
        elif self.state == _TOOL and not self.strict:
            self.state = _NONE

    def _open(self, state: int, number: int, start: int) -> None:
        self.state, self.first_line, self.first_offset = state, number, start
        self.parts, self.size, self.over = [], 0, False

    def _add(self, data: bytes) -> None:
        if self.over:
            return
        self.size += len(data) + 1
        if self.size > _MAX_ELEMENT:
            self.over, self.parts = True, []
            return
        self.parts.append(data)

    def _close(self) -> None:
        """Finish the prompt or reply being read."""
        state, parts, over = self.state, self.parts, self.over
        self.parts, self.size, self.over = [], 0, False
        if state not in (_USER, _REPLY):
            return
        self.state = _NONE
        if self.held is not None:  # the reply the message followed
            held_parts, _, held_over, held_line, _ = self.held
            self.held = None
            self._finish(_REPLY, held_parts, held_over, held_line)
        self._finish(state, parts, over, self.first_line)

    def _finish(self, state: int, parts: list[bytes], over: bool, number: int) -> None:
        if over:
            self.skipped += 1 if self.emit else 0
            return
        data = b"\n".join(parts)
        if b"\r" in data:  # Windows line ends (the fast path keeps the \r)
            data = data.replace(b"\r\n", b"\n").rstrip(b"\r")
        text = data.decode("utf-8", "replace")
        if state == _USER:
            self.prompt("\n".join(line.rstrip() for line in text.split("\n")), number)
        else:
            self.reply(text, number)

    def _fold(self) -> None:
        """The ``####`` lines just read are the model's (a heading followed by its text)."""
        lines, over = [b"#### " + part for part in self.parts], self.over
        if self.held is not None:
            self.parts, self.size, held_over, self.first_line, self.first_offset = self.held
            self.held, self.over = None, held_over
        else:
            self.parts, self.size, self.over = [], 0, False
        self.state = _REPLY
        if over:
            self.over, self.parts = True, []
        for line in lines:
            self._add(line)

    # -- what the lines say ----------------------------------------------------------------

    def prompt(self, text: str, number: int) -> None:
        """A message aider logged as the user's: a turn when the user typed it."""
        if self.legacy:
            text = _LEGACY_PROMPT.sub("", text.strip())  # "#### >  <prompt>"
        stripped = text.strip()
        if not stripped or stripped == "<blank>":
            return  # an empty input
        if "\n" not in stripped and _CONFIRM.search(stripped):
            return  # an answer aider took from "(A)ll" / "(S)kip all"
        if stripped.startswith("I ran this command:") and _RUN_OUTPUT.match(stripped):
            return  # a command's output aider sent (aider --test)
        norm = _norm(stripped)
        expect, self.expect = self.expect, None
        if norm == expect:
            return  # /ask, /code, /architect, /context, /ok: the message logged again
        if self._handed_off(norm):
            return  # architect mode: the plan handed to the editor model
        if stripped[0] in "/!":  # a command: kept as typed; some log their message again
            name, args = _command(stripped)
            if name == "/ok":
                self.expect = _norm(f"{_OK} {args}")
            elif args:
                self.expect = _norm(args)
        typed = self.voice.user([text])
        if typed is None:
            return  # injected text: not a prompt, the turn goes on
        self.recent, self.recent_chars = [], 0
        if self.emit:
            self._flush()
            self.turns.append(Turn("user", typed, number))

    def reply(self, text: str, number: int) -> None:
        said = without_reasoning(text)
        if not said:
            return
        self.recent.append(said)  # as aider hands it to the editor model
        self.recent_chars += len(said)
        while self.recent_chars > _MAX_RECENT and len(self.recent) > 1:
            self.recent_chars -= len(self.recent.pop(0))
        clean = without_edits(said)
        if not clean:
            return  # only edits: like a message of tool calls, it is not the reply
        self.voice.assistant(clean)
        if self.emit:
            self.pending = Turn("assistant", clean, number)

    def _handed_off(self, norm: str) -> bool:
        """Whether a message is (a part of) a reply of this turn: the architect's plan,
        which aider logs again as the editor model's input."""
        words = norm.split(" ")[:8]
        if not norm or not self.recent:
            return False
        probe = re.compile(r"\s+".join(map(re.escape, words)))  # cheap, on the raw text
        for reply in self.recent:
            if probe.search(reply) is not None:
                whole = _norm(reply)
                if norm == whole or (len(norm) >= 80 and norm in whole):
                    return True
        return False

    def _flush(self) -> None:
        if self.pending is not None:
            self.turns.append(self.pending)
            self.pending = None

    # -- reads that start or stop mid-file ---------------------------------------------------

    def begin_emit(self) -> None:
        """The resumed read's first line: what was read before it is the earlier read's."""
        self._close()
        self.emit = True
        self.pending = None

    def hold_back(self, partial: bytes, end_offset: int) -> int:
        """The last line is unterminated: leave the prompt or reply it may continue unread."""
        cont = (self.state == _USER and not partial.startswith((b">", b"# "))) or (
            self.state == _REPLY and not partial.startswith((b">", b"#### ", b"# ")))
        if not cont:
            return end_offset
        first = self.held[4] if self.held is not None else self.first_offset
        self.parts, self.size, self.over, self.state, self.held = [], 0, False, _NONE, None
        return first

    def finish(self) -> list[Turn]:
        self._close()
        self._flush()
        return sorted(self.turns, key=lambda turn: turn.line)


# -- discovery -----------------------------------------------------------------------------


def discover(project_root: str, home: str, env: Mapping[str, str]) -> Iterable[str]:
    """This project's chat history: ``<project>/.aider.chat.history.md``, and the file
    ``chat-history-file`` names in the project's or the home ``.aider.conf.yml``, in the
    project's ``.env`` or in ``$AIDER_CHAT_HISTORY_FILE`` (relative names are taken from
    the project root, where aider runs). A file outside the project is not its own."""
    root = os.path.abspath(project_root)
    names = [HISTORY_NAME]
    for conf in (os.path.join(home, CONFIG_NAME), os.path.join(root, CONFIG_NAME)):
        names += _configured(conf)
    names += _dotenv(os.path.join(root, ENV_FILE))
    if env.get(ENV_VAR):
        names.append(env[ENV_VAR])
    found: list[str] = []
    for name in names:
        if name == "~" or name.startswith("~/"):
            name = home + name[1:]
        path = os.path.normpath(os.path.join(root, name))
        if os.path.isfile(path) and belongs(path, root) and path not in found:
            found.append(path)
    return found


def belongs(path: str, project_root: str) -> bool:
    """Whether the history file lies in the project (aider names no directory in it)."""
    real, root = os.path.realpath(path), os.path.realpath(project_root)
    try:
        return os.path.commonpath([real, root]) == root
    except ValueError:  # different drives
        return False


def _configured(conf: str) -> list[str]:
    """The ``chat-history-file`` a YAML config names, if it names one."""
    try:
        with open_regular(conf) as f:
            data = f.read(1024 * 1024)
    except OSError:
        return []
    try:
        import yaml

        doc = yaml.safe_load(data.decode("utf-8", "replace"))
    except Exception:  # a config aider would refuse too
        return []
    if not isinstance(doc, dict):
        return []
    return [v for k in _CONFIG_KEYS if isinstance(v := doc.get(k), str) and v.strip()]


def _dotenv(path: str) -> list[str]:
    """``AIDER_CHAT_HISTORY_FILE=...`` in the project's ``.env`` (aider loads it)."""
    try:
        with open_regular(path) as f:
            data = f.read(1024 * 1024).decode("utf-8", "replace")
    except OSError:
        return []
    found = []
    for line in data.splitlines():
        key, sep, value = line.strip().removeprefix("export ").partition("=")
        if sep and key.strip() == ENV_VAR:
            value = value.strip().strip("'\"")
            if value:
                found.append(value)
    return found
