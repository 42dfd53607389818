"""The one table of syntaxes a secret is written in beside its name.

What a secret looks like (`providers.py`) and how it is written down (here) multiply: each
syntax is one entry, and every entry yields one `env-assignment` rule through the same
mechanism — a secret-sounding `name` group, a `value` group (or `value2`, `value3`, `bare`),
and `checks.by_name`, which asks how literal the value must look for that name
(`names.tier`). A new syntax is one entry with its examples; the scan loop never changes.

An entry's pattern uses `{name}` and `{value}` (the shared name and value patterns below);
`needs` are its cheap prefilter strings (see `rules.Rule`), `lines` how many lines it may
span. `examples` are (name, value) templates: `{n}` is replaced by a name, `{v}` by the
value, and a test checks each finds the value whole; `not_examples` find nothing.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from chord_memory.secrets.named import WORDS as PROVIDER_WORDS

# The words that make a name worth reading (each is also a prefilter keyword): the generic
# ones, and the providers' of `named.py`.
GATES = ("pass", "pw", "secret", "token", "key", "auth", "cred", *PROVIDER_WORDS)
# A name that may hold a secret: the lookahead keeps the regex from consuming other names.
NAME = (
    r"(?=[A-Za-z0-9_.\-]*?(?i:" + "|".join(GATES) + "))"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,80})"
)
# A bare value's character: it ends at a space, a quote, a separator or a `\n` escape (a
# dotenv file inside a JSON string).
_BARE = r"(?:[^\s\"'`|<>,;\\]|\\(?![nrt]))"
VALUE = (
    r"(?:\"(?P<value>(?:[^\"\\\n]|\\.){1,4000})\"|'(?P<value2>[^'\n]{1,4000})'"
    r"|`(?P<value3>[^`\n]{1,4000})`|(?P<bare>" + _BARE + r"+(?:[,;]" + _BARE + r"+)*))"
)
_QUOTED = r"(?:\"(?P<value>[^\"\n]{1,4000})\"|'(?P<value2>[^'\n]{1,4000})')"
# Assignment operators, longest first: Make's `:::=`, `::=`, `?=`, Go's `:=`, PHP's `.=`, …
_OPERATOR = r"(?::::=|::=|:=|\?=|\.=|\+=|=>|->|:|=)"
# A declared type between the name and `=`: Go `var t string =`, `t: str =`, Rust `&str`.
_TYPE = (r"(?:(?:[ \t]*:[ \t]*|[ \t]+)(?:string|String|str|&(?:'static[ \t]+)?str|\[\]byte"
         r"|CharSequence|text)\??(?=[ \t]*=))?")


class Syntax(NamedTuple):
    name: str
    pattern: str
    needs: tuple[str, ...]
    examples: tuple[str, ...]
    not_examples: tuple[str, ...] = ()
    lines: int = 1
    flags: int = 0


SYNTAXES: tuple[Syntax, ...] = (
    Syntax(
        "assignment",  # dotenv, shell, YAML, JSON, TOML, INI, HCL, .npmrc, Make, Go, PHP, Ruby, …
        r"(?<![A-Za-z0-9_.\-])[\"'`]?{name}[\"'`]?\]?" + _TYPE + r"[ \t]*(?:\*\*|__)?[ \t]*"
        + _OPERATOR + r"[ \t]*(?:\*\*|__)?[ \t]*(?:!!str[ \t]+)?{value}",
        ("=", ":", "->"),
        ("{n}={v}", "export {n}=\"{v}\"", "{n}: {v}", "\"{n}\": \"{v}\"", "{n} = '{v}'",
         "{n} ?= \"{v}\"", "{n} ::= \"{v}\"", "{n} :::= \"{v}\"", "{n} := `{v}`",
         "var {n} string = \"{v}\"", "const {n}: string = \"{v}\";", "${n} .= \"{v}\"",
         "\"{n}\" => \"{v}\"", "ENV['{n}'] = '{v}'", "$env:{n} = \"{v}\"", "**{n}:** {v}",
         "//registry.npmjs.org/:_{n}={v}", "String {n} = \"{v}\";", "let {n}: &str = \"{v}\";"),
        ("{n}=${SECRET}", "{n} ?= $(shell cat .token)", "${n} .= $suffix",
         "var {n} string = os.Getenv(\"X\")"),
    ),
    Syntax(
        "dash",  # a label, a spaced dash, a quoted value: `staging token - 'Zx9…'`
        r"(?<![A-Za-z0-9_.\-]){name}[ \t]+[-–—][ \t]+(?:" + _QUOTED[3:-1] + r"|`(?P<value3>[^`\n]{1,4000})`)",
        (" - ", " ? "),  # "?" is any non-ASCII character (a long dash) in the lowered copy
        ("{n} - '{v}'", "staging {n} - `{v}`"),
        ("{n} - 'see the vault'", "{n} - the one in CI"),
    ),
    Syntax(
        "call",  # System.setProperty("X_TOKEN", "…"), os.Setenv, define('…', '…'), map.put
        r"\([ \t]*[\"']{name}[\"'][ \t]*,[ \t]*" + _QUOTED,
        ("\",", "',"),
        ("System.setProperty(\"{n}\", \"{v}\")", "os.Setenv(\"{n}\", \"{v}\")",
         "define('{n}', '{v}');", "headers.put(\"{n}\",\"{v}\")"),
        ("os.Setenv(\"{n}\", token)", "getenv(\"{n}\", \"\")", "define('{n}', '');"),
    ),
    Syntax(
        "dockerfile",  # ENV NAME value, ARG, setx, Apache SetEnv
        r"(?:^|\s|`)(?:ENV|ARG|setx|SetEnv)[ \t]+{name}[ \t]+{value}",
        ("env ", "arg ", "setx "),
        ("ENV {n} {v}", "setx {n} \"{v}\"", "SetEnv {n} {v}"),
        ("ENV {n} $FROM_BUILD",),
        flags=re.M,
    ),
    Syntax(
        "kubernetes-env",  # - name: NAME \n  value: "…"
        r"\bname:[ \t]*[\"']?{name}[\"']?[ \t]*\r?\n[ \t>]*-?[ \t]*value:[ \t]*{value}",
        ("name:",),
        ("- name: {n}\n  value: \"{v}\"",),
        ("- name: {n}\n  valueFrom:",),
        lines=2,
    ),
    Syntax(
        "json-name-value",  # {"name": "NAME", "value": "…"}
        r"\"name\"\s*:\s*\"{name}\"\s*,\s*\"value\"\s*:\s*\"(?P<value>[^\"\n]{1,400})\"",
        ('"value"',),
        ("{\"name\": \"{n}\", \"value\": \"{v}\"}",),
        ("{\"name\": \"{n}\", \"value\": \"\"}",),
    ),
    Syntax(
        "markdown-table",  # | NAME | value |
        r"\|[ \t]*[`*]*(?:[A-Za-z0-9_.\-]+[ \t]+){0,3}{name}[`*]*[ \t]*\|[ \t]*"
        r"(?:`(?P<value3>[^`|\n]{1,400})`|\*\*(?P<value2>[^*|\s]{1,400})\*\*"
        r"|(?P<bare>[^|`\s](?:[^|`\n]{0,398}[^|`\s])?))[ \t]*(?=\|)",
        ("|",),
        ("| {n} | `{v}` |", "| `{n}` | {v} |"),
        ("| {n} | where it lives |",),
    ),
    Syntax(
        "xml-element",  # <dbPassword>…</dbPassword>, the value on its own line or not
        r"<{name}(?:[ \t][^<>\n]{0,200})?>[ \t]*(?:\r?\n[ \t]*)?(?P<value>[^<\s]{4,400})"
        r"[ \t]*(?:\r?\n[ \t]*)?</",
        ("<",),  # the keyword's line holds only the opening tag
        ("<{n}>{v}</{n}>", "<{n}>\n    {v}\n</{n}>", "<{n} type=\"str\">{v}</{n}>"),
        ("<{n}>${env.X}</{n}>", "<{n}>\n  <value/>\n</{n}>"),
        lines=3,
    ),
    Syntax(
        "xml-named",  # <add key="NAME" value="…"/>, <property name="NAME" value="…"/>
        r"<[A-Za-z][\w:.\-]*\s+(?:key|name)=\"{name}\"\s+value=\"(?P<value>[^\"\n]{1,400})\"",
        ("value=",),
        ("<add key=\"{n}\" value=\"{v}\" />", "<property name=\"{n}\" value=\"{v}\"/>"),
        ("<add key=\"{n}\" value=\"\" />",),
    ),
    Syntax(
        "xml-named-element",  # <string name="NAME">…</string>, <entry key="NAME">…</entry>
        r"<(?P<tag>[A-Za-z][\w:.\-]*)\s+(?:key|name)=\"{name}\"[^<>\n]{0,100}>"
        r"(?P<value>[^<\s]{4,400})</(?P=tag)>",
        ("</",),
        ("<string name=\"{n}\">{v}</string>", "<entry key=\"{n}\">{v}</entry>"),
        ("<string name=\"{n}\">@string/other</string>",),
    ),
    Syntax(
        "flag",  # --api-token value, --password=value
        r"(?<![\w-])--{name}(?:=|[ \t]+)(?:\"(?P<value>[^\"\n]+)\"|'(?P<value2>[^'\n]+)'"
        r"|(?P<bare>[^\s\"'`-][^\s\"'`]*))",
        ("--",),
        ("app --{n} {v}", "app --{n}=\"{v}\""),
        ("app --{n} --verbose",),
    ),
    Syntax(
        "set-to",  # set NAME to value
        r"(?i:\b(?:set|export|change|update)\s+)`?{name}`?\s+(?i:to)\s+{value}",
        ("set& to ", "change& to ", "update& to ", "export& to "),
        ("set `{n}` to `{v}`",),
        ("set {n} to the new one",),
    ),
)


def pattern(syntax: Syntax) -> str:
    """The entry's regex with the shared name and value patterns in place."""
    return syntax.pattern.replace("{name}", NAME).replace("{value}", VALUE)
