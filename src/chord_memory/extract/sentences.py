"""From a user turn to the sentences the offline rules judge, and a statement fit to keep.

What people type is not prose: bullet lists, numbered steps, pasted logs and code,
lower-case run-ons joined by "btw" and "also". This module cuts a turn into
sentences (code, logs and stack traces left out), groups a list of steps into one
workflow, and takes out of a statement what must not be memory: URLs, machine
paths, hostnames (docs/extraction.md, "The offline rules").
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import NamedTuple

from chord_memory.text import REDACTED

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_END = re.compile(r"[.!?]+[\"')\]]*\s+(?=[\"'(\[]?[\w`@*_~/.])")
_ABBREVIATION = re.compile(r"(?i)(?:^|[\s(])(?:e\.g|i\.e|etc|vs|approx|cf|fig|no|nr|mr|mrs|ms|dr|st|jr|sr|"
                           r"incl|excl|esp|min|max|avg|ca|\d{1,2}|[a-z])\.$")  # "1." may number a step;
# "pin it to 1.24.4. and from now on ..." ends one
# Where a run-on changes subject: "... there btw the CI box ...", "... ok also please ..."
# ("note" and "ps" only with their colon or comma, or "note that": "'best note app'", "ps aux")
_ASIDE = re.compile(r"\s+(?=(?:btw|fyi|also|oh and|and also|p\.s\.|side note|heads up)\b[,:]?\s|"
                    r"(?:ps|note)[,:]\s|note that\s)", re.I)
# "also" that is an adverb of its clause, not the start of another: "we also ...", "the converter
# also mangled ...", "it also needs ..."
_ALSO_BEFORE = re.compile(r"(?i)\b(?:we|i|it|they|you|he|she|which|who|that|this|there|is|are|was|"
                          r"were|can|could|should|must|will|would|may|might|do|does|did|has|have|had|not)$")
_ALSO_AFTER = re.compile(r"(?i)also,?\s+(?:\w+ed|is|are|was|were|has|had|does|did|needs|uses|runs|breaks|"
                         r"works|fails|gets|goes|means|applies|lives|sets|adds|calls|writes|reads|takes|makes|checks|sends|"
                         r"holds|keeps|exports|imports|supports|depends|requires|contains|includes|affects|changes|"
                         r"happens|counts|matters|comes|ships|owns|pulls|pushes|has to|need to|needs to)\b")
_OPEN_QUOTE = re.compile(r"(?:^|[\s(\[])['\"\u2018\u201c](?=\w)")
_CLOSE_QUOTE = re.compile(r"(?<=[\w.!?])['\"\u2019\u201d](?=$|[\s.,;:!?)\]])")
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d{1,2}[.)]|[a-z][.)]|\(\d{1,2}\))\s+")
_DOT = re.compile(r"^\s*[-*•]\s+")
_INLINE_STEP = re.compile(r"(?:^|\s)\(?([1-9])[.)]\s+")
_STEP = re.compile(r"^\s*(?:\d{1,2}[.)]|\(\d{1,2}\)|step \d{1,2}:?)\s+", re.I)
_LOG_LINE = re.compile(
    r"^\s*(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[?\d\d:\d\d:\d\d|\[(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\]|"
    r"(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL)\b[: ]|Traceback \(most recent|"
    r"File \"[^\"]+\", line \d|at [\w$.<>]+\(|\s*at .+:\d+:\d+\)?$|[\w.]+(?:Error|Exception):|"
    r"npm (?:ERR|WARN)|error(?:\[\w+\])?:|warning:|E\s{2,}|>>>|\$ |PS [A-Z]:\\|[\w./-]+:\d+:\d*:? |"
    r"(?:FAILED|PASSED|FAIL|ERROR|XFAIL|SKIPPED)\b|Uncaught \w+|\w+Error:|[A-Z]\w*Warning: |panic:|"
    r"thread '.+' panicked|"
    r"(?:HINT|NOTE|DETAIL|CONTEXT|STATEMENT|LINE \d+|Starting|Running|Finished|Compiling|Building|"
    r"Downloading|"
    r"Installing|Collecting|Successfully|Expected|Received|Caused by):|'.+' is not recognized as|"
    r"[A-Z]{3,5}\[\d+\]|/?[\w./-]+: (?:[\w./-]+: )?(?:command not found|No such file|Permission denied)|"
    # a compiler's or linter's line: "x.cpp(212): error", "x.proto:42:3:Field", "Name[casing]: ...",
    # "Error: INSTALLATION FAILED: ...", and a linker's `quoted' names
    r"[\w./-]+\.\w+(?:\(\d+(?:,\d+)?\)|:\d+(?::\d+)?):|[A-Za-z]\w*\[[\w-]+\]: |(?i:error|fatal|warning)"
    r"(?:\[\w+\])?: [A-Z]|.*`[\w.-]+')")
_NUMERIC = re.compile(r"^[-+$€£(]*\d[\d.,:/%x]*[)%smkMGKB]*$")
_CODE_CHARS = re.compile(r"[{}()\[\];=<>|&$\\]")
_URL = re.compile(r"\b(?:https?|ftp|ssh|git|file)://[^\s<>\"'`)\]]+|\bwww\.[^\s<>\"'`)\]]+", re.I)
# the folders a machine's path starts from, and the endings of a host's name (the cheap test
# before these patterns, _may_name_a_place, reads the same two lists)
_ROOT_DIRS = ("home", "Users", "root", "tmp", "var", "etc", "opt", "usr", "mnt", "srv", "private", "Volumes",
              "workspace", "work", "nix", "snap", "data", "dev")
_HOST_ENDS = ("local", "internal", "lan", "corp", "intranet", "com", "net", "io", "org", "dev", "cloud",
              "edu", "gov", "uk", "de", "fr", "nl", "eu", "ch", "se", "fi", "dk", "pl", "cz", "jp", "au",
              "us")
_PATH = re.compile(rf"(?<![\w/.:~-])(?:~(?=/)|/(?:{'|'.join(_ROOT_DIRS)})\b)(?:/[^\s`'\")\],;]*)?|"
                   r"\b[A-Za-z]:\\[^\s`'\")\]]+")
_HOST = re.compile(rf"(?<![\w.@/-])(?:[a-z0-9-]+\.){{2,}}(?:{'|'.join(_HOST_ENDS)})\b(?::\d+)?|"
                   r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?(?![\w.])", re.I)
_LEADING_PREP = r"(?:\s*\b(?:at|in|from|on|to|under|via|see|like|under|over|into)\s+)?"
# a password a generator made, which no scanner's rule names (no keyword beside it: "Password please
# generate, 32 chars. The current one for app_ro is tR8#vW2q…"): twelve characters or more with an
# upper-case letter, a lower-case one, a digit and one of ``_SYMBOLS``, and no "/" (not a path, not a URL)
_SYMBOLS = "!#$%^&*~"  # not "=", "+", "@": "stacklevel=2", "v1.2+build3", "Ops1@Example.com"
_SYMBOL = re.compile(f"[{re.escape(_SYMBOLS)}]")
_GENERATED_RX = re.compile(r"(?<![^\s(\[`'\"])(?=[^\s/]*[A-Z])(?=[^\s/]*[a-z])(?=[^\s/]*\d)"
                           rf"(?=[^\s/]*[{re.escape(_SYMBOLS)}])"
                           r"[A-Za-z0-9!#$%^&*~+=@._-]{12,64}(?=[,.;:)\]`'\"]?(?:\s|$))")


# a value the user calls a key, token, secret or password ("the pd key is u+Fx7Kq2LmN9pR", "the bot
# token is 77120:AAH-fk29…"), ten characters or more with both cases and a digit: shorter or plainer
# than the generated values the scanner reports without a provider's shape (secrets/checks.py)


def _mixed_run(stops: str, lazy: bool = True) -> str:
    """A run of ten to 200 characters up to a space or one of ``stops``, with an upper-case letter,
    a lower-case one and a digit in it."""
    run = rf"[^\s{stops}]"
    return rf"(?={run}*[A-Z])(?={run}*[a-z])(?={run}*\d){run}{{10,200}}" + ("?" if lazy else "")


_STATED_VALUE = _mixed_run(r"`'\",;")
_SECRET_WORD = r"(?:token|key|secret|password|passwd|passphrase|pw|pwd|credential)s?"
_STATED_RX = re.compile(
    rf"(?i:\b(?P<before>[a-z]+[ _-])?{_SECRET_WORD})"
    r"[ \t]*(?:(?i:is|was|are|were)[ \t]+|[:=][ \t]*)[`'\"]?"
    rf"(?P<value>{_STATED_VALUE})"
    r"(?=[.,;:)`'\"]?(?:\s|$))")
# "keys are appl_kQx… and goog_Zr4…": the values after the first, in a list
_STATED_MORE_RX = re.compile(
    r"(?<=\[REDACTED:stated-secret\])"
    r"(?P<sep>[`'\"]?(?:[ \t]*,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or|&)[ \t]+)[`'\"]?)"
    rf"(?P<value>{_STATED_VALUE})"
    r"(?=[.,;:)`'\"]?(?:\s|$))")
# "(ser.Xk29fLQm…) is the server key": the value first, then what the user calls it
_BRACKETED_VALUE = _mixed_run(r"`'\",;()\[\]", lazy=False)
_STATED_BEFORE_RX = re.compile(
    rf"(?<![^\s(\[`'\"])(?P<value>{_BRACKETED_VALUE})[`'\")\]]*[ \t]+(?i:is|was)[ \t]+"
    rf"(?i:(?:the|our|my|your|their|a|an)[ \t]+(?:(?P<before>[a-z]+)[ _-])?{_SECRET_WORD})"
    # ... and nothing after it that makes it a name of something else ("is the key type", "the key point")
    r"(?=[ \t]*(?:$|[.,;:!?)\u2014-]|"
    r"(?i:for|of|to|in|on|at|we|i|you|that|which|here|there|and|but|so|because|from|with)\b))")
# "with EXPO_ACCESS_TOKEN set to expo_mHFw…", "the stats key plausible_key_9Xc…", "sentry auth token
# (sntrys_eyJ…)", "the Vault password … it's `hunter2-…`": a value that looks made by a machine, after
# the name of a key, token, secret or password in the same sentence (not across a full stop)
_NAME_RX = re.compile(rf"(?<![A-Za-z])(?i:(?P<before>[a-z]+[ _-])?(?P<word>{_SECRET_WORD}))(?![A-Za-z])")
_CANDIDATE_RX = re.compile(r"(?<![^\s(\[`'\"=])[^\s`'\",;()\[\]@=]{12,200}?={0,3}(?=[.,;:)\]`'\"]?(?:\s|$))")
_SENTENCE_END = re.compile(r"[!?\n]|(?<!\be\.g)(?<!\bi\.e)\.\s")
_NEAR = 80  # characters between the name and the value, at most
_NAME_LONGEST = 40  # a name's own characters, looked back over besides ("the read-only stats key")
_STATED_WORDS = ("key", "token", "secret", "pass", "pw", "credential")


def _named_secret(value: str, before: str | None) -> bool:
    """A value under a secret's name is one unless the name is of something else ("the cache key
    is UserProfile:v2") or the value reads as a name (`PKCS12PrivateKeyTypes2`)."""
    from chord_memory.secrets import checks, filters

    return (before or "").strip(" _-").lower() not in checks.WEAK_QUALIFIERS and \
        not value.startswith("[REDACTED") and filters.credential_like(value) and not filters.identifier(value)


def _stated(m: re.Match[str]) -> str:
    if not _named_secret(m.group("value"), m.groupdict().get("before")):
        return m.group(0)
    return m.group(0)[: m.start("value") - m.start()] + "[REDACTED:stated-secret]" + \
        m.group(0)[m.end("value") - m.start():]


def _near(text: str) -> str:
    """``text`` with each value said near the name (``_NAME_RX`` before it in the same sentence, at most
    ``_NEAR`` characters away) taken out when it looks generated (``random_like``: not
    "Llama-3.1-70B-Instruct"), or is quoted after a password's name ("it's `hunter2-staging-9xQ`").
    Driven by the values, which are few, not by the names, which may be many ("token token …")."""
    from chord_memory.secrets import filters

    out, last = [], 0
    for m in _CANDIDATE_RX.finditer(text):
        value = m.group(0)
        if "://" in value or not filters.mixed(value):
            continue
        window = text[max(0, m.start() - _NEAR - _NAME_LONGEST): m.start()]
        name = next((n for n in _NAME_RX.finditer(window) if len(window) - n.end() <= _NEAR and
                     not _SENTENCE_END.search(window, n.end())), None)
        if name is None or not _named_secret(value, name.group("before")):
            continue
        quoted = text[m.start() - 1: m.start()] in ("`", "'", '"')
        said = name.group("word").lower().startswith(("pass", "pw"))
        if not (filters.random_like(value) or
                (quoted and said and filters.password_like(value, quoted=True))):
            continue
        out.append(text[last: m.start()] + "[REDACTED:stated-secret]")
        last = m.end()
    return "".join(out) + text[last:] if out else text


def unnamed_secrets(text: str) -> str:
    """``text`` with each password a generator made (``_GENERATED_RX``) as ``[REDACTED:generated-password]``,
    and each value the user calls a key, token, secret or password as ``[REDACTED:stated-secret]``:
    after the name (``_STATED_RX``, and the rest of a list, ``_STATED_MORE_RX``), before it
    (``_STATED_BEFORE_RX``), or later in the sentence that names it (``_near``). What the scrubber does
    not find, since no keyword stands beside it or the value is not random enough for the commit-time
    scan (``scrubbed`` runs it after the scrubber)."""
    low = text.lower()
    if any(word in low for word in _STATED_WORDS):
        text = _STATED_BEFORE_RX.sub(_stated, _STATED_RX.sub(_stated, text))
        text = _near(text)
        while "[REDACTED:stated-secret]" in text:
            more = _STATED_MORE_RX.sub(_stated, text)
            if more == text:
                break
            text = more
    if _SYMBOL.search(text) is None:
        return text
    return _GENERATED_RX.sub("[REDACTED:generated-password]", text)


def scrubbed(text: str) -> str:
    """``text`` as the extraction reads, sends and writes it: scrubbed of every secret the scanner
    finds (secrets/), then of those only the extraction takes for one (``unnamed_secrets``). The
    rules read only this: a secret of either kind is ``[REDACTED:…]`` to them."""
    from chord_memory.secrets import scrub

    return unnamed_secrets(scrub(text)[0])


# a secret, with the name assigned it
_SECRET = rf"(?:[A-Za-z_][A-Za-z0-9_.-]*\s*[=:]\s*)?{REDACTED.pattern}"
_PLACES = re.compile(rf"{_URL.pattern}|{_PATH.pattern}|{_HOST.pattern}", re.I)  # a URL, a path, a host
_BARE = re.compile(rf"(?:{_PLACES.pattern}|{_SECRET})", re.I)
_ONE = rf"(?:{_PLACES.pattern}|{_SECRET})"
# one of them, with the preposition that led to it, and the quotes or brackets around it
_GONE = re.compile(rf"{_LEADING_PREP}(?P<open>\(\s*)?(?:`{_ONE}`|'{_ONE}'|\"{_ONE}\"|{_ONE})(?(open)\s*\)|)",
                   re.I)


class Sentence(NamedTuple):
    text: str
    steps: tuple[str, ...] = ()  # the items of a list under this sentence (or in it)
    bullets: bool = False  # the items were bullets (a list of rules), not numbered steps


def noise(line: str) -> bool:
    """A line of a pasted log, stack trace, shell session or code: never a statement."""
    if _LOG_LINE.match(line):
        return True
    stripped = line.strip()
    if not stripped:
        return False
    cells = stripped.split()
    if len(cells) >= 4 and sum(bool(_NUMERIC.match(c)) for c in cells) * 2 >= len(cells):
        return True  # a row of a table a tool printed: mostly numbers
    code = len(_CODE_CHARS.findall(stripped))
    words = len(re.findall(r"[A-Za-z]{2,}", stripped))
    if line.startswith(("    ", "\t")) and code >= 2:
        return True
    return (code >= 4 and code * 3 > words) or stripped.endswith(("{", "};", ");")) or \
        bool(re.match(r"^(?:def|class|import|from|return|const|let|var|function|public|private|#include|"
                      r"SELECT|INSERT|UPDATE|CREATE)\b.*[(:{=]", stripped)) or \
        bool(re.search(r"\bSELECT\b.+\bFROM\b|\bINSERT INTO\b|\bUPDATE\b.+\bSET\b", stripped))


# Two or more lines in a row that start as a log's line does (the cheap, common part of _LOG_LINE: a
# timestamp or a level, at the line's very start, so never a diff's line), and what stands for them
_LOG_RUN = re.compile(r"(?m)^(?:(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[?\d\d:\d\d:\d\d|"
                      r"\[(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\]|"
                      r"(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL)\b[: ])[^\n]*\n){2,}")
_RUN = "\x00"


_DIFF_START = re.compile(r"^(?:diff --git |--- (?:a/|\S+/)|\+\+\+ (?:b/|\S+/)|@@ -\d+(?:,\d+)? \+\d+"
                         r"|index [0-9a-f]{7,}\.\.)")
_DIFF_LINE = re.compile(r"^(?:[ +\-@\\]|$|diff |index |new file|deleted file|similarity|rename )")


# "Error in checkFullRank(modelMatrix) :" and the lines of its message, indented under it
_ERROR_HEAD = re.compile(r"^\s*(?:Error|Warning|Exception|Fatal|Caused by|Traceback)\b.{0,200}:\s*$")
_INDENTED = re.compile(r"^(?: {2,}|\t)(?![-*\u2022+]\s|\d{1,2}[.)]\s)\S")


def typed(text: str) -> str:
    """``text`` without code blocks, pasted diffs and the lines of pasted logs, traces and code:
    what the rules could keep (so the scrubber is not run over megabytes of a log first). A
    line between two such lines is pasted too (the message of an error, a log's wrapped
    line): people type around a paste, not inside it."""
    text = _FENCE.sub("\n", text.replace("\r\n", "\n"))
    # a run of log lines is one line to what follows (each of them is pasted, and so is the run:
    # it ends a diff and stands next to a typed line as each of them would), found in one pass
    text = _LOG_RUN.sub(_RUN + "\n", text) if "\n" in text else text
    lines = text.split("\n")
    pasted = []
    in_diff = False
    for line in lines:
        if _DIFF_START.match(line):
            in_diff = True
        elif in_diff and not _DIFF_LINE.match(line):
            in_diff = False
        pasted.append(in_diff or line == _RUN or len(line) > MAX_LINE or noise(line) or
                      bool(_DRAWN.match(line)))
    for i in range(1, len(lines)):  # an error's message, wrapped and indented under its head
        line = lines[i]
        if line.startswith(("  ", "\t")) and not pasted[i] and _INDENTED.match(line) and \
                (pasted[i - 1] or _ERROR_HEAD.match(lines[i - 1])):
            pasted[i - 1] = pasted[i] = True
    for i in range(1, len(lines) - 1):
        if not pasted[i] and lines[i].strip() and pasted[i - 1] and pasted[i + 1] and \
                lines[i - 1].strip() and lines[i + 1].strip():
            pasted[i] = True
    _someone_elses(lines, pasted)
    return "\n".join(_without_document([line for line, out in zip(lines, pasted, strict=True) if not out]))


# What someone else wrote, pasted: a quoted line ("> Per Section 12, ..."), a reviewer's or a
# chat's line ("@jkowal: Nit: ...", "[Ahmed] we should never ..."), a ticket from its key
# ("CLAIMS-4412 — Adjuster notes truncated ...") to the end of its paragraph, and the
# paragraph after a line that says what is pasted ("here's the ticket:", "email from the
# vendor:", "spec section 4.3 from the carrier doc:").
_QUOTED_LINE = re.compile(r"^\s*>(?!>)|^\s*(?:@(?!(?i:claude|codex|copilot|cursor|gemini|agent|ai|bot):)"
                          r"[\w.-]{2,39}:|\[[A-Z][\w .'-]{1,30}\]:?)\s")
_TICKET = re.compile(r"^\s*(?!(?:UTF|ISO|SHA|RFC|PEP|GPT|HTTP|TLS|SSL|MD|AES|RSA|ES|IEEE|ECMA|ANSI|CP|WIN|"
                     r"CVE|UUID|BASE|PCI|SOC|PR|ARM|IPV)-)[A-Z][A-Z0-9]{1,9}-\d{1,6}\b[:\s—–-]+[A-Z]")
# "here's the ticket:", "fwd from legal:", "email from the vendor:": a line that hands over
# something written elsewhere (a source, and "here's", "from", "fwd", ...), not one that leads
# the user's own list ("commit messages:", "code review:")
_PASTE_INTRO = re.compile(r"(?i)^(?:\s*(?:here'?s|here is|this is|below is|pasted?|pasting|copied|copy of|"
                          r"got this|received|fwd?|forwarded)\b|.{0,80}\bfrom\b).{0,80}:\s*$")
_PASTE_SOURCE = re.compile(
    r"(?i)\b(?:ticket|issue|e-?mail|mail|thread|slack|message|comments?|review(?:er)?s?|spec(?:ification)?|"
    r"section \d[\d.]*|rfc|runbook|confluence|wiki|jira|description|changelog|release notes|letter|memo|"
    r"minutes|transcript|postmortem|excerpt|doc|docs|legal|vendor|customer|client|support|fwd|forwarded)\b")


# "3.2 The 2D symbol shall be PDF417 ...", "4.1.3 Suppliers shall ...": a document's numbered sections
_SECTION = re.compile(r"^\s*\d{1,2}(?:\.\d{1,2})+\.?\s+[A-Z]")


def _someone_elses(lines: list[str], pasted: list[bool]) -> None:
    sections = [bool(_SECTION.match(line)) for line in lines]
    for i, section in enumerate(sections):  # two in a row or more: pasted from a document
        if section and ((i > 0 and sections[i - 1]) or (i + 1 < len(lines) and sections[i + 1])):
            pasted[i] = True
    i = 0
    while i < len(lines):
        line = lines[i]
        if pasted[i] or not line:
            i += 1  # a log's line already (most lines of a long turn): nothing more to ask of it
            continue
        if _QUOTED_LINE.match(line):
            pasted[i] = True
        elif (ticket := bool(_TICKET.match(line))) or (
                len(line) <= 160 and line.rstrip().endswith(":") and _PASTE_INTRO.match(line) and
                _PASTE_SOURCE.search(line)):
            j = i if ticket else i + 1  # a ticket's own line is pasted; an intro's is the user's
            while j < len(lines) and not lines[j].strip():
                j += 1
            while j < len(lines) and lines[j].strip():
                pasted[j] = True
                j += 1
            i = j
            continue
        i += 1


_DRAWN = re.compile(r"^\s*[\u2500-\u259f\u25a0-\u25ff]")  # a table or a tree a tool drew


# A page of documentation pasted from a browser: its headings come as bare lines ("Tool
# environments", "Options", "In the browser"), a few words with no stop, standing after a blank
# line over a line of prose or another heading. People who structure their own notes mark a
# heading ("## Testing", "**Deploy**", "Testing:"); a page copied out of a browser loses the marks.
_HEADING = re.compile(r"^(?![-*\u2022+>#]|\d{1,2}[.)]\s)[A-Za-z][^:|=<>{}()\[\]\t]{0,58}(?<![.!?;,`\"'])$")
_HEADING_WORD = re.compile(r"^[A-Za-z][A-Za-z'&/-]*$")
_PROSE_WORD = re.compile(r"[A-Za-z][\w'-]*")
_HEADINGS = 3  # a turn with this many holds a pasted page


def _heading(line: str) -> bool:
    if not line or len(line) > 60:
        return False
    words = line.split()
    return bool(_HEADING.match(line)) and "  " not in line and 1 <= len(words) <= 8 and \
        sum(not _HEADING_WORD.match(w) for w in words) <= len(words) // 3


def _without_document(lines: list[str]) -> list[str]:
    """``lines`` up to a pasted page of documentation (``_HEADING``): from the line after the
    user's own that hands it over ("Does this doc page help?", "Man page:") to the turn's end, or
    from its first heading when no such line stands before it. The user's words around a page come
    before it; what follows it is the page's, as far as a reader can tell."""
    if len(lines) < 2 * _HEADINGS:
        return lines
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    heads, after = [], ""  # the next line with words in it, read from the end
    for i in range(len(lines) - 1, first, -1):
        line = lines[i].strip()
        if _heading(line) and (not lines[i - 1].strip() or _heading(lines[i - 1].strip())) and \
                (_heading(after) or (len(after) >= 40 and len(_PROSE_WORD.findall(after)) >= 6)):
            heads.append(i)
        after = line or after
    heads.reverse()
    if len(heads) < _HEADINGS:
        return lines
    start = heads[0]
    for i in range(heads[0] - 1, first - 1, -1):
        if lines[i].rstrip().endswith(("?", ":")):
            start = i + 1
            break
    return lines[:start]


MAX_LINE = 4000  # a longer line is pasted, not typed


def split(text: str) -> Iterator[Sentence]:
    """The sentences of a user turn, in order; a list under an intro is one Sentence."""
    lines = typed(text).split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        for marker, bullets in ((_STEP, False), (_DOT, True)):
            items, j = _items(lines, i + 1, marker)
            if line and len(items) >= 2 and (line.endswith(":") or not _BULLET.match(lines[i])):
                parts = list(_sentences(line))
                yield from parts[:-1]
                yield Sentence(parts[-1].text if parts else line, tuple(items), bullets)
                i = j
                break
            items, j = _items(lines, i, marker)
            if len(items) >= 2:
                yield Sentence("", tuple(items), bullets)
                i = j
                break
        else:
            yield from _inline_steps(_BULLET.sub("", line))
            i += 1


def _items(lines: list[str], i: int, marker: re.Pattern[str]) -> tuple[list[str], int]:
    items = []
    while i < len(lines) and marker.match(lines[i]):
        items.append(marker.sub("", lines[i]).strip())
        i += 1
    return items, i


def _inline_steps(line: str) -> Iterator[Sentence]:
    """"to cut a release: 1) bump the version 2) run make changelog 3) tag it" in one line."""
    marks = list(_INLINE_STEP.finditer(line))
    numbers = [int(m.group(1)) for m in marks]
    if len(marks) < 2 or numbers[:2] != [1, 2]:
        yield from _sentences(line)
        return
    yield from list(_sentences(line[:marks[0].start()]))[:-1]
    intro = list(_sentences(line[:marks[0].start()]))
    steps = [line[m.end():n.start()].strip() for m, n in itertools.pairwise(marks)]
    tail = list(_sentences(line[marks[-1].end():]))
    if tail:
        steps.append(tail[0].text)
    yield Sentence(intro[-1].text if intro else "", tuple(s.rstrip(" ,;") for s in steps if s))
    yield from tail[1:]


def _ends(line: str) -> list[str]:
    """The line cut after each full stop, question or exclamation mark that ends a sentence
    (a lower-case start counts: people type that way), not after an abbreviation."""
    parts, start = [], 0
    for m in _END.finditer(line):
        head = line[start:m.start() + 1]
        if m.group(0).startswith(".") and _ABBREVIATION.search(head):
            continue
        if m.group(0).rstrip() == ".." and head[:-1].rstrip(" .")[-1:].isdigit() and \
                line[m.end():m.end() + 1].isdigit():
            continue  # a range: "the sensor range, 0 .. 12_000"
        if ")" in m.group(0) and head.count("(") > head.count(")") and line[m.end():m.end() + 1].islower():
            continue  # "head/fromJust/(!) are banned", "use foo (yes!) for this": in brackets, it goes on
        parts.append(line[start:m.end()].strip())
        start = m.end()
    parts.append(line[start:].strip())
    return [p for p in parts if p]


def _sentences(line: str) -> Iterator[Sentence]:
    for part in _ends(line):
        for clause in re.split(r";\s+", part):
            for piece in _asides(clause):
                piece = piece.strip()
                if piece:
                    yield Sentence(piece)


def _asides(clause: str) -> list[str]:
    """The clause cut where a run-on changes subject ("... there btw the CI box ..."), not where
    an aside word is part of the clause (``_ALSO_BEFORE``, ``_ALSO_AFTER``) or in quotes or code
    ("having 'best note app' in the subtitle")."""
    pieces, start = [], 0
    for m in _ASIDE.finditer(clause):
        head, tail = clause[:m.start()], clause[m.end():]
        if head.count("`") % 2 or len(_OPEN_QUOTE.findall(head)) > len(_CLOSE_QUOTE.findall(head)):
            continue
        if tail[:4].lower() == "also" and (_ALSO_BEFORE.search(head) or _ALSO_AFTER.match(tail)):
            continue
        pieces.append(clause[start:m.start()])
        start = m.end()
    pieces.append(clause[start:])
    return pieces


# A word left waiting for the object that was taken out: the statement was about that object.
_WAITING = re.compile(r"(?i)(?:\b(?:is|are|was|were|be|equals|use|using|with|to|via|as|through|behind|into|"
                      r"called|"
                      r"named)|[=:])\s*$")
_WAITING_NAME = re.compile(r"(?i)\b(?:password|token|key|secret|url|address|host|path)\s*(?:is\s*)?$")
_NOTHING_AFTER = re.compile(r"(?i)^\s*(?:$|[,.;:!?()]|(?:and|or|as|but|for|when|if|so|then|put|use)\b)")
_NOTHING_AFTER_NAME = re.compile(r"(?i)^\s*(?:$|[,.;:!?()]|(?:and|or|but|so|then)\b)")


# what every URL, path, host, address or redacted secret holds: without it, _GONE finds nothing
# (a cheap test first: _GONE is tried at every position of every sentence, and "file.py" or
# "e.g." is in most of them; tests/extract/test_rules.py holds the test to the patterns)
_ROOTS = re.compile(rf"/(?:{'|'.join(d.lower() for d in _ROOT_DIRS)})\b")
_TLD = re.compile(rf"\.(?:{'|'.join(_HOST_ENDS)})\b|\d\.\d")


def _may_name_a_place(text: str) -> bool:
    """False only where no URL, machine path, host, address or secret can be: the place patterns
    need not be tried."""
    low = text.lower()
    return "://" in low or "www." in low or "~" in low or ":\\" in low or "[redacted:" in low or \
        ("/" in low and _ROOTS.search(low) is not None) or \
        (low.count(".") >= 2 and _TLD.search(low) is not None)


def broken(text: str) -> bool:
    """Whether taking out a URL, path, host or secret left ``text`` without its point
    ("the staging password is and ...", "we use as the mirror remote", "the feed url is <url>,
    put it in the config": the thing taken out was what the sentence said)."""
    if not _may_name_a_place(text):
        return False
    for m in _GONE.finditer(text):
        before, after = text[: m.start()], text[m.end():]
        if (_WAITING.search(before) and _NOTHING_AFTER.match(after)) or \
                (_WAITING_NAME.search(before) and _NOTHING_AFTER_NAME.match(after)):
            return True
    return False


def names_a_place(text: str) -> bool:
    """Whether ``text`` holds a URL, a machine path, a hostname or a redacted secret."""
    return bool(_may_name_a_place(text) and _BARE.search(text))


PLACE = "<place>"


def marked_places(text: str) -> str:
    """``text`` with each URL, machine path and hostname as ``PLACE``: what the model
    weighs (extract/weigh.py), so that a statement with a pasted link is weighed as the
    same statement without it."""
    return _PLACES.sub(PLACE, text) if _may_name_a_place(text) else text


def without_places(text: str) -> str:
    """``text`` without URLs, machine paths, hostnames and redacted secrets (and the
    preposition that led to them), tidied: what remains is what is worth keeping."""
    out = _GONE.sub("", text) if _may_name_a_place(text) else text
    if out != text:  # "(for me that's <path>)", "(in the CI vars, <secret>)": no gap left in brackets
        out = re.sub(r"\s*[,;:]?\s*\)", ")", re.sub(r"\(\s*[,;:]?\s*", "(", out))
    out = re.sub(r"\(\s*\)|\[\s*\]", "", out)
    out = re.sub(r"\s+([,.;:!?])(?=\s|$)", r"\1", out)
    out = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", out)
    return re.sub(r"\s{2,}", " ", out).strip(" ,;:-")
