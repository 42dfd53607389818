"""Context rules: key blocks, URLs, headers, connection strings, assignments, prose."""
from __future__ import annotations

import pytest

from chord_memory.secrets import scan_text
from tests.secrets.examples import OPENSSH

PEM_BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n" * 3

B64_86 = "q8Zx3Lm9Vb2Nc7Tr4Ws1Yd6Kp0Hf5Gj/Ue+Ia8Ob3Pc9Qd2Re7Sf4Tg1Uh6Vi0Wj5Xk+Yl8Zm3An9Bo2Cp7Dq4"

# (kind, text with the secret between ⟦ and ⟧)
POSITIVES = [
    ("private-key",
     "```\n⟦-----BEGIN RSA PRIVATE KEY-----\n" + PEM_BODY + "-----END RSA PRIVATE KEY-----⟧\n```"),
    ("private-key", "⟦" + OPENSSH + "⟧"),
    ("private-key", "> ⟦-----BEGIN EC PRIVATE KEY-----\n> MHcCAQEEIBqEfN1Lk2Zp3H5R7c9Q\n"
                    "> MHcCAQEEIBqEfN1Lk2Zp3H5R7c9QabcdEFGH\n> -----END EC PRIVATE KEY-----⟧"),
    ("private-key", '{"private_key": "⟦-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC'
                    'BKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----⟧\\n"}'),
    ("private-key", "⟦-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
                    "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----⟧"),
    ("private-key", "⟦-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF8xQ2IBCADZ1n5uY3fGk8Lq0Pz7Rt4Wx\n"
                    "=AbCd\n-----END PGP PRIVATE KEY BLOCK-----⟧"),
    ("private-key", "pasted, cut short:\n⟦-----BEGIN RSA PRIVATE KEY-----\n"
                    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun⟧\n\nmore"),
    ("url-credentials", "DATABASE_URL=postgres://app:⟦p4ss-W0rd-Zz⟧@db:5432/app"),
    ("url-credentials", "mongodb+srv://root:⟦Rt9vK2mQ7x⟧@c0.ab1cd.mongodb.net/test"),
    ("url-credentials", "redis://:⟦Qm7xLp2vKs9⟧@cache:6379/0"),
    ("url-credentials", "[dash](https://ops:⟦Zk3!pQ8rVw⟧@grafana.internal/d/x)"),
    ("url-query-token", "jdbc:mysql://db:3306/app?user=app&password=⟦Jd8!bcQ2xZ⟧"),
    ("url-query-token", "https://api.x.io/v1/report?api_key=⟦a8F3kQ9zLm2Pq7Rs4Tv6Wx1Y⟧&format=csv"),
    ("azure-sas-token", "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sp=r&sig=⟦kQ9zLm2Pq7Rs4Tv6Wx1YaB3cD5eF7gH9iJ0kL2mN4o%3D⟧"),
    ("azure-storage-key", "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=⟦" + B64_86 + "==⟧;"),
    ("connection-string", "Server=tcp:a.database.windows.net,1433;User ID=u;Password=⟦Az7!kLm2Pq⟧;"),
    ("connection-string", 'Host=db;Username=app;Password="⟦Pw 7;x!Lm2⟧";Database=app'),
    ("authorization-header", "curl -H 'Authorization: Bearer ⟦9f8Kq2LmZx7Vb4Nc1Tr6Ws3Yd⟧' https://x"),
    ("authorization-header", "Authorization: Basic ⟦b3BzOlJ0OXZLMm1RN3hQcSE=⟧"),
    ("authorization-header", '"Authorization": "Bearer ⟦Zx9Vb4Nc1Tr6Ws3Yd8Kq2Lm7⟧"'),
    ("basic-auth", "curl -u admin:⟦S3cr3t-Pa55⟧ https://x"),
    ("cli-password", "docker login -u me -p ⟦Qa1!sWd2Ef⟧ registry.io"),
    ("cli-password", "mysql -uroot -p⟦My5qlR00t!x⟧ app"),
    ("aws-secret-access-key", "aws_secret_access_key = ⟦wJk8Lm2Pq7Rs4Tv6Wx1YaB3cD5eF7gH9iJ0kL2mZ⟧"),
    ("env-assignment", "DB_PASSWORD=⟦Xk9#mQ2vLp⟧"),
    ("env-assignment", "export API_TOKEN='⟦a8F3kQ9zLm2Pq7Rs⟧'"),
    ("env-assignment", "- `JWT_SECRET=⟦4f9c2e7a1b8d3f6e⟧` (staging)"),
    ("env-assignment",
     "```yaml\nservices:\n  db:\n    environment:\n      POSTGRES_PASSWORD: ⟦Xk9#mQ2vLp⟧\n```"),
    ("env-assignment", "```yaml\nenv:\n  - name: API_SECRET\n    value: \"⟦s9Dk2LmQp0Zx7Wv3⟧\"\n```"),
    ("env-assignment", '```json\n{"auth": {"token": "⟦Zx9Vb4Nc1Tr6Ws3Yd8Kq⟧"}}\n```'),
    ("env-assignment", '[service]\nclient_secret = "⟦Tz8!qLm3Vx~p2⟧"'),
    ("env-assignment", "spring.datasource.password=⟦Pw7$kLm2Qz⟧"),
    ("env-assignment", "<password>⟦Qw3!rTy8Ui⟧</password>"),
    ("env-assignment", "ENV SESSION_SECRET ⟦Qm7xLp2vKs9Zt⟧"),
    ("env-assignment", '$env:DB_PASSWORD = "⟦Wn4!eRt6Yu⟧"'),
    ("env-assignment", "docker run -e REDIS_PASSWORD=⟦Rd5$kLm2Qz⟧ redis"),
    ("env-assignment", "| DB_PASSWORD | ⟦Hq7*wEr4Ty⟧ |"),
    ("env-assignment", "| db password | `⟦Ty6&uIo9Pl⟧` |"),
    ("env-assignment", "- **Password:** ⟦Tr0ub4dor&3⟧"),
    ("env-assignment", "//registry.example.org/:_authToken=⟦a8F3kQ9zLm2Pq7Rs4Tv6⟧"),
    ("env-assignment", "kubectl create secret generic db --from-literal=password=⟦Kb8!tYu3Io⟧"),
    ("env-assignment", "helm install x --set auth.password=⟦Hl5#mNb8Vc⟧"),
    ("env-assignment", "app --api-key ⟦a8F3kQ9zLm2Pq7Rs4Tv6⟧ --verbose"),
    ("env-assignment", "Set `TWILIO_AUTH_TOKEN` to ⟦3f9a1c2e5b7d9f1a3c5e7b9d1f3a5c7e⟧ in the dashboard"),
    ("env-assignment", "DJANGO_SECRET_KEY='⟦django-insecure-k3$x9!q2m(z8@v7w&p1r^t6y)⟧'"),
    ("netrc-password",
     "machine api.heroku.com login me@x.io password ⟦0f3c9a2e-5b7d-4f1a-a3c5-e7b9d1f3a5c7⟧"),
    ("netrc-password", "machine api.heroku.com\n  login me@x.io\n  password ⟦Nt7!rcPass9⟧"),
    ("password-in-prose", "The staging db password is ⟦hunter2-Blue!⟧"),
    ("password-in-prose", "the wifi passphrase is \"⟦Orchid Delta 77⟧\""),
    ("password-in-prose", "pw for grafana is `⟦Gr4fana#Ops⟧`"),
    ("password-in-prose", "User: the root password on the bastion is ⟦Bq8!nTz3Lk⟧ - remember it"),
    ("password-in-prose", "The password for db.internal is ⟦Mn5%bVc3Xz⟧."),
    ("password-in-prose", "Wifi password → ⟦Orchid-Delta-77⟧"),
    ("password-in-prose", "the admin creds are admin / ⟦Zx9!cVb7Nm⟧"),
    ("secret-in-prose", "User: ok the Mistral key is ⟦Zx9Vb4Nc1Tr6Ws3Yd8Kq2Lm7⟧"),
    ("telegram-bot-token", "curl https://api.telegram.org/bot⟦7364518290:AAH3kQ9zLm2Pq7Rs4Tv6Wx1YaB3cD5eF7gH⟧/getMe"),
    ("slack-webhook-url", "webhook: ⟦hooks.slack.com/services/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⟧"),
    ("secret-in-prose", "use `⟦Us3!asPw9z⟧` as the password"),
    ("password-in-prose", "the password for `svc-deploy` is `⟦Kq8!mZ2xLp⟧`"),
    ("password-in-prose", "Password — ⟦Em8!dash2Qz⟧"),
    ("password-in-prose", "for my tests I use certs/test.pfx with password '⟦Hotel@2024!⟧'"),
    ("password-in-prose", "log in with the password ⟦Gb7#kLp2Wq⟧ for now"),
    ("password-in-prose", "the switches: user netadm / pw ⟦Sw7!tch2Qz⟧ lol"),
    ("secret-in-prose", "The Etsy API keystring is `⟦etsy_k_8fj29dkq0pl3mzx7⟧` for the shop"),
    ("secret-in-prose", "and shared secret `⟦s3cr3tW1ck9aa⟧`, put them wherever"),
    ("secret-in-prose", "the bot token '⟦Zx9Vb4Nc1Tr6Ws3Yd8Kq2Lm7⟧' for the test server"),
    ("password-in-prose", "o certificado abre com a senha '⟦Pz8#cErt24⟧'"),
    ("password-in-prose", "la contraseña de staging es ⟦Vt5!sTg9Qw⟧"),
    ("password-in-prose", "Das Passwort für den Testserver ist ⟦Kq4$tEst7Z⟧"),
    ("password-in-prose", "le mot de passe : `⟦Mp3%fRt8Lx⟧`"),
    ("password-in-prose", "hasło do bazy to ⟦Hb6^zXc1Vn⟧"),
    ("password-in-prose", "пароль: ⟦Xk7!pQ2mZz⟧"),
    ("password-in-prose", "测试环境的密码: ⟦Ce5&sHt2Lm⟧"),
    ("seed-phrase", "seed phrase: ⟦abandon ability able about above absent absorb abstract absurd abuse "
                    "access accident⟧"),
]


@pytest.mark.parametrize("kind, marked", POSITIVES)
def test_context_secret_found_whole(kind: str, marked: str) -> None:
    text = "# Notes\n\n" + marked.replace("⟦", "").replace("⟧", "") + "\nend\n"
    secret = marked[marked.index("⟦") + 1:marked.index("⟧")]
    found = [(f.kind, text[f.start:f.end]) for f in scan_text(text)]
    assert (kind, secret) in found


NEGATIVES = [
    "password: ${DB_PASSWORD}", "token: {{ .Values.token }}", "API_KEY=<your-api-key>",
    "secret: changeme", "The password must be at least 12 characters.",
    "password_hash: $2b$12$ABCDEFabcdef0123456789./ABCDEFabcdef0123456789ABCDE",
    "cache_key: user:123:profile", "TOKEN_URL=https://auth.example.com/token", "max_tokens: 4096",
    "commit 3f9a1c2e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a", "passwordless login via magic links",
    "password reset tokens expire after 15 minutes", "token = os.environ['GITHUB_TOKEN']",
    "secretName: db-secret", "key: value", "password: ********", "API_KEY=sk-...abcd",
    "the password is in 1Password", "Bearer token auth is configured in the gateway.",
    'password: ""', "password: null", "password: !ENV DB_PASS", "password: !secret db_password",
    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}", "auth_token_ttl: 3600", "PWD=/srv/app",
    "Authorization: Bearer ${TOKEN}", "Authorization: Basic dXNlcjpwYXNzd29yZA==",
    "postgres://user:password@localhost/db", "mysql://root:root@localhost/test",
    "amqp://guest:guest@localhost:5672//", "token: TODO", "api_key: '<API_KEY>'",
    'password: "${PASSWORD:-}"', "The password is case-sensitive and must be 12+ characters.",
    "password = random_password.db.result", "password = var.db_password",
    "docker run -p 8080:80 nginx", "docker login --password-stdin registry.io",
    "SIGNING_KEY_FINGERPRINT=3f9a1c2e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a",
    "passphrase: (empty)", "DB_PASSWORD=Password1!", "admin_password: admin123",
    "DB_PASSWORD=op://Engineering/postgres/password",
    "db_password: ENC[AES256_GCM,data:tFHmMKIF,iv:2BpeOENvJVnYSyI=,tag:p8/WRVtkQYkmqpU/Pw==,type:str]",
    "SESSION_SECRET='keyboard cat'", "- The token budget is 4k.", "sha256: " + "3f9a1c2e" * 8,
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDhQ2xVb9uY5k3Zr8Qp7tLw0sHkN4vJ1mAaBcDeFgHiJ deploy@ci",
    "-----BEGIN PUBLIC KEY-----\n" + PEM_BODY + "-----END PUBLIC KEY-----",
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "csrf_token: Zx9Vb4Nc1Tr6Ws3Yd8Kq2Lm7", "page_token=Zx9Vb4Nc1Tr6Ws3Yd8Kq2Lm7",
    "Mnemonic: use short names for the team and the project in the docs so all of it is clear",
    "use `make test` as the default", "use `uv` as the installer",
    "the password 'field' is required", "with password reset enabled", "using password authentication",
    "the password `length` check", "senha forte obrigatória", "la contraseña debe tener 12 caracteres",
    "das Passwort ist im Tresor", "user admin / pass through the proxy",
    "login once, pass 2 args", "mount the secret `app-secrets-v2` in the pod",
    "the token `STRIPE_KEY` is read at boot",
    "the secret `MyApp2Secret` holds it", "with the password from the vault", "пароль хранится в vault",
    '"private_key_id": "3f9a1c2e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a"',
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_hard_negative_is_not_a_secret(text: str) -> None:
    found = scan_text("# Notes\n\n" + text + "\n")
    assert [(f.kind, f.masked) for f in found] == []


def test_pragma_allows_the_line() -> None:
    text = "DB_PASSWORD=Xk9#mQ2vLp  # pragma: allowlist secret\nAPI_TOKEN=Zx9Vb4Nc1Tr6Ws3Yd8Kq\n"
    assert [f.kind for f in scan_text(text)] == ["env-assignment"]
    assert scan_text(text)[0].line == 2


def test_nextline_pragma_allows_the_next_line() -> None:
    text = "<!-- pragma: allowlist nextline secret -->\nDB_PASSWORD=Xk9#mQ2vLp\n"
    assert scan_text(text) == []


def test_pragma_on_a_key_block_line() -> None:
    text = "-----BEGIN RSA PRIVATE KEY----- <!-- pragma: allowlist secret -->\n" + PEM_BODY
    assert scan_text(text + "-----END RSA PRIVATE KEY-----\n") == []


def test_most_specific_rule_wins_an_overlap() -> None:
    token = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    text = f"GITHUB_TOKEN={token}\nhttps://x-access-token:{token}@github.com/o/r.git\n"
    assert [f.kind for f in scan_text(text)] == ["github-token", "github-token"]
