"""Hard negatives and filler for the corpus: text that looks like a secret and is not.

Each family is one function returning a Markdown snippet without any live
secret. `FAMILIES` lists them (30); `negative(rng)` picks one.
"""
from __future__ import annotations

import base64
import random
from collections.abc import Callable

from tests.secrets.shapes import ALNUM, B64, HEX, URLSAFE, b64, r, uuid

DIGITS = "0123456789"
POD = "bcdfghjklmnpqrstvwxz2456789"
TITLES = ["Project memory", "Notes", "Deploy notes", "Session notes", "Runbook", "Decisions"]

_FILLER = [
    "- preference: Use uv, not pip, to install dependencies.",
    "- fact: The API lives in `services/api`; the worker in `services/worker`.",
    "- workflow: Run `make test` before pushing; CI runs the same target.",
    "- pitfall: The token budget for the summary is 4,000 characters — keep entries short.",
    "- decision: Keep the password reset flow behind the feature flag until Q3.",
    "The key insight: retries must be idempotent, so every job carries its own request id.",
    "We rotate credentials every 90 days; the rotation script lives in `ops/rotate.py`.",
    "Authentication uses OAuth2 with PKCE; the authorization server is Keycloak.",
    "## Why\nThe old cache key scheme collided across tenants.",
    "## How to apply\nPass `--no-cache` when the lockfile changes.",
    "See [the runbook](docs/runbook.md) and https://docs.python.org/3/library/secrets.html.",
    "```python\ndef load(path: str) -> dict:\n    with open(path) as f:\n        return json.load(f)\n```",
    "| service | port | owner |\n|---|---|---|\n| api | 8080 | web |\n| worker | 9090 | data |",
    "Naïve retry loops caused a thundering herd — use jittered backoff (see “Backoff” notes)…",
    "- fact: The staging cluster is `stg-eu-1`; production is `prd-eu-1` and `prd-us-2`.",
    "> **User:** please keep the tests under a minute\n> **Assistant:** done — split the slow ones.",
]


_SUBJECTS = ["The API", "The worker", "CI", "The nightly job", "The web app", "The importer",
             "Our staging cluster", "The search index", "The billing service", "The CLI"]
_VERBS = ["retries", "caches", "streams", "validates", "batches", "logs", "schedules", "rejects",
          "compresses", "migrates", "renders", "indexes"]
_OBJECTS = ["large uploads", "every request", "the nightly export", "stale entries",
            "malformed rows", "the PDF reports", "user avatars", "webhook events",
            "the daily digest", "feature flags"]
_TAILS = ["since the 2.3 release", "when the queue backs up", "behind the load balancer",
          "unless `--dry-run` is given", "for tenants on the legacy plan", "in under 200 ms",
          "after the schema change", "so keep an eye on the dashboard"]


def sentence(rng: random.Random) -> str:
    return (f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} "
            f"{rng.choice(_TAILS)}.")


def filler(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(_FILLER) + "\n"
    return " ".join(sentence(rng) for _ in range(rng.randint(1, 4))) + "\n"


def _placeholders(g: random.Random) -> str:
    return g.choice([
        "- OPENAI_API_KEY=<YOUR_OPENAI_API_KEY>\n", "export GITHUB_TOKEN=your-token-here\n",
        "```env\nSTRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx\n```\n",
        "DB_PASSWORD=changeme\n", "- password: `********`\n", "API_KEY=\"...\"\n",
        "| DB_PASSWORD | <set in vault> |\n", "SECRET_KEY=replace-me\n", "token: TODO\n",
        "password: password\n", "ADMIN_PASSWORD=admin\n", "- api key: `sk-…`\n",
    ])


def _variables(g: random.Random) -> str:
    return g.choice([
        "export API_TOKEN=$API_TOKEN\n", "DB_PASSWORD=${DB_PASSWORD}\n",
        "```yaml\nenv:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n```\n",
        "password: {{ .Values.db.password }}\n", "set API_KEY=%API_KEY%\n",
        "TOKEN=$(cat /run/secrets/api_token)\n", "`Authorization: Bearer $GITHUB_TOKEN`\n",
        "curl -u \"$USER:$PASS\" https://api.internal\n",
    ])


def _secret_refs(g: random.Random) -> str:
    return g.choice([
        "- DB_PASSWORD=op://Engineering/postgres/password\n",
        f"SECRET_ARN=arn:aws:secretsmanager:us-east-1:{r(g, DIGITS, 12)}:secret:prod/"
        f"db-{r(g, ALNUM, 6)}\n",
        "api_key: projects/acme-prod/secrets/openai-key/versions/latest\n",
        "DATABASE_PASSWORD=vault:secret/data/app#password\n",
        "password: '{{resolve:secretsmanager:prod/db:SecretString:password}}'\n",
        "API_KEY=@Microsoft.KeyVault(SecretUri=https://kv1.vault.azure.net/secrets/api/)\n",
    ])


def _sops(g: random.Random) -> str:
    return (f"```yaml\ndb_password: ENC[AES256_GCM,data:{b64(g, 12)},iv:{b64(g, 32)},"
            f"tag:{b64(g, 16)},type:str]\n```\n")


def _ansible(g: random.Random) -> str:
    body = "\n".join("          " + r(g, HEX, 80) for _ in range(3))
    return f"```yaml\ndb_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n{body}\n```\n"


def _age(g: random.Random) -> str:
    if g.random() < 0.5:
        return f"- SOPS_AGE_RECIPIENTS=age1{r(g, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}\n"
    body = "\n".join(b64(g, 48) for _ in range(3))
    return f"```\n-----BEGIN AGE ENCRYPTED FILE-----\n{body}\n-----END AGE ENCRYPTED FILE-----\n```\n"


def _public_keys(g: random.Random) -> str:
    if g.random() < 0.5:
        return f"- deploy key (public): `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{r(g, B64, 43)} ci@build`\n"
    body = "\n".join(b64(g, 48) for _ in range(5))
    label = g.choice(["PUBLIC KEY", "CERTIFICATE"])
    return f"```\n-----BEGIN {label}-----\n{body}\n-----END {label}-----\n```\n"


def _hashes(g: random.Random) -> str:
    return g.choice([
        f"- checksum: sha256:{r(g, HEX, 64)}\n", f"PASSWORD_HASH=$2b$12${r(g, ALNUM + './', 53)}\n",
        f"TOKEN_SHA256={r(g, HEX, 64)}\n", f"- md5 of the dump: `{r(g, HEX, 32)}`\n",
    ])


def _integrity(g: random.Random) -> str:
    return (f"```\nintegrity sha512-{b64(g, 64)}\nresolved \"https://registry.yarnpkg.com/"
            f"left-pad/-/left-pad-1.3.0.tgz#{r(g, HEX, 40)}\"\n```\n")


def _git_shas(g: random.Random) -> str:
    return g.choice([
        f"Fixed in commit {r(g, HEX, 40)} (see the PR).\n", f"GIT_SHA={r(g, HEX, 40)}\n",
        f"- pinned `actions/checkout@{r(g, HEX, 40)}`\n", f"rev: {r(g, HEX, 12)}\n",
    ])


def _doc_examples(g: random.Random) -> str:
    return g.choice([
        "AWS docs use AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.\n",
        "```\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n```\n",
        "Stripe's docs show `sk_test_4eC39HqLyjWDarjtT1zdp7dc`.\n",
        "jwt.io sample: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6"
        "IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\n",
        "GITHUB_TOKEN=ghp_EXAMPLEexampleEXAMPLEexampleEXAMPLE1\n",
    ])


def _masked(g: random.Random) -> str:
    return g.choice([
        f"- key in use: `sk-proj-****{r(g, ALNUM, 4)}`\n", f"- token ghp_…{r(g, ALNUM, 4)}\n",
        "AWS_ACCESS_KEY_ID=AKIA************\n", "password: ••••••••\n",
        "SLACK_TOKEN=[MASKED]\n", f"- OPENAI_API_KEY=sk-...{r(g, ALNUM, 4)}\n",
    ])


def _not_secret_values(g: random.Random) -> str:
    return g.choice([
        "TOKEN_TTL_SECONDS=3600\n", "MAX_TOKENS=4096\n", "PASSWORD_MIN_LENGTH=12\n",
        "SECRET_NAME=db-credentials\n", "API_KEY_HEADER=X-Api-Key\n",
        "AUTH_URL=https://auth.internal/oauth/token\n", "token_budget: 4000\n",
        "JWT_EXPIRES_IN=15m\n", "SESSION_SECRET_ROTATION=true\n", "- password_policy: strict\n",
        "PRIVATE_KEY_PATH=./certs/server.key\n", "TOKEN_ENDPOINT=/oauth2/token\n",
    ])


def _uuids(g: random.Random) -> str:
    return g.choice([f"- request id `{uuid(g)}` failed twice\n", f"tenant_id: {uuid(g)}\n",
                     f"trace_id={r(g, HEX, 32)} span_id={r(g, HEX, 16)}\n"])


def _publishable(g: random.Random) -> str:
    return g.choice([
        f"STRIPE_PUBLISHABLE_KEY=pk_live_{r(g, ALNUM, 99)}\n", f"POSTHOG_KEY=phc_{r(g, ALNUM, 43)}\n",
        f"MAPBOX_PUBLIC_TOKEN=pk.eyJ1Ijoi{r(g, ALNUM, 20)}.{r(g, URLSAFE, 22)}\n",
    ])


def _dsn(g: random.Random) -> str:
    return (f"SENTRY_DSN=https://{r(g, HEX, 32)}@o{r(g, DIGITS, 6)}.ingest.sentry.io/"
            f"{r(g, DIGITS, 7)}\n")


def _urls(g: random.Random) -> str:
    return g.choice([
        "git clone git@github.com:acme/api.git\n", "ssh://git@git.corp.net:2222/infra.git\n",
        "https://user@bitbucket.org/acme/repo.git\n", "Contact ops@acme.io for access.\n",
        "https://example.com/callback?code=&state=xyz\n",
        f"https://github.com/acme/api/blob/main/docs/{r(g, 'abcdefgh-', 40)}.md\n",
    ])


def _digests(g: random.Random) -> str:
    return f"image: ghcr.io/acme/api@sha256:{r(g, HEX, 64)}\n"


def _data_uri(g: random.Random) -> str:
    return f"![logo](data:image/png;base64,iVBORw0KGgo{b64(g, 90)})\n"


def _ids(g: random.Random) -> str:
    return g.choice([
        f"- pod `api-{r(g, POD, 10)}-{r(g, POD, 5)}` crashed\n",
        f"s3://acme-artifacts/builds/{r(g, HEX, 40)}/app.tar.gz\n",
        f"The run id is {r(g, '0123456789', 11)}; artifact `{r(g, ALNUM, 20)}`.\n",
    ])


def _prose_mentions(g: random.Random) -> str:
    return g.choice([
        "The password is stored in 1Password under \"Staging DB\".\n",
        "The password is rotated every 90 days by the ops team.\n",
        "Password is required for the admin console; ask in #ops.\n",
        "The API key is in the vault, never in the repo.\n",
        "The token is refreshed automatically by the SDK.\n",
        "User: the password is the same as last time, check the vault\n",
        "The password is case-sensitive and must be 12+ characters.\n",
    ])


def _code_refs(g: random.Random) -> str:
    return g.choice([
        "```python\napi_key = os.environ[\"OPENAI_API_KEY\"]\n```\n",
        "```js\nconst secret = process.env.STRIPE_SECRET_KEY;\n```\n",
        "```python\nclient = OpenAI(api_key=settings.OPENAI_KEY)\n```\n",
        "```python\npassword = getpass.getpass()\n```\n",
        "```hcl\npassword = var.db_password\n```\n",
        "token = config.get(\"auth\", \"token\")\n",
    ])


def _k8s_refs(g: random.Random) -> str:
    return ("```yaml\nenv:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n"
            "        name: db\n        key: password\n```\n")


def _empty(g: random.Random) -> str:
    return g.choice(["API_KEY=\n", "password: \"\"\n", "- SECRET_KEY= (fill in locally)\n"])


def _identifiers(g: random.Random) -> str:
    return g.choice([
        "Call `getAccessTokenFromRefreshTokenForServiceAccount()` once per job.\n",
        "The class `TokenBucketRateLimiterConfiguration` owns the limits.\n",
        "PasswordResetTokenExpirationSecondsValidator rejects negatives.\n",
    ])


def _llm_tokens(g: random.Random) -> str:
    return g.choice([
        "The prompt is about 12k tokens; the key point is the budget.\n",
        "- fact: token limit is 128000 for the large model\n",
    ])


def _sealed(g: random.Random) -> str:
    return f"```yaml\nencryptedData:\n  password: AgB{b64(g, 300)}\n```\n"


def _vault_transit(g: random.Random) -> str:
    return f"ciphertext: vault:v1:{b64(g, 48)}\n"


def _base64_blobs(g: random.Random) -> str:
    blob = base64.b64encode(b"hello from the build system, nothing secret here").decode()
    return f"- base64 of the banner: `{blob}`\n"


def _colors_versions(g: random.Random) -> str:
    return g.choice(["Accent color #1f6feb, hover #0d419d.\n", "Pinned to 3.11.7 and ^18.2.0.\n",
                     f"- build {r(g, HEX, 7)} on 2024-05-02T10:11:12Z\n"])


FAMILIES: list[Callable[[random.Random], str]] = [
    _placeholders, _variables, _secret_refs, _sops, _ansible, _age, _public_keys, _hashes,
    _integrity, _git_shas, _doc_examples, _masked, _not_secret_values, _uuids, _publishable,
    _dsn, _urls, _digests, _data_uri, _ids, _prose_mentions, _code_refs, _k8s_refs, _empty,
    _identifiers, _llm_tokens, _sealed, _vault_transit, _base64_blobs, _colors_versions,
]


def negative(rng: random.Random) -> str:
    return rng.choice(FAMILIES)(rng)
