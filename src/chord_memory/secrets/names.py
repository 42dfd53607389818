"""Is a variable name secret-sounding, and how much must its value look like a secret?

Three tiers: PASSWORD (any literal that is not a placeholder counts), SECRET (a
token-like literal), KEY (only a random-looking literal: generic `*_KEY`).
"""
from __future__ import annotations

import itertools

from chord_memory.secrets.rules import lazy

PASSWORD = "password"
SECRET = "secret"
KEY = "key"

_WORDS = lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")

def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PASSWORD_WORDS = _words(
    "PASSWORD PASSWORDS PASSWD PASSPHRASE PASSCODE PASS PWD PW PSW PASSWORT"
)
_SECRET_WORDS = _words(
    "SECRET TOKEN APIKEY CREDENTIAL CREDENTIALS CREDS AUTH AUTHTOKEN ACCESSTOKEN PRIVATEKEY "
    "SECRETKEY ACCESSKEY AUTHKEY APITOKEN BEARER"
)
_COMPOUND_TAILS = ("PASSWORD", "PASSWD", "SECRET", "TOKEN", "APIKEY")
# `<X>_KEY` where X makes it a credential.
_STRONG_KEY_QUALIFIERS = _words(
    "API PRIVATE SECRET ACCESS SIGNING SIGN ENCRYPTION ENCRYPT DECRYPTION MASTER HMAC LICENSE "
    "SERVICE ACCOUNT STORAGE ADMIN APP CLIENT AUTH SESSION WEBHOOK SSH DEPLOY GPG PGP RSA JWT "
    "CRYPTO CIPHER AES SHARED SUBSCRIPTION INGEST WRITE MANAGEMENT SERVER ROOT PERSONAL "
    "INTEGRATION SDK DEV DEVELOPER PROD PRODUCTION LIVE TEST BOT USER"
)
# `<X>_KEY` that is a name, not a credential.
_WEAK_KEY_QUALIFIERS = _words(
    "PUBLIC PUBLISHABLE PUB PRIMARY FOREIGN SORT PARTITION CACHE ROUTING IDEMPOTENCY LOOKUP "
    "HASH RANGE ROW SHARD GROUP OBJECT BUCKET SITE ANON DEDUP UNIQUE COMPOSITE NATURAL "
    "SURROGATE HOT SHORTCUT REGISTRY TRANSLATION LOCALE MESSAGE FIELD ATTRIBUTE DICT MAP "
    "CONFIG SETTING SETTINGS SECTION ENTRY ITEM RECORD INDEX JSON YAML REDIS S3 SEARCH "
    "CUSTOMER ORDER PRODUCT TENANT ORG ORGANIZATION PROJECT"
)
# `<X>_TOKEN` that is not a credential: paging cursors, CSRF nonces, language-model tokens.
_WEAK_TOKEN_QUALIFIERS = _words(
    "CSRF XSRF PAGE NEXT PREV CONTINUATION CURSOR SYNC PAGINATION CANCELLATION IDEMPOTENCY MAX "
    "MIN NUM TOTAL INPUT OUTPUT PROMPT COMPLETION BOS EOS PAD UNK SEP CLS MASK SPECIAL PUBLIC "
    "PUBLISHABLE PUB"
)
# A word that says the value is not a real one: `fakeToken`, `INVALID_API_KEY`, `nonMatchingToken`.
_NOT_REAL = _words("FAKE MOCK MOCKED DUMMY INVALID EXAMPLE SAMPLE BAD WRONG PLACEHOLDER BOGUS")
_NOT_REAL_AFTER_NON = _words("MATCHING VALID REAL SECRET")
# A trailing word that says the value is about the secret, not the secret itself.
_NOT_SECRET_SUFFIX = _words(
    "ID IDS TTL SECONDS SECS SEC MS MINUTES MINS HOURS DAYS EXPIRY EXPIRES EXPIRATION EXPIRE "
    "LIFETIME AGE LENGTH LEN SIZE BYTES BITS URL URI URLS ENDPOINT HOST HOSTNAME PORT PATH FILE HDR "
    "FILENAME DIR FOLDER NAME NAMES HEADER HEADERS TYPE KIND ENABLED DISABLED ENABLE DISABLE "
    "REQUIRED VERSION COUNT LIMIT LIMITS MAX MIN TIMEOUT INTERVAL REGION ALGORITHM ALG FORMAT "
    "PREFIX SUFFIX FIELD PARAM PARAMETER ENV VAR VARIABLE REF REFERENCE ARN ISSUER AUDIENCE "
    "SCOPE SCOPES POLICY ROTATION HASH HASHED DIGEST SHA CHECKSUM LOCATION PROVIDER STORE "
    "BACKEND MODE STRATEGY METHOD TEMPLATE PATTERN REGEX RULE USAGE BUDGET ESTIMATE SOURCE "
    "FROM MANAGER TOOL MIN LABEL TITLE DESCRIPTION HINT HELP PROMPT POLICY LEVEL STRENGTH "
    "COMPLEXITY RESET CHANGED CHANGE UPDATED CREATED LAST NEXT OLD ENCODING ENCODED ALIAS "
    "ROLE USER USERNAME LOGIN EMAIL OWNER STATUS STATE VALID VALIDATION CHECK IS HAS "
    "USE USED SET GET SHOW MASK MASKED REGEXP LIST LISTS VAULT KEYS TOKENS TYPES STDIN CMD COMMAND"
    " CONFIG CONF CFG SETTINGS OPTIONS PARAMS OFFSETS ARGS ARGTYPES RESTYPE"
    " HINT REQUIREMENTS RULES FINGERPRINT THUMBPRINT SERIAL KID"
)


def words(name: str) -> list[str]:
    """`dbPassword` -> [DB, PASSWORD]; `X-API-Key` -> [X, API, KEY]."""
    return [w.upper() for w in _WORDS().findall(name)]


def tier(name: str) -> str | None:
    """PASSWORD, SECRET, KEY, or None when the name does not hold a secret."""
    ws = words(name)
    while ws and ws[-1].isdigit():
        ws.pop()
    if not ws or ws[-1] in _NOT_SECRET_SUFFIX or not _NOT_REAL.isdisjoint(ws):
        return None
    if any(a == "NON" and b in _NOT_REAL_AFTER_NON for a, b in itertools.pairwise(ws)):
        return None
    if ws[0] == "KEY" and len(ws) > 1 and ws[1] not in _SECRET_WORDS:
        return None  # `KEY_DOWN_EVENT`, `key_press`: a key of a keyboard or a map
    found: str | None = None
    for i, w in enumerate(ws):
        if w in _PASSWORD_WORDS or w.endswith(("PASSWORD", "PASSWD")):
            return PASSWORD
        if w in _SECRET_WORDS or (len(w) > 6 and w.endswith(_COMPOUND_TAILS)):
            if w == "TOKEN" and i and ws[i - 1] in _WEAK_TOKEN_QUALIFIERS:
                return None
            found = SECRET
        elif w == "KEY" and found is None:
            found = _key_tier(ws[i - 1] if i else "")
            if found is None:
                return None  # `PUBLIC_KEY`, and .NET's `publicKeyToken` too
    return found


def _key_tier(qualifier: str) -> str | None:
    if qualifier in _WEAK_KEY_QUALIFIERS:
        return None
    return SECRET if qualifier in _STRONG_KEY_QUALIFIERS else KEY


def says_secret(name: str) -> bool:
    """`client_secret`, `JWT_SECRET`: a word people may fill by hand, unlike a key or token."""
    return any(w.startswith("SECRET") or w.endswith("SECRET") for w in words(name))
