"""Value filters: what a matched value must not be for it to count as a secret.

Each filter is a plain function of the value. `plausible` runs on every match;
the tiered checks (`password_like`, `credential_like`, `random_like`) run for
the context rules, where a secret-sounding name is all we have to go on.
"""
from __future__ import annotations

import itertools
import math
import re
import string
from collections import Counter

from chord_memory.secrets.rules import lazy
from chord_memory.secrets.words import CODE_WORDS, DOC_EXAMPLES, PLACEHOLDERS

# Markers of an example, a placeholder or a masked value: never a live secret, whatever matched.
_MARK_CHARS = frozenset("…•●<>")
# (Long enough that a random token holds one by chance about never.)
_MARKERS = (
    "example", "placeholder", "changeme", "change_me", "change-me", "replace_me", "replace-me",
    "replaceme", "your_", "your-", "dummy", "redacted", "not-a-real", "not_a_real", "notareal",
    "notreal", "xxxxxx", "****", "...", "-here", "_here", "insert_", "insert-",
)
_KEY_BLOCKS = ("-----BEGIN", "---- BEGIN", "PuTTY-User-Key-File")
_KEY_BLOCK_MARKERS = ("...", "xxxx", "example", "redacted", "placeholder", "your")

# More markers that only disqualify a value found by context (a name, a phrase).
_WEAK_MARKERS = ("your", "xxxx", "sample", "fake", "changeit", "todo:")
_FILLER = lazy(
    r"(?:my|your|our|the|super|very|strong|secret|password|passwd|pass|pwd|changeme|changeit"
    r"|example|sample|dummy|test|default|admin|root|demo|key|token|api|dev|local)+"
)
_REPEAT = lazy(r"(.)\1{7,}")
# An alphabet or digit run such as `abcdefg` or `1234567`: typed, not generated.
_SEQUENCES = tuple(
    run[i:i + 7] for run in ("0123456789", "abcdefghijklmnopqrstuvwxyz") for i in range(len(run) - 6)
)

# What a value is when it is not a literal secret: mostly told by how it starts.
_NOT_LITERAL_PREFIXES = (
    # references and templating, code literals, YAML tags, command-line flags
    "$", "<%", "#{", "@{", "[", "{", "(", "--", "process.env", "os.environ", "import.meta.env",
    "System.getenv", "file:", "@Microsoft.KeyVault(", "arn:aws", "projects/", "@string/",
    # ciphertext
    "ENC[", "vault:", "sops:", "-----BEGIN AGE ENCRYPTED",
    # public keys and certificates, publishable keys
    "ssh-rsa", "ssh-ed25519", "ssh-dss", "ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-", "AAAAB3NzaC1",
    "AAAAC3NzaC1", "AAAAE2VjZHNh", "-----BEGIN CERTIFICATE", "-----BEGIN PUBLIC KEY",
    "-----BEGIN RSA PUBLIC KEY", "-----BEGIN PGP PUBLIC KEY", "npub1", "pk_live_", "pk_test_",
    "phc_", "pk.eyJ",
)
_NOT_LITERAL_LOWER_PREFIXES = (  # hashes and integrity strings, in any case
    "sha1-", "sha1:", "sha1=", "sha224", "sha256-", "sha256:", "sha256=", "sha256~", "sha384",
    "sha512-", "sha512:", "sha512=", "md5-", "md5:", "md5=", "blake2", "xxh", "pbkdf2", "{ssha",
    "{sha", "$argon2", "$scrypt$",
)
_CONFIG_OBJECTS = frozenset((
    "self", "this", "settings", "config", "conf", "cfg", "env", "process", "os", "app", "secrets",
    "vars", "options", "opts", "args", "params", "props", "context", "ctx", "credentials", "creds",
    "values", "Values", "cls", "request", "req", "window", "var", "local", "module", "data",
    "input", "inputs",
))
# The rest, anchored: Windows variables, format strings, YAML tags, code, numbers, dates,
# e-mail addresses, file names, host names.
_NOT_LITERAL = lazy("|".join((
    r"^(?:%[A-Za-z_]\w*%|.*\{[A-Za-z_]?[\w.()\[\]!:'\"]*\}|.*%(?:\(\w+\))?[sdr](?![A-Za-z0-9])"
    r"|![A-Za-z]|age1[0-9a-z]{50,}|\#[0-9a-f]{3,8}$|\#[a-z][a-z-]*$"
    r"|[a-z][a-z0-9]*(?:[-_.][a-z][a-z0-9]*)*[-_.]v?\d+(?:\.\d+){1,3}$)",  # a package and version
    r"^(?:[A-Za-z_][\w.]*[(\[]"
    r"|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.[a-z_]*(?:pass|secret|token|key|pwd|cred)[a-z_]*$"
    r"|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){2,}$"
    r"|_?[A-Za-z][a-z]*(?:[A-Z][a-z]+)*(?:\.[A-Za-z][a-z]*(?:[A-Z][a-z]+)*)+$)",
    r"^(?:[-+]?\d+(?:\.\d+)?(?:[smhdwyMKG%]|ms|min|mins|sec|secs|[kmgKMG][bB])?"
    r"|P(?:T?\d+[HMSDW])+|[vV]?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?|\d{4}-\d\d-\d\d(?:[T ][\d:.]+Z?)?"
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\d+(?::\d+)+"
    r"|[\w.-]+\.(?:pem|key|crt|cer|der|p12|pfx|json|ya?ml|toml|txt|env|ini|cfg|conf|jks|kdbx"
    r"|gpg|asc|pub|PEM|KEY|CRT|P12|PFX))$",
    r"^(?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|ai|co|cloud|internal|local|localhost|svc|corp"
    r"|lan|example|test|int)$",
)))
# Words joined by separators: `not-required`, `read_write`, `ProductionKey`, `TOKEN_TTL_SECONDS`.
_WORDY = lazy(r"^(?:[a-z]+(?:[-_.][a-z]+)*|[A-Z]*[a-z]*(?:[A-Z][a-z]+)+|[A-Z]+(?:_[A-Z]+)*)$")
_IDENTIFIER_CHARS = lazy(r"^[A-Za-z0-9_.\-]+$")
_FRAGMENT = lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_PATH = lazy(r"^(?:/|\./|\.\./|~/|[A-Za-z]:\\)[\w.\-/\\ ]*$")
# A path segment: a name in one case (or Capitalized), maybe with digits and an extension.
_NAMEY = lazy(r"^(?:[a-z0-9_.\-]{1,40}|[A-Z][a-z0-9_.\-]{0,39}|[A-Z0-9_.\-]{1,40})$")


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def mixed(value: str) -> bool:
    """Upper and lower case and a digit: how a made-up password or a short key reads."""
    return any(c.isupper() for c in value) and any(c.islower() for c in value) and \
        any(c.isdigit() for c in value)


def classes(value: str) -> int:
    """How many of lower, upper, digit, other appear."""
    return (
        any(c.islower() for c in value) + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value) + any(not c.isalnum() for c in value)
    )


def _marked(value: str, markers: tuple[str, ...]) -> bool:
    """A marker as people write it (lower, UPPER, Title): random letters rarely spell one."""
    low = value.lower()
    for marker in markers:
        i = low.find(marker)
        while i != -1:
            found = value[i:i + len(marker)]
            if found in (marker, marker.upper(), marker.title()):
                return True
            i = low.find(marker, i + 1)
    return False


def plausible(value: str) -> bool:
    """The checks every finding passes, whatever rule found it."""
    if len(value) < 4 or "REDACTED:" in value or value in DOC_EXAMPLES:
        return False
    if value.startswith(_KEY_BLOCKS):  # quoted or bulleted line by line: `>` and `*` are fine
        return "…" not in value and not _marked(value, _KEY_BLOCK_MARKERS)
    low = value.lower()
    return (
        _MARK_CHARS.isdisjoint(value) and not _marked(value, _MARKERS)
        and not any(run in low for run in _SEQUENCES)
    )


def is_placeholder(value: str) -> bool:
    low = value.lower()
    if low in PLACEHOLDERS or any(m in low for m in _WEAK_MARKERS):
        return True
    if _REPEAT().search(value) or len(set(low)) <= 2:
        return True
    core = low.rstrip("0123456789!?.#*_-")
    return core in PLACEHOLDERS or (
        len(value) < 40 and core.isalpha() and _FILLER().fullmatch(core) is not None
    )


def not_literal(value: str) -> bool:
    """A reference, template, secret-manager pointer, ciphertext, code, public key, hash,
    number, date, address, file name or plain URL: something other than a literal secret."""
    if value.startswith(_NOT_LITERAL_PREFIXES) or value.lower().startswith(
        _NOT_LITERAL_LOWER_PREFIXES
    ):
        return True
    if "{{" in value or "://" in value or ("${" in value and "}" in value):
        return True  # templates, plain URLs, secret-manager URLs
    head, dot, _ = value.partition(".")
    if dot and head in _CONFIG_OBJECTS:
        return True  # settings.API_KEY, process.env.X
    if (value.startswith(("AgA", "AgB", "AgC", "AgD")) and len(value) > 300) or (
        value.startswith("gAAAAA") and len(value) > 80
    ):
        return True  # SealedSecrets payloads, Fernet tokens
    return _NOT_LITERAL().match(value) is not None


def wordy(value: str) -> bool:
    """Words joined by separators (`not-required`, `superintendent`), not a generated value."""
    return _WORDY().match(value) is not None


_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "_-.+/=~:!%\\")


def one_alphabet(value: str) -> bool:
    """A token is drawn from one alphabet: letters, digits and `_-.+/=~:`. One or two odd
    characters (`?`, `#`, `%`, `$`) in a token-shaped value make it a typo or a mangled
    sample; a generated key with symbols throughout (Django's) has three kinds or more."""
    odd = set(value) - _TOKEN_CHARS
    return not odd or (len(odd) >= 3 and len(value) >= 32)


def is_path(value: str) -> bool:
    """A file path (`/etc/app/token`, `./certs/key.pem`), not base64 that starts with a slash."""
    if not _PATH().match(value):
        return False
    segments = [s for s in re.split(r"[/\\ ]", value) if s not in ("", ".", "..", "~")]
    return all(_NAMEY().match(s) for s in segments)


def literal(value: str) -> bool:
    """A literal value, not a placeholder, reference, public key, hash, ciphertext or number."""
    return plausible(value) and not (is_placeholder(value) or not_literal(value) or is_path(value))


def password_like(value: str, quoted: bool = False) -> bool:
    """A literal password: anything but a placeholder, a reference or a plain word."""
    if len(value) < 6 or not literal(value):
        return False
    bare = value.replace(" ", "")
    spaces = len(value) - len(bare)
    if spaces and (classes(bare) < 2 or (spaces >= 2 and not quoted)):
        return False  # a phrase ("keyboard cat", "sqlite, common (fast pass)")
    if _code_path(value):
        return False
    if _WORDY().match(value) and not _passphrase(value):
        return False  # `not-required`, `read_only`, `call_assertion_hook`: words, not a password
    n = classes(value)
    return n >= 2 or len(value) >= (8 if quoted else 12)


def credential_like(value: str) -> bool:
    """A token or key under a secret-sounding name: long enough and not words."""
    if len(value) < 8 or " " in value or not literal(value) or _WORDY().match(value):
        return False
    if identifier(value) or _code_path(value):
        return False  # `PKCS7PrivateKeyTypes`, `rsa.RSAPrivateKey`: code, not generated
    e = entropy(value)
    return (classes(value.strip("-_./:")) >= 2 and e >= 2.5) or (len(value) >= 20 and e >= 3.5)


def random_like(value: str) -> bool:
    """A value that counts without a telling name: it must look machine-generated."""
    return (
        len(value) >= 16 and "=" not in value.rstrip("=") and credential_like(value)
        and entropy(value) >= 3.2
        and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
        and _switches(value) >= max(4, len(value) // 6)
        and max(len(part) for part in re.split(r"[-./_+:]", value)) >= 12
        and not any(len(part) >= 12 and wordy(part) for part in re.split(r"[-./_+:]", value))
    )


_NOT_PASSPHRASE_WORDS = frozenset((
    "no", "not", "none", "password", "passwd", "secret", "token", "key", "required", "optional",
    "empty", "disabled", "enabled", "needed", "set", "unset", "here", "your", "my",
))


def _passphrase(value: str) -> bool:
    """`correct-horse-battery-staple`: three or more words joined by dashes or spaces."""
    words = re.split(r"[- ]", value.lower())
    return len(words) >= 3 and "_" not in value and "." not in value and not (
        _NOT_PASSPHRASE_WORDS.intersection(words)
    )


def _code_path(value: str) -> bool:
    """`token.ERRORTOKEN`, `win32api.RegOpenKeyEx`: a dotted path of identifiers."""
    parts = value.split(".")
    return len(parts) >= 2 and all(p[:1].isalpha() or p[:1] == "_" for p in parts) and any(
        identifier(p, 1) or (p.isupper() and len(p) >= 3) for p in parts
    )


def identifier(value: str, words: int = 2) -> bool:
    """`PKCS12PrivateKeyTypes`, `serverAuth`: made of programming words, not generated."""
    if not _IDENTIFIER_CHARS().match(value):
        return False
    known = 0
    for fragment in _FRAGMENT().findall(value):
        if fragment.isdigit() or len(fragment) <= 2 or fragment.lower() in CODE_WORDS:
            known += fragment.lower() in CODE_WORDS
        elif not (fragment.isupper() and len(fragment) <= 5):
            return False
    return known >= words


def _kind(c: str) -> int:
    return 0 if c.islower() else 1 if c.isupper() else 2 if c.isdigit() else 3


def _switches(value: str) -> int:
    """How often the character class changes: high in generated tokens, low in names."""
    return sum(_kind(a) != _kind(b) for a, b in itertools.pairwise(value))
