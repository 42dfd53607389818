"""A seeded corpus of Markdown memory files with planted secrets and hard negatives.

`generate(seed, n)` returns documents whose secret spans are known exactly;
`evaluate(docs, scan)` measures recall, full-span recall and precision of a
scanner on them. Secrets sit in bullets, tables, fenced dotenv/YAML/JSON/TOML/INI
blocks, shell and PowerShell lines, prose and transcript turns; negatives come
from `negatives.py` (placeholders, references, ciphertext, hashes, examples, …).
"""
from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable, Iterable
from typing import NamedTuple

from tests.secrets import negatives, shapes
from tests.secrets.shapes import ALNUM, r


class Planted(NamedTuple):
    start: int
    end: int
    family: str


class Doc(NamedTuple):
    text: str
    secrets: tuple[Planted, ...]


class Metrics(NamedTuple):
    planted: int
    found: int
    recall: float
    full_span_recall: float
    precision: float
    misses: list[tuple[str, str]]           # (family, context line)
    false_positives: list[tuple[str, str]]  # (kind, context line)


SECRET = "\0"  # where the value goes in a template


class _Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.secrets: list[Planted] = []

    def text(self, s: str) -> None:
        self.parts.append(s)
        self.size += len(s)

    def template(self, template: str, value: str, family: str) -> None:
        before, after = template.split(SECRET)
        self.text(before)
        self.secrets.append(Planted(self.size, self.size + len(value), family))
        self.text(value)
        self.text(after)

    def doc(self) -> Doc:
        return Doc("".join(self.parts), tuple(self.secrets))


NAMED = [
    "- {name}={v}\n",
    "- `{name}={v}` (set on the staging box)\n",
    "| key | value | where |\n|---|---|---|\n| {name} | {v} | staging |\n",
    "| Setting | Value |\n| --- | --- |\n| `{name}` | `{v}` |\n",
    "```dotenv\nLOG_LEVEL=debug\n{name}={v}\n```\n",
    "```bash\nexport {name}=\"{v}\"\n```\n",
    "```yaml\nservice:\n  {lname}: {v}\n  region: eu-west-1\n```\n",
    "```yaml\nenv:\n  - name: {name}\n    value: \"{v}\"\n```\n",
    "```json\n{{\"{lname}\": \"{v}\", \"timeout\": 30}}\n```\n",
    "```toml\n[service]\n{lname} = \"{v}\"\n```\n",
    "```ini\n[auth]\n{lname} = {v}\n```\n",
    "Run `docker run -e {name}={v} app:latest` to reproduce.\n",
    "```powershell\n$env:{name} = \"{v}\"\n```\n",
    "```dockerfile\nENV {name}={v}\n```\n",
    "- **{label}:** `{v}`\n",
    "> **User:** use {name}={v} for the sandbox\n",
    "**User:** my {label} is {v}\n",
    "```python\nsettings = {{\"{lname}\": '{v}'}}\n```\n",
    "kubectl create secret generic app --from-literal={lname}={v}\n",
]
UNNAMED = [
    "- token for the deploy bot: {v}\n",
    "The key that works is {v} (do not share).\n",
    "> **Assistant:** I used `{v}` to call the API and it returned 200.\n",
    "User: here is my key {v}\n",
    "Paste `{v}` into the CI settings page.\n",
    "* {v} is the one for prod\n",
]
PROSE_PASSWORD = [
    "The staging db password is {v}.\n",
    "Password for the admin console: {v}\n",
    "the wifi passphrase is \"{v}\"\n",
    "pw for grafana is `{v}`\n",
    "User: the root password on the bastion is {v} - please remember it\n",
    "Ops said the new password will be {v}\n",
]
URLS = [
    "- Connect with `postgres://{user}:{v}@db.internal:5432/app`\n",
    "DATABASE_URL=mysql://{user}:{v}@10.0.0.5/prod\n",
    "```\nredis://:{v}@cache:6379/0\n```\n",
    "git remote set-url origin https://{user}:{v}@git.corp.net/group/repo.git\n",
    "Broker is amqp://{user}:{v}@mq:5672/ (see runbook).\n",
    "mongodb+srv://{user}:{v}@cluster0.ab1cd.mongodb.net/test?retryWrites=true\n",
]


def _fill(template: str, **kw: str) -> str:
    return template.replace("{v}", SECRET).format(**kw)


def _named(rng: random.Random, b: _Builder) -> None:
    family = rng.choice(list(shapes.PROVIDERS))
    name, shape = shapes.PROVIDERS[family]
    value = shape(rng)
    tpl = rng.choice(NAMED)
    label = name.lower().replace("_", " ")
    b.template(_fill(tpl, name=name, lname=name.lower(), label=label), value, family)


def _unnamed(rng: random.Random, b: _Builder) -> None:
    contextual = {"aws-secret", "mistral", "cohere", "twilio-auth", "datadog-api", "datadog-app",
                  "azure-storage", "heroku", "generic-secret", "generic-password"}
    family = rng.choice([f for f in shapes.PROVIDERS if f not in contextual])
    b.template(_fill(rng.choice(UNNAMED)), shapes.PROVIDERS[family][1](rng), family)


def _url_password(rng: random.Random) -> str:
    return r(rng, ALNUM, rng.randint(10, 20)) + rng.choice("-_.~!*") + r(rng, ALNUM, 3)


def _url(rng: random.Random, b: _Builder) -> None:
    user = rng.choice(["app", "svc_deploy", "readonly", "admin2", "etl"])
    b.template(_fill(rng.choice(URLS), user=user), _url_password(rng), "url-credentials")


def _prose(rng: random.Random, b: _Builder) -> None:
    b.template(_fill(rng.choice(PROSE_PASSWORD)), shapes.password(rng), "password-in-prose")


def _header(rng: random.Random, b: _Builder) -> None:
    if rng.random() < 0.5:
        tpl = "curl -H \"Authorization: Bearer {v}\" https://api.internal/v1/jobs\n"
        value = r(rng, ALNUM, 40)
    else:
        tpl = "```http\nGET /v1/report HTTP/1.1\nAuthorization: Basic {v}\n```\n"
        value = base64.b64encode(f"ops:{shapes.password(rng)}".encode()).decode()
    b.template(_fill(tpl), value, "authorization-header")


def _connection(rng: random.Random, b: _Builder) -> None:
    if rng.random() < 0.5:
        tpl = ("`Server=tcp:sql.internal,1433;Database=app;User ID=svc;Password={v};"
               "Encrypt=True;`\n")
        b.template(_fill(tpl), shapes.password(rng).replace(";", "!"), "connection-string")
    else:
        tpl = ("- storage: `DefaultEndpointsProtocol=https;AccountName=acct1;AccountKey={v};"
               "EndpointSuffix=core.windows.net`\n")
        b.template(_fill(tpl), shapes.b64(rng, 64), "connection-string")


def _private_key(rng: random.Random, b: _Builder) -> None:
    key = shapes.private_key(rng)
    if rng.random() < 0.3 and "PGP" not in key:
        escaped = json.dumps(key)[1:-1]
        tpl = ("```json\n{\"type\": \"service_account\", \"project_id\": \"demo-1\", "
               "\"private_key\": \"" + SECRET + "\\n\", \"client_email\": \"x@demo-1.iam\"}\n```\n")
        b.template(tpl, escaped, "private-key")
    else:
        b.template("Deploy key (old, rotated?):\n```\n" + SECRET + "\n```\n", key, "private-key")


POSITIVES: list[tuple[float, Callable[[random.Random, _Builder], None]]] = [
    (0.45, _named), (0.17, _unnamed), (0.1, _url), (0.1, _prose), (0.06, _header),
    (0.06, _connection), (0.06, _private_key),
]


def _positive(rng: random.Random, b: _Builder) -> None:
    x = rng.random() * sum(w for w, _ in POSITIVES)
    for weight, make in POSITIVES:
        x -= weight
        if x <= 0:
            make(rng, b)
            return
    POSITIVES[-1][1](rng, b)


def document(rng: random.Random, secrets: int = 2, negatives_n: int = 4, filler: int = 6) -> Doc:
    b = _Builder()
    b.text(f"# {rng.choice(negatives.TITLES)}\n\n")
    kinds = ["s"] * secrets + ["n"] * negatives_n + ["f"] * filler
    rng.shuffle(kinds)
    for k in kinds:
        if k == "s":
            _positive(rng, b)
        elif k == "n":
            b.text(negatives.negative(rng))
        else:
            b.text(negatives.filler(rng))
        b.text("\n")
    return b.doc()


def generate(seed: int, n: int) -> list[Doc]:
    rng = random.Random(seed)
    return [document(rng, rng.randint(0, 3), rng.randint(2, 6)) for _ in range(n)]


def record(rng: random.Random) -> str:
    """A record-shaped Markdown file: front matter and three prose sections."""
    def para() -> str:
        return " ".join(negatives.sentence(rng) for _ in range(rng.randint(2, 5)))

    rid = f"2026{rng.randint(1000, 1231)}-{r(rng, 'abcdefghij', 8)}-{r(rng, '0123456789abcdef', 6)}"
    extra = negatives.filler(rng) if rng.random() < 0.5 else ""
    return (
        f"---\nid: {rid}\ntype: {rng.choice(['fact', 'workflow', 'pitfall', 'decision'])}\n"
        f"source: user\nstatus: stated\nactor: auto\ncreated: 2026-11-29T23:50:00Z\n"
        f"summary: {negatives.sentence(rng)}\n---\n## Conclusion\n{para()}\n## Why\n{para()}\n"
        f"## How to apply\n{para()}\n{extra}\n"
    )


def big_markdown(seed: int, size: int) -> str:
    """A long memory-like Markdown text (for the benchmark).

    Four parts in five are record-shaped prose; one in five is a corpus document
    (secrets, hard negatives, bullets, tables, fenced blocks)."""
    rng = random.Random(seed)
    parts, total = [], 0
    while total < size:
        chunk = document(rng, rng.choice([0, 1]), rng.randint(1, 3)).text \
            if rng.random() < 0.2 else record(rng)
        parts.append(chunk)
        total += len(chunk)
    return "".join(parts)[:size]


def evaluate(docs: Iterable[Doc], scan: Callable[[str], list[tuple[int, int, str]]]) -> Metrics:
    planted = found = hit = full = true_pos = 0
    misses: list[tuple[str, str]] = []
    fps: list[tuple[str, str]] = []
    for doc in docs:
        spans = scan(doc.text)
        found += len(spans)
        for p in doc.secrets:
            planted += 1
            over = [s for s in spans if s[0] < p.end and s[1] > p.start]
            hit += bool(over)
            full += any(s[0] <= p.start and s[1] >= p.end for s in over)
            if not any(s[0] <= p.start and s[1] >= p.end for s in over):
                misses.append((p.family, _line(doc.text, p.start)))
        for s in spans:
            if any(s[0] < p.end and s[1] > p.start for p in doc.secrets):
                true_pos += 1
            else:
                fps.append((s[2], _line(doc.text, s[0])))
    return Metrics(
        planted, found, hit / max(planted, 1), full / max(planted, 1),
        true_pos / max(found, 1), misses, fps,
    )


def _line(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:end if end != -1 else len(text)][:160]
