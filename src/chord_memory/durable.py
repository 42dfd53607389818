"""Durable text: no absolute machine path, commit SHA or hostname (warnings).

A single session's layout does not belong in memory that outlives it.
"""
from __future__ import annotations

import re

from chord_memory.findings import Finding, quoted

_TOP = (
    "home|Users|root|tmp|var|etc|opt|usr|mnt|srv|private|Volumes|workspace|work|nix|snap|data"
)
_INTERNAL = ("local", "internal", "lan", "corp", "intranet", "localdomain", "home.arpa")
# A machine's name on any domain: a name of three labels or more whose host part (what comes
# before the registered domain) has a label with a digit ("ci-runner-14.build.example-co.com",
# "build7.example.com") or two labels or more ("runner.build.example-co.com"). Public services
# (a registry, a forge, a docs site, a cloud's endpoints) are not a machine of yours.
_NAME = re.compile(r"(?:(?<=://)|(?<![\w.@/-]))(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){2,}[a-z]{2,24}"
                   r"(?![\w-])", re.IGNORECASE)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_TLDS = _words("com net org io dev app cloud co ai me info biz xyz tech site online run page tools "
               "systems services network host link gov edu mil int eu us uk de fr nl be ch at se no "
               "dk fi es it pl cz pt ie ca au nz jp cn in kr sg hk tw br mx ar ru ua il za")
# two-letter endings that name a file far more often than a country ("test1.spec.ts", "app.d.in")
_FILE_ENDINGS = _words("py md sh rs js ts cs go rb pl hs ml ex cc hh mm kt db gz xz ps so lo in")
_PUBLIC = _words(
    "github.com githubusercontent.com github.io gitlab.com gitlab.io bitbucket.org sourceforge.net "
    "pypi.org pythonhosted.org python.org readthedocs.io readthedocs.org npmjs.com npmjs.org "
    "yarnpkg.com jsdelivr.net unpkg.com crates.io rust-lang.org rubygems.org golang.org go.dev "
    "maven.org apache.org gradle.org docker.com docker.io quay.io gcr.io ghcr.io k8s.io kubernetes.io "
    "amazonaws.com aws.amazon.com cloudfront.net azure.com azurewebsites.net windows.net microsoft.com "
    "googleapis.com google.com gstatic.com googleusercontent.com cloudflare.com heroku.com "
    "herokuapp.com vercel.app netlify.app mozilla.org w3.org wikipedia.org stackoverflow.com "
    "nodejs.org debian.org ubuntu.com fedoraproject.org archlinux.org nixos.org brew.sh")


def _machine(name: str) -> bool:
    labels = name.lower().split(".")
    tld = labels[-1]
    if tld not in _TLDS or (len(tld) == 2 and tld in _FILE_ENDINGS and len(labels) < 4):
        return False
    second_level = len(tld) == 2 and labels[-2] in ("co", "com", "net", "org", "ac", "gov", "edu")
    size = 3 if second_level else 2
    domain, host = ".".join(labels[-size:]), labels[:-size]
    if domain in _PUBLIC or any(".".join(labels[i:]) in _PUBLIC for i in range(len(labels) - 1)):
        return False
    return len(host) >= 2 or any(any(c.isdigit() for c in label) and any(c.isalpha() for c in label)
                                 for label in host)


# (code, hint, pattern, message): the hint is a cheap test that must pass before the
# pattern runs at all; most text has no absolute path, hex run or internal host in it.
_RULES = (
    ("CM401", re.compile(rf"/(?:{_TOP})/").search,
     re.compile(rf"(?<![\w/.:~-])/(?:{_TOP})/[^\s`'\")\]>]+"),
     "absolute machine path {}; use a project-relative path"),
    ("CM401", re.compile(r":\\").search,
     re.compile(r"(?<![\w/])[A-Za-z]:\\[^\s`'\")\]>]+"),
     "absolute machine path {}; use a project-relative path"),
    ("CM402", re.compile(r"[0-9a-f]{40}").search,
     re.compile(r"(?<![0-9a-fA-F])[0-9a-f]{40}(?![0-9a-fA-F])"),
     "commit SHA {}; a single commit does not belong in durable memory"),
    ("CM403", re.compile(rf"\.(?:{'|'.join(re.escape(t) for t in _INTERNAL)})\b", re.IGNORECASE).search,
     re.compile(rf"(?<![\w.-])(?:[a-z0-9-]+\.)+(?:{'|'.join(re.escape(t) for t in _INTERNAL)})"
                r"(?![\w-])", re.IGNORECASE),
     "hostname {}; a machine's name does not belong in durable memory"),
    ("CM403", re.compile(r"[\w-]\.[\w-]+\.[A-Za-z]{2}").search, _NAME,
     "hostname {}; a machine's name does not belong in durable memory"),
    ("CM403", re.compile(r"\d\.\d+\.\d+\.\d").search,
     re.compile(
         r"(?<![\w.])(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?![\w.])"),
     "IP address {}; a machine's address does not belong in durable memory"),
)
_LOOPBACK = ("127.0.0.1", "0.0.0.0")

def scan(path: str, text: str, first_line: int = 1) -> list[Finding]:
    """Findings in text, whose first line is line `first_line` of the file."""
    out: list[Finding] = []
    for code, hint, pattern, message in _RULES:
        if not hint(text):
            continue
        for m in pattern.finditer(text):
            value = m.group(0)
            if value in _LOOPBACK or (pattern is _NAME and not _machine(value)):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            line = first_line + text.count("\n", 0, line_start)
            out.append(Finding(path, line, code, message.format(quoted(value, 60)),
                               m.start() - line_start + 1, line, m.end() - line_start + 1))
    return out
