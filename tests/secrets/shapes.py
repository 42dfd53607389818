"""Random secret values in each provider's documented shape (for the seeded corpus).

Written from the providers' documentation of their token formats, not from the
detector's rules: a shape here is what a real token looks like.
"""
from __future__ import annotations

import base64
import random
import string
from collections.abc import Callable

ALNUM = string.ascii_letters + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BASE32 = string.ascii_uppercase + "234567"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def uuid(rng: random.Random) -> str:
    h = r(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def b64(rng: random.Random, nbytes: int) -> str:
    return base64.b64encode(rng.randbytes(nbytes)).decode()


def jwt(rng: random.Random) -> str:
    def part(obj: str) -> str:
        return base64.urlsafe_b64encode(obj.encode()).decode().rstrip("=")

    sub = r(rng, LOWER_ALNUM, 12)
    header = part('{"alg":"HS256","typ":"JWT"}')
    payload = part(f'{{"sub":"{sub}","iat":{rng.randint(1600000000, 1800000000)},"role":"svc"}}')
    return f"{header}.{payload}.{r(rng, URLSAFE, 43)}"


def password(rng: random.Random) -> str:
    """A password a person would paste: mixed classes, sometimes word-based."""
    if rng.random() < 0.35:
        words = ["river", "Falcon", "copper", "Maple", "orbit", "Tundra", "velvet", "Quartz"]
        return f"{rng.choice(words)}-{rng.choice(words)}-{rng.randint(10, 999)}{rng.choice('!#%&*')}"
    core = r(rng, ALNUM, rng.randint(9, 18))
    pos = rng.randint(1, len(core) - 1)
    core = core[:pos] + rng.choice("!#%^*+=?@") + core[pos:]
    return core + str(rng.randint(0, 9))


def generic_token(rng: random.Random) -> str:
    """A secret with no telling prefix: hex, base62, base64, UUID or URL-safe."""
    kind = rng.randrange(7)
    if kind == 5:
        return uuid(rng)
    if kind == 4:
        return b64(rng, 30)
    alphabet, n = [(HEX, 32), (HEX, 40), (ALNUM, 32), (ALNUM, 40), ("", 0), ("", 0),
                   (URLSAFE, 43)][kind]
    return r(rng, alphabet, n)


def _pem(rng: random.Random, label: str, nbytes: int, headers: str = "") -> str:
    body = b64(rng, nbytes)
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {label}-----\n{headers}" + "\n".join(lines) + f"\n-----END {label}-----"


def private_key(rng: random.Random) -> str:
    label = rng.choice([
        "RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY", "ENCRYPTED PRIVATE KEY",
        "OPENSSH PRIVATE KEY", "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK",
    ])
    headers = ""
    if label == "RSA PRIVATE KEY" and rng.random() < 0.3:
        iv = r(rng, HEX.upper(), 32)
        headers = f"Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,{iv}\n\n"
    if label.startswith("PGP"):
        headers = "Version: GnuPG v2\n\n"
    return _pem(rng, label, rng.choice([121, 240, 400, 900]), headers)


Shape = Callable[[random.Random], str]

# kind family -> value factory; the env name a person would give it.
PROVIDERS: dict[str, tuple[str, Shape]] = {
    "github-token": ("GITHUB_TOKEN", lambda g: "ghp_" + r(g, ALNUM, 36)),
    "github-oauth": ("GH_OAUTH_TOKEN", lambda g: "gho_" + r(g, ALNUM, 36)),
    "github-app": ("GH_APP_TOKEN", lambda g: g.choice(["ghs_", "ghu_"]) + r(g, ALNUM, 36)),
    "github-fine-grained": ("GITHUB_PAT",
                            lambda g: f"github_pat_{r(g, ALNUM, 22)}_{r(g, ALNUM, 59)}"),
    "gitlab-pat": ("GITLAB_TOKEN", lambda g: "glpat-" + r(g, URLSAFE, 20)),
    "gitlab-runner": ("CI_RUNNER_TOKEN", lambda g: "glrt-" + r(g, URLSAFE, 20)),
    "aws-access-key-id": ("AWS_ACCESS_KEY_ID", lambda g: g.choice(["AKIA", "ASIA"]) + r(g, BASE32, 16)),
    "aws-secret": ("AWS_SECRET_ACCESS_KEY", lambda g: r(g, B64, 40)),
    "google-api-key": ("GOOGLE_API_KEY", lambda g: "AIza" + r(g, URLSAFE, 35)),
    "gcp-client-secret": ("GOOGLE_CLIENT_SECRET", lambda g: "GOCSPX-" + r(g, URLSAFE, 28)),
    "openai-project": ("OPENAI_API_KEY",
                       lambda g: f"sk-proj-{r(g, URLSAFE, 74)}T3BlbkFJ{r(g, URLSAFE, 74)}"),
    "openai-legacy": ("OPENAI_API_KEY", lambda g: f"sk-{r(g, ALNUM, 20)}T3BlbkFJ{r(g, ALNUM, 20)}"),
    "anthropic": ("ANTHROPIC_API_KEY", lambda g: f"sk-ant-api03-{r(g, URLSAFE, 93)}AA"),
    "huggingface": ("HF_TOKEN", lambda g: "hf_" + r(g, string.ascii_letters, 34)),
    "groq": ("GROQ_API_KEY", lambda g: "gsk_" + r(g, ALNUM, 52)),
    "replicate": ("REPLICATE_API_TOKEN", lambda g: "r8_" + r(g, ALNUM, 37)),
    "perplexity": ("PPLX_API_KEY", lambda g: "pplx-" + r(g, ALNUM, 48)),
    "openrouter": ("OPENROUTER_API_KEY", lambda g: "sk-or-v1-" + r(g, HEX, 64)),
    "xai": ("XAI_API_KEY", lambda g: "xai-" + r(g, ALNUM, 80)),
    "mistral": ("MISTRAL_API_KEY", lambda g: r(g, ALNUM, 32)),
    "cohere": ("CO_API_KEY", lambda g: r(g, ALNUM, 40)),
    "slack-bot": ("SLACK_BOT_TOKEN",
                  lambda g: f"xoxb-{r(g, string.digits, 12)}-{r(g, string.digits, 13)}-{r(g, ALNUM, 24)}"),
    "slack-user": ("SLACK_TOKEN",
                   lambda g: f"xoxp-{r(g, string.digits, 12)}-{r(g, string.digits, 12)}-"
                             f"{r(g, string.digits, 13)}-{r(g, HEX, 32)}"),
    "slack-webhook": ("SLACK_WEBHOOK_URL",
                      lambda g: f"https://hooks.slack.com/services/T{r(g, UPPER_ALNUM, 10)}/"
                                f"B{r(g, UPPER_ALNUM, 10)}/{r(g, ALNUM, 24)}"),
    "discord-webhook": ("DISCORD_WEBHOOK",
                        lambda g: f"https://discord.com/api/webhooks/{r(g, string.digits, 18)}/"
                                  f"{r(g, URLSAFE, 68)}"),
    "telegram": ("TELEGRAM_BOT_TOKEN", lambda g: f"{r(g, string.digits, 10)}:AA{r(g, URLSAFE, 33)}"),
    "stripe-secret": ("STRIPE_SECRET_KEY",
                      lambda g: g.choice(["sk_live_", "sk_test_", "rk_live_"]) + r(g, ALNUM, 99)),
    "stripe-webhook": ("STRIPE_WEBHOOK_SECRET", lambda g: "whsec_" + r(g, ALNUM, 32)),
    "square": ("SQUARE_ACCESS_TOKEN", lambda g: "EAAA" + r(g, URLSAFE, 60)),
    "shopify": ("SHOPIFY_ACCESS_TOKEN", lambda g: "shpat_" + r(g, HEX, 32)),
    "twilio-key": ("TWILIO_API_KEY", lambda g: "SK" + r(g, HEX, 32)),
    "twilio-auth": ("TWILIO_AUTH_TOKEN", lambda g: r(g, HEX, 32)),
    "sendgrid": ("SENDGRID_API_KEY", lambda g: f"SG.{r(g, URLSAFE, 22)}.{r(g, URLSAFE, 43)}"),
    "mailgun": ("MAILGUN_API_KEY", lambda g: "key-" + r(g, HEX, 32)),
    "mailchimp": ("MAILCHIMP_API_KEY", lambda g: f"{r(g, HEX, 32)}-us{g.randint(1, 21)}"),
    "npm": ("NPM_TOKEN", lambda g: "npm_" + r(g, ALNUM, 36)),
    "pypi": ("PYPI_TOKEN", lambda g: "pypi-AgEIcHlwaS5vcmc" + r(g, URLSAFE, 70)),
    "rubygems": ("GEM_HOST_API_KEY", lambda g: "rubygems_" + r(g, HEX, 48)),
    "nuget": ("NUGET_API_KEY", lambda g: "oy2" + r(g, LOWER_ALNUM, 43)),
    "docker-hub": ("DOCKERHUB_TOKEN", lambda g: "dckr_pat_" + r(g, URLSAFE, 27)),
    "digitalocean": ("DIGITALOCEAN_TOKEN", lambda g: "dop_v1_" + r(g, HEX, 64)),
    "databricks": ("DATABRICKS_TOKEN", lambda g: "dapi" + r(g, HEX, 32)),
    "vault": ("VAULT_TOKEN", lambda g: "hvs." + r(g, URLSAFE, 90)),
    "terraform": ("TFE_TOKEN", lambda g: f"{r(g, ALNUM, 14)}.atlasv1.{r(g, URLSAFE, 67)}"),
    "pulumi": ("PULUMI_ACCESS_TOKEN", lambda g: "pul-" + r(g, HEX, 40)),
    "doppler": ("DOPPLER_TOKEN", lambda g: "dp.st." + r(g, ALNUM, 43)),
    "datadog-api": ("DD_API_KEY", lambda g: r(g, HEX, 32)),
    "datadog-app": ("DD_APP_KEY", lambda g: r(g, HEX, 40)),
    "new-relic": ("NEW_RELIC_API_KEY", lambda g: "NRAK-" + r(g, UPPER_ALNUM, 27)),
    "sentry-user": ("SENTRY_AUTH_TOKEN", lambda g: "sntryu_" + r(g, HEX, 64)),
    "grafana-sa": ("GRAFANA_TOKEN", lambda g: f"glsa_{r(g, ALNUM, 32)}_{r(g, HEX, 8)}"),
    "linear": ("LINEAR_API_KEY", lambda g: "lin_api_" + r(g, ALNUM, 40)),
    "notion": ("NOTION_TOKEN", lambda g: "ntn_" + r(g, string.digits, 11) + r(g, ALNUM, 35)),
    "atlassian": ("JIRA_API_TOKEN", lambda g: "ATATT3" + r(g, URLSAFE, 186)),
    "figma": ("FIGMA_TOKEN", lambda g: "figd_" + r(g, URLSAFE, 40)),
    "postman": ("POSTMAN_API_KEY", lambda g: f"PMAK-{r(g, HEX, 24)}-{r(g, HEX, 34)}"),
    "age": ("SOPS_AGE_KEY", lambda g: "AGE-SECRET-KEY-1" + r(g, BECH32.upper(), 58)),
    "azure-storage": ("AZURE_STORAGE_KEY", lambda g: b64(g, 64)),
    "azure-client-secret": ("AZURE_CLIENT_SECRET",
                            lambda g: f"{r(g, ALNUM, 3)}{g.randint(0, 9)}Q~{r(g, ALNUM + '_~.-', 34)}"),
    "heroku": ("HEROKU_API_KEY", lambda g: uuid(g)),
    "supabase": ("SUPABASE_ACCESS_TOKEN", lambda g: "sbp_" + r(g, HEX, 40)),
    "planetscale": ("PLANETSCALE_TOKEN", lambda g: "pscale_tkn_" + r(g, URLSAFE, 43)),
    "tailscale": ("TS_AUTHKEY", lambda g: f"tskey-auth-{r(g, ALNUM, 11)}CNTRL-{r(g, ALNUM, 33)}"),
    "jwt": ("SESSION_TOKEN", jwt),
    "generic-secret": ("APP_SECRET", generic_token),
    "generic-password": ("DB_PASSWORD", password),
}
