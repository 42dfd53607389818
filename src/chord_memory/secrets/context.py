"""Rules that find a secret by its surroundings: key blocks, URLs, headers,
connection strings, secret-named assignments in every syntax Markdown shows
them, and passwords stated in prose.
"""
from __future__ import annotations

import re

from chord_memory.secrets import checks, syntax
from chord_memory.secrets.rules import AT, LINE, TOKEN, Rule

_GATES = ("pass", "pw", "secret", "token", "key", "auth", "cred")
_PEM = (
    r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----"
    r"(?:.{0,16000}?-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----"
    r"|(?:(?:\\n|\r?\n)[ \t>*-]*[A-Za-z0-9+/=]{16,}(?:\\n)?)+)"
    r"|---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----.{0,16000}?---- END SSH2 (?:ENCRYPTED )?"
    r"PRIVATE KEY ----"
)


# A password named in another language ("senha: X", "contraseña es X", "Passwort ist X"), with
# the verbs that say "is" in those languages. Each gate is one find over the whole text (about 30 ms
# on 50 MB), so the table keeps to the languages most often met: "??" is two letters beyond ASCII
# in a row in the ASCII copy (a word in Cyrillic or CJK), "has?o" is "hasło".
_FOREIGN = r"senha|contrase(?:ñ|n)a|mot de passe|passwort|wachtwoord|has(?:ł|l)o|пароль"
_CJK = r"密码|密碼|パスワード|비밀번호"  # no spaces around words: read wherever it stands
_FOREIGN_IS = r"é|e|es|est|ist|is|jest|to|è|это"
_FOREIGN_GATES = ("senha", "contrase", "mot de passe", "passwort", "wachtwoord", "has?o", "haslo", "??")
_SET_TO = ("set& to ", "change& to ", "update& to ", "export& to ")
# "?" stands for any non-ASCII character (an arrow) in the lowercased ASCII copy.
_IS = (" is", " was", " are", ":", "=", " be", " to", " reads", " now", " as", "->", " - ", "?")
# A password said in a sentence: quoted in any of the ways Markdown and chat quote, or bare to the
# next space
_QUOTED_PASSWORD = r"`(?P<value>[^`\n]{1,100})`|\"(?P<value2>[^\"\n]{1,100})\"|'(?P<value3>[^'\n]{1,100})'|" \
    r"“(?P<value5>[^”\n]{1,100})”"
_BARE_PASSWORD = r"(?P<bare>[^\s`\"'“|]{1,100})"
# Prose between a word and its value: no sentence end, no other assignment.
_CTX = r"(?:[^.\n:=`\"'|]|\.(?=\S)|`[^`\n]{1,40}`){0,40}?"

RULES: tuple[Rule, ...] = (
    Rule("private-key", ("-----begin", "---- begin ssh2"), _PEM, AT, re.S, check=checks.key_body),
    Rule("putty-private-key", ("putty-user-key-file",),
         r"PuTTY-User-Key-File-\d: .{0,12000}?Private-MAC: [0-9a-fA-F]+", TOKEN, re.S),
    Rule("aws-secret-access-key", ("secret",),
         r"(?i:aws_?secret_?(?:access_?)?key|secret_?access_?key)[\"']?\s*(?:=>|[:=]|\s)\s*"
         r"[\"'`]?(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])", LINE, entropy=3.5,
         needs=("aws_secret", "awssecret", "secret_access", "secretaccess")),
    Rule("url-credentials", ("://",),
         r"\b[A-Za-z][A-Za-z0-9+.\-]{1,30}://(?P<user>[^\s:/@?#\"'`<>\[\]]{0,100}):"
         r"(?P<value>[^\s/?#\"'`<>]{1,200})@(?=[A-Za-z0-9\[_])", LINE, check=checks.url_password,
         priority=3, needs=("@",)),
    Rule("url-query-token", (*_GATES, "://"),
         r"[?&;](?P<name>[A-Za-z_\-.]*(?i:token|key|secret|pass|pwd|auth|cred|sig)[A-Za-z_\-.]*)="
         r"(?P<bare>[^&\s#\"'`<>|)\]]{8,400})", LINE, check=checks.query, priority=3, needs=("?", "&")),
    Rule("authorization-header", ("auth",),
         r"(?i:\b(?:proxy-)?authorization)[\"']?\s*[:=]\s*[\"']?(?P<scheme>(?i:bearer|basic|token"
         r"|bot|apikey|api-key|sso-key))\s+(?P<value>[A-Za-z0-9._~+/\-:]{8,}=*)", LINE,
         check=checks.header, priority=3, needs=("authorization",)),
    Rule("authorization-header", ("bearer",),
         r"(?P<scheme>(?i:bearer))\s+(?P<value>[A-Za-z0-9._~+/\-]{16,}=*)", LINE, check=checks.header,
         priority=2),
    Rule("basic-auth", ("-u",),
         r"(?:\s-u\s*|--user[=\s])[\"']?(?P<user>[^\s:\"'`$]{1,100}):(?P<value>[^\s\"'`]{3,200})",
         LINE, check=checks.url_password, priority=3, needs=("-u ", "--user")),
    Rule("connection-string", ("pass", "pw", "key"),
         r"(?:^|(?<=[;\s\"'`]))(?i:password|pwd|accountkey|sharedaccesskey)\s*=\s*"
         r"(?:\{(?P<value>[^}\n]{1,200})\}|\"(?P<value2>[^\"\n]{1,200})\"|"
         r"'(?P<value3>[^'\n]{1,200})'|(?P<value5>[^;\s\"'`]{1,200}))(?=[ \t]*(?:;|\r?$|[\"'`]))",
         LINE, re.M, check=checks.connection, priority=3,
         needs=("password=", "pwd=", "accountkey=", "sharedaccesskey=", "password =", "pwd =")),
    Rule("netrc-password", ("pass",),
         r"(?:\bmachine\s+\S+\s+(?:login\s+\S+\s+)?|^[ \t]*)password[ \t]+(?P<bare>[^\s\"'`]+)"
         r"[ \t]*(?:\r?$|[\"'`])",
         LINE, re.M, check=checks.password, priority=2, needs=("machine", "password ", "password\t")),
    Rule("cli-password", ("-p",),
         r"(?:(?:docker|podman|buildah|helm|oras|skopeo)\s+(?:registry\s+)?login|mysql\w*|sshpass"
         r"|sqlcmd|mongo\w*|az\s+login|oc\s+login)\b[^\n]*?\s-[pP](?:[ \t]+|(?=[^\s-]))"
         r"(?:\"(?P<value>[^\"\n]+)\"|'(?P<value2>[^'\n]+)'|(?P<bare>[^\s\"'`]+))", LINE,
         check=checks.password, priority=3, needs=("login", "mysql", "sshpass", "sqlcmd", "mongo")),
    Rule("password-in-prose", ("pass", "pw"),
         r"(?<![\w/+=.\-])(?i:(?:password|passwd|passphrase|passcode|pass ?word|pwd|pw)s?(?![\w-]))"
         + _CTX +
         r"(?i:\b(?:is|was|are|will be|is now|set to|changed to|reads|should be|as)\b|[:=]|→|->|=>"
         r"|[—–]| - )\s*"
         r"(?::\s*)?(?:" + _QUOTED_PASSWORD + r"|(?P<bare>[^\s`\"'“|]{1,400}))",
         LINE, check=checks.prose_password, priority=1, needs=_IS),
    Rule("password-in-prose", ("pass", "pw"),
         r"(?i:\b(?:set|change|changed|reset|update|updated)\s+(?:(?:the|my|our|its|a)\s+)?"
         r"(?:[\w-]+\s+){0,2}(?:password|passphrase|passwd|pwd|pw)\s+to)\s+"
         r"(?:`(?P<value>[^`\n]{1,100})`|\"(?P<value2>[^\"\n]{1,100})\"|(?P<bare>[^\s`\"']{1,100}))",
         LINE, check=checks.prose_password, priority=1, needs=_SET_TO),
    Rule("password-in-prose", ("pass", "pw"),
         r"(?<![\w/+=.\-])(?i:password|passwd|passphrase|pwd|pw)s?[ \t]+(?:" + _QUOTED_PASSWORD + ")",
         LINE, check=checks.prose_password, priority=1, needs=("'", '"', "`", "?")),
    Rule("password-in-prose", ("pass", "pw"),
         r"(?i:\b(?:with|using)[ \t]+(?:(?:the|a|my|our)[ \t]+)?(?:password|passwd|passphrase|pwd))[ \t]+"
         + _BARE_PASSWORD,
         LINE, check=checks.prose_password, priority=1, needs=("with", "using")),
    Rule("password-in-prose", ("pass", "pw"),  # "user netadm / pw …", "login ci, pass …"
         r"(?i:\b(?:user(?:name)?|login)[ \t]+[\w.@+-]{1,64}[ \t]*[/,;]?[ \t]*"
         r"(?:password|passwd|pass|pwd|pw))[ \t]+" + _BARE_PASSWORD,
         LINE, check=checks.prose_password, priority=1, needs=("user", "login")),
    Rule("password-in-prose", _FOREIGN_GATES,
         r"(?:(?<![\w-])(?i:" + _FOREIGN + r")(?![\w-])|" + _CJK + r")"
         r"(?:" + _CTX + r"(?i:\b(?:" + _FOREIGN_IS + r")\b"
         r"|[:=]|→|->))?[ \t]*(?:" + _QUOTED_PASSWORD + "|" + _BARE_PASSWORD + ")",
         LINE, check=checks.prose_password, priority=1),
    Rule("password-in-prose", ("cred", "login"),
         r"(?i:\b(?:creds|credentials|login)\b)" + _CTX + r"(?i:\b(?:is|are)\b|[:=])\s*`?"
         r"(?P<user>[\w.@+-]{1,64})`?\s*(?:/|:)\s*`?(?P<bare>[^\s`/]{1,100})",
         LINE, check=checks.prose_password, priority=1, needs=("/", ":")),
    Rule("secret-in-prose", ("key", "token", "secret", "cred"),
         r"(?i:\b(?:key|token|secret|credential|api[ _-]?key|access[ _-]?key|key ?string)s?(?![\w-]))" + _CTX
         + r"(?i:\b(?:is|was)\b|[:=])\s*"
         r"(?:`(?P<value>[^`\s]{16,300})`|\"(?P<value2>[^\"\s]{16,300})\"|"
         r"'(?P<value3>[^'\s]{16,300})'|(?P<bare>[A-Za-z0-9_\-+/=.~]{16,300}))",
         LINE, check=checks.prose_secret, priority=1, needs=_IS),
    Rule("secret-in-prose", ("key", "token", "secret"),  # "and shared secret `…`", "token '…' for the bot"
         r"(?i:\b(?:secret|token|api[ _-]?key|access[ _-]?key|key ?string))s?[ \t]+"
         r"(?:`(?P<value>[^`\s]{8,300})`|\"(?P<value2>[^\"\s]{8,300})\"|'(?P<value3>[^'\s]{8,300})')",
         LINE, check=checks.juxtaposed, priority=1, needs=("`", "'", '"')),
    Rule("secret-in-prose", ("pass", "pw", "key", "token", "secret"),
         r"`(?P<value>[^`\s]{6,300})`\s+(?i:as|is)\s+(?i:(?:the|my|our|your|an?)\s+)?(?:[\w-]+\s+)?"
         r"(?P<what>(?i:password|passphrase|passwd|pwd|pw|token|api[ -]?key|key|secret))\b",
         LINE, check=checks.named_after, priority=1, needs=("` as ", "` is ")),
    Rule("seed-phrase", ("seed", "mnemonic", "recovery", "backup"),
         r"(?i:\b(?:seed|recovery|secret|backup|wallet)\s+(?:phrase|words)|\bmnemonic)\b[^:\n]{0,20}?"
         r"(?:\bis\b|[:=])\s*[\"'`]?(?P<value>(?:[a-z]{3,8}[ ]+){11,23}[a-z]{3,8})\b",
         LINE, check=checks.seed, priority=2),
)


def _assignment(entry: syntax.Syntax) -> Rule:
    """One entry of the syntax table as a rule: the name beside a value, judged by the name."""
    return Rule("env-assignment", syntax.GATES, syntax.pattern(entry), LINE, entry.flags,
                check=checks.by_name, priority=2, lines=entry.lines, needs=entry.needs)


RULES += tuple(_assignment(entry) for entry in syntax.SYNTAXES)
