"""Provider tokens: one entry a format, in each provider's documented shape.

Written from the providers' documentation and public token-format references
(gitleaks' rule set among them); the code is ours. A token rule's keywords are
its lowercase prefixes (two characters at least); LINE rules use keywords found anywhere.
"""
from __future__ import annotations

from chord_memory.secrets import checks
from chord_memory.secrets.rules import LINE, TOKEN, Rule

_END = r"(?![A-Za-z0-9])"
_UUID = r"[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}"


def tok(kind: str, prefixes: str, pattern: str, entropy: float = 3.0,
        examples: tuple[str, ...] = (), not_examples: tuple[str, ...] = ()) -> Rule:
    return Rule(kind, tuple(prefixes.split()), pattern + _END, TOKEN, entropy=entropy,
                examples=examples, not_examples=not_examples)


def line(kind: str, keywords: str, pattern: str, entropy: float = 3.0, needs: str = "",
         examples: tuple[str, ...] = (), not_examples: tuple[str, ...] = ()) -> Rule:
    return Rule(kind, tuple(keywords.split()), pattern, LINE, entropy=entropy,
                needs=tuple(needs.split()), examples=examples, not_examples=not_examples)


RULES: tuple[Rule, ...] = (
    # AI providers
    tok("openai-api-key", "sk-proj- sk-svcacct- sk-admin- sk-none-",
        r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{24,250}"),
    tok("openai-api-key", "sk-", r"sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}"),
    tok("anthropic-api-key", "sk-ant-", r"sk-ant-(?:api|oat|ort|sid)\d\d-[A-Za-z0-9_\-]{32,200}"),
    tok("anthropic-admin-key", "sk-ant-", r"sk-ant-admin\d\d-[A-Za-z0-9_\-]{32,200}"),
    tok("openrouter-api-key", "sk-or-", r"sk-or-v1-[a-f0-9]{64}"),
    tok("ai-api-key", "sk-", r"sk-[A-Za-z0-9]{32,64}", 3.5),
    tok("huggingface-token", "hf_", r"hf_(?=[a-z0-9]*[A-Z])(?=[A-Z0-9]*[a-z])[A-Za-z0-9]{30,40}(?!_)",
        examples=("HF_TOKEN=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",),  # mixed case, as issued
        not_examples=("&hf_servingcellpriorityparametersdescription_h_prio",)),
    tok("huggingface-org-token", "api_org_", r"api_org_[A-Za-z0-9]{30,40}"),
    tok("groq-api-key", "gsk_", r"gsk_[A-Za-z0-9]{48,56}"),
    tok("replicate-api-token", "r8_", r"r8_[A-Za-z0-9]{37,40}"),
    tok("perplexity-api-key", "pplx-", r"pplx-[A-Za-z0-9]{40,56}"),
    tok("xai-api-key", "xai-", r"xai-[A-Za-z0-9]{70,90}"),
    tok("google-api-key", "aiza", r"AIza[A-Za-z0-9_\-]{35}"),
    tok("langsmith-api-key", "lsv2_", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
    tok("pinecone-api-key", "pcsk_", r"pcsk_[A-Za-z0-9]{5,6}_[A-Za-z0-9]{50,66}(?!_)",
        examples=("PINECONE_API_KEY=pcsk_3Fk9Q2_" + "Qm7xLp2vKs9Zt4Rw" * 4,),
        not_examples=("pcsk_abcd_" + "Qm7xLp2vKs9Zt4Rw" * 4, "pcsk__" + "Qm7xLp2vKs9Zt4Rw" * 4)),
    tok("elevenlabs-api-key", "sk_", r"sk_[a-f0-9]{48}"),
    tok("tavily-api-key", "tvly-", r"tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}"),
    tok("fireworks-api-key", "fw_", r"fw_[A-Za-z0-9]{24,48}", 3.5),
    # Cloud and infrastructure
    tok("aws-access-key-id", "akia asia abia acca a3t",
        r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}"),
    tok("aws-session-token", "iqojb3jpz2lux2vj fwogzxivyxdz",
       r"(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9+/]{100,}={0,2}"),
    tok("gcp-oauth-client-secret", "gocspx-", r"GOCSPX-[A-Za-z0-9_\-]{28}"),
    tok("google-oauth-refresh-token", "1//0", r"1//0[A-Za-z0-9_\-]{40,}"),
    tok("google-oauth-access-token", "ya29.", r"ya29\.[A-Za-z0-9_\-]{30,}"),
    line("azure-ad-client-secret", "q~",
         r"(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}"
         r"(?![A-Za-z0-9_~\-]|\.[A-Za-z0-9_~\-])"),
    line("azure-devops-pat", "azdo", r"(?<![A-Za-z0-9])[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}" + _END),
    line("azure-storage-key", "key",
         r"(?i:AccountKey)\s*=\s*(?P<value>[A-Za-z0-9+/]{86}==)", needs="accountkey"),
    line("azure-shared-access-key", "key",
         r"(?i:SharedAccessKey)\s*=\s*(?P<value>[A-Za-z0-9+/]{42,44}=)", needs="sharedaccesskey"),
    line("azure-sas-token", "://", r"[?&;]sig=(?P<value>[A-Za-z0-9%+/=]{30,100})(?![A-Za-z0-9%])",
         needs="sig="),
    tok("alibaba-access-key-id", "ltai", r"LTAI[A-Za-z0-9]{12,20}"),
    tok("tencent-secret-id", "akid", r"AKID[A-Za-z0-9]{32}"),
    tok("digitalocean-token", "dop_v1_ doo_v1_ dor_v1_", r"do[opr]_v1_[a-f0-9]{64}"),
    tok("digitalocean-spaces-key", "do00", r"DO00[A-Z0-9]{16}"),
    tok("heroku-api-key", "hrku-", r"HRKU-[A-Za-z0-9_\-]{60}"),
    tok("flyio-token", "fo1_", r"fo1_[A-Za-z0-9_\-]{43}"),
    tok("flyio-token", "fm1a_ fm1r_ fm2_", r"fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3}"),
    tok("netlify-token", "nfp_", r"nfp_[A-Za-z0-9]{36}"),
    tok("render-api-key", "rnd_", r"rnd_[A-Za-z0-9]{32}"),
    tok("supabase-token", "sbp_ sb_secret_", r"(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_\-]{31,})"),
    tok("planetscale-token", "pscale_", r"pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.\-]{32,64}"),
    tok("neon-api-key", "napi_", r"napi_[a-z0-9]{64}"),
    tok("databricks-token", "dapi", r"dapi[a-f0-9]{32}(?:-\d)?"),
    line("terraform-cloud-token", "atlasv1",
         r"(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,70}" + _END),
    tok("vault-token", "hvs. hvb. hvr.", r"hv[sbr]\.[A-Za-z0-9_\-]{24,300}"),
    tok("pulumi-access-token", "pul-", r"pul-[a-f0-9]{40}"),
    tok("doppler-token", "dp.", r"dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}"),
    tok("1password-service-token", "ops_eyj", r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}"),
    tok("1password-secret-key", "a3-",
       r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}"),
    tok("age-secret-key", "age-secret-key-1", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    tok("cloudflare-origin-ca-key", "v1.0-", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    tok("yandex-api-key", "aqvn", r"AQVN[A-Za-z0-9_\-]{35,38}"),
    tok("openshift-token", "sha256~", r"sha256~[A-Za-z0-9_\-]{43}"),
    tok("tailscale-key", "tskey-",
        r"tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}"),
    # Version control, CI and package registries
    tok("github-token", "ghp_", r"ghp_[A-Za-z0-9]{30,255}"),
    tok("github-oauth-token", "gho_", r"gho_[A-Za-z0-9]{30,255}"),
    tok("github-app-token", "ghu_ ghs_", r"gh[us]_[A-Za-z0-9]{30,255}"),
    tok("github-refresh-token", "ghr_", r"ghr_[A-Za-z0-9]{30,255}"),
    tok("github-fine-grained-pat", "github_pat_", r"github_pat_[A-Za-z0-9_]{40,255}"),
    tok("gitlab-pat", "glpat-", r"glpat-[A-Za-z0-9_.\-]{20,300}"),
    tok("gitlab-runner-token", "glrt- gr1348941", r"(?:glrt-|GR1348941)[A-Za-z0-9_.\-]{20,300}"),
    tok("gitlab-token", "gldt- glptt- glcbt- glimt- glagent- gloas- glft- glsoat- glffct-",
        r"gl(?:dt|ptt|cbt|imt|agent|oas|ft|soat|ffct)-[A-Za-z0-9_.\-]{20,300}"),
    tok("bitbucket-app-password", "atbb", r"ATBB[A-Za-z0-9_=.\-]{28,}"),
    tok("atlassian-api-token", "atatt3 atctt3", r"AT[AC]TT3[A-Za-z0-9_\-=]{150,}"),
    tok("circleci-token", "ccipat_ cciprj_", r"CCI(?:PAT|PRJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}"),
    tok("buildkite-token", "bkua_", r"bkua_[a-f0-9]{40}"),
    tok("sonarqube-token", "squ_ sqp_ sqa_", r"sq[upa]_[a-f0-9]{40}"),
    tok("docker-hub-token", "dckr_pat_ dckr_oat_", r"dckr_(?:pat|oat)_[A-Za-z0-9_\-]{27,}"),
    tok("jfrog-api-key", "akcp", r"AKCp[A-Za-z0-9]{69}"),
    tok("jfrog-reference-token", "cmvmd", r"cmVmd[A-Za-z0-9]{59}"),
    tok("npm-token", "npm_", r"npm_[A-Za-z0-9]{30,40}"),
    tok("pypi-token", "pypi-age", r"pypi-AgE[A-Za-z0-9_\-]{70,}"),
    tok("rubygems-api-key", "rubygems_", r"rubygems_[a-f0-9]{48}"),
    tok("nuget-api-key", "oy2", r"oy2[a-z0-9]{43}"),
    tok("clojars-token", "clojars_", r"CLOJARS_[a-z0-9]{60}"),
    tok("crates-io-token", "cio", r"cio[A-Za-z0-9]{32}", 3.5),
    tok("postman-api-key", "pmak-", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    tok("octopus-deploy-api-key", "api-", r"(?<![/\w-])API-[A-Z0-9]{26,32}",
        examples=("OCTOPUS_CLI_API_KEY=API-Q8M2V7K4X9P1L6Z3R5T0W8Y2U4",),
        not_examples=("https://team.notion.site/API-BD8F56CDC1441E6BF6011AB6D8528F",)),  # a page
    tok("harness-token", "pat. sat.",
        r"(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}"),
    tok("prefect-api-key", "pnu_", r"pnu_[A-Za-z0-9]{36}"),
    tok("readme-api-key", "rdme_", r"rdme_[a-z0-9]{70}"),
    tok("sourcegraph-token", "sgp_", r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}",
        examples=("SRC_ACCESS_TOKEN=sgp_3F9a1C2e5B7d9F1a3C5e7B9d1F3a5C7e9B1d3F5a",),
        not_examples=("sgp_ is the prefix of Sourcegraph tokens",)),
    tok("infracost-api-key", "ico-", r"ico-[A-Za-z0-9]{32}"),
    # Chat, collaboration and SaaS
    # Slack, in each issued shape (a loose `xox.-…` pattern took placeholders for tokens)
    tok("slack-token", "xoxb-",
        r"xoxb-(?:\d{10,13}-\d{10,13}-[A-Za-z0-9]{24,34}|\d{8,14}-[A-Za-z0-9]{18,26})",
        examples=("SLACK_BOT_TOKEN=xoxb-283746519283-2837465192837-Qm7xLp2vKs9Zt4Rw8Nc1Yd6F",
                  "xoxb-84736251847-Zq8mK2vL9pXwQ4rT7yU1aB"),  # the legacy bot shape
        not_examples=("xoxb-xoxb-my-bot-token", "xoxb-12345-abcd234", "xoxb-abcdef-abcdef")),
    tok("slack-token", "xoxp- xoxe-",
        r"xox[pe]-\d{10,13}-\d{10,13}-\d{10,13}-[A-Za-z0-9]{28,34}",
        examples=("xoxp-283746519283-283746519284-2837465192837-3f9a1c2e5b7d9f1a3c5e7b9d1f3a5c7e",),
        not_examples=("xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d",
                      "xoxp-283746519283-283746519284-2837465192837-####################")),
    tok("slack-token", "xoxa- xoxr-", r"xox[ar]-(?:\d-)?[0-9A-Za-z\-]{8,250}",
        examples=("xoxa-2-Qm7xLp2vKs9Zt4Rw8Nc1Yd6F",), not_examples=("xoxa-2-aaaaaaaaaaaa",)),
    tok("slack-token", "xoxs- xoxo- xoxp-", r"xox[osp]-\d{5,}-\d{5,}-\d{5,}-[A-Fa-f0-9]{8,}",
        examples=("xoxs-2837465192-2837465193-2837465194-3f9a1c2e5b7d9f1a",
                  "xoxp-523423-234243-234233-e039d02840a0b9379c"),  # legacy, shorter numbers
        not_examples=("xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d",)),
    tok("slack-token", "xoxe.xoxb- xoxe.xoxp- xoxe-",
        r"xoxe(?:\.xox[bp])?-\d-[A-Za-z0-9]{140,170}",
        examples=("SLACK_CONFIG_TOKEN=xoxe.xoxp-1-" + "Q8M2V7K4X9P1L6Z3R5T0" * 8,),
        not_examples=("xoxe.xoxp-1-RANDOMSTRINGHERE", "xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere")),
    tok("slack-app-token", "xapp-", r"xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"),
    line("slack-webhook-url", "://",
         r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{20,}",
         needs="hooks.slack.com"),
    tok("slack-webhook-url", "hooks.slack.com/",  # written without its scheme
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{20,}"),
    tok("discord-bot-token", "mt mj mz nd nt nj nz od ot",
        r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}", 3.5),
    line("discord-webhook-url", "://",
         r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{60,70}",
         needs="discord"),
    line("telegram-bot-token", ":a",  # also inside https://api.telegram.org/bot<token>/
         r"(?:(?<![A-Za-z0-9])|(?<=/bot))\d{5,16}:A[A-Za-z0-9_\-]{34}(?![A-Za-z0-9_\-])", 3.5,
         needs=":a", examples=("telegram bot: 57569117:Af01ytkxavny8_1fdcrbr-cg-yuqnf6_d0h",),
         not_examples=("at 12:30:Abcdefabcdefabcdefabcdefabcdefabcd",)),
    line("teams-webhook-url", "://",  # webhookb2/<guid>@<guid>/IncomingWebhook/<32 hex>/<guid>
         r"https://[A-Za-z0-9.\-]+\.webhook\.office\.com/webhookb2/(?i:" + _UUID + "@" + _UUID
         + r"/IncomingWebhook/[a-f0-9]{32}/" + _UUID + r")(?:/[A-Za-z0-9_\-]+)?",
         needs="webhook.office.com",
         not_examples=("webhook = 'https://defaultabc123.webhook.office.com/webhookb2/not-a-v2-url'",)),
    tok("twitter-bearer-token", "aaaaaaaaaaaaaaaaaaaaaa", r"A{22}[A-Za-z0-9%]{80,110}"),
    tok("facebook-access-token", "eaa", r"EAA[A-Za-z0-9]{90,}"),
    tok("mapbox-secret-token", "sk.eyj", r"sk\.eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]{20,}"),
    tok("linear-api-key", "lin_api_", r"lin_api_[A-Za-z0-9]{40}"),
    tok("notion-token", "secret_ ntn_", r"(?:secret_[A-Za-z0-9]{43}|ntn_\d{11}[A-Za-z0-9]{35})"),
    tok("airtable-token", "pat", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),
    tok("figma-token", "figd_", r"figd_[A-Za-z0-9_\-]{40}"),
    tok("clickup-token", "pk_", r"pk_\d{6,10}_[A-Z0-9]{32}"),
    tok("hubspot-token", "pat-", r"pat-(?:na|eu)\d-" + _UUID),
    tok("typeform-token", "tfp_", r"tfp_[A-Za-z0-9_\-.=]{59}"),
    tok("dropbox-token", "sl.", r"sl\.(?:u\.)?[A-Za-z0-9_\-=]{130,}"),
    tok("contentful-token", "cfpat-", r"CFPAT-[A-Za-z0-9_\-]{43}"),
    tok("launchdarkly-key", "api- sdk-", r"(?:api|sdk)-" + _UUID),
    tok("posthog-personal-api-key", "phx_", r"phx_[A-Za-z0-9]{43}"),
    tok("frameio-token", "fio-u-", r"fio-u-[A-Za-z0-9_\-=]{64}"),
    tok("intercom-token", "dg9ro", r"dG9rO[A-Za-z0-9+/=_\-]{50,}", 3.5),
    tok("adafruit-io-key", "aio_", r"aio_[A-Za-z0-9]{28}"),
    line("maxmind-license-key", "_mmk", r"(?<![A-Za-z0-9])[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk" + _END),
    tok("defined-networking-token", "dnkey-", r"dnkey-[a-z0-9=_\-]{26}-[a-z0-9=_\-]{52}"),
    # Payments and commerce
    tok("stripe-secret-key", "sk_live_ sk_test_ sk_prod_ rk_live_ rk_test_ rk_prod_",
        r"[sr]k_(?:live|test|prod)_[A-Za-z0-9]{20,247}"),
    tok("stripe-webhook-secret", "whsec_", r"whsec_[A-Za-z0-9]{24,}"),
    tok("square-token", "sq0atp- sq0csp- eaaa",
        r"(?:sq0atp-[A-Za-z0-9_\-]{22}|sq0csp-[A-Za-z0-9_\-]{43}|EAAA[A-Za-z0-9_\-]{60})"),
    line("braintree-access-token", "token",
         r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}" + _END,
         needs="access_token$"),
    tok("shopify-token", "shpat_ shpca_ shppa_ shpss_", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    tok("flutterwave-secret-key", "flwseck", r"FLWSECK(?:_TEST)?-[a-fA-F0-9]{32}-X"),
    tok("flutterwave-encryption-key", "flwseck", r"FLWSECK(?:_TEST)?-?[a-fA-F0-9]{12}",
        examples=("FLW_ENCRYPTION_KEY=FLWSECK_TEST3f9a1c2e5b7d", "key FLWSECK-9c4e7a1b3d5f"),
        not_examples=("FLWSECK_TEST-", "FLWSECK_TEST-3f9a1c2e5b7d9f1a3c5e7b9d1f3a5c7e")),
    tok("flutterwave-public-key", "flwpubk", r"FLWPUBK(?:_TEST)?-[a-fA-F0-9]{32}-X",
        examples=("FLW_PUBLIC_KEY=FLWPUBK_TEST-3f9a1c2e5b7d9f1a3c5e7b9d1f3a5c7e-X",),
        not_examples=("FLWPUBK_TEST-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx-X",)),
    tok("plaid-access-token", "access-",
        r"access-(?:sandbox|development|production)-" + _UUID),
    tok("easypost-api-key", "ezak eztk", r"EZ[AT]K[A-Za-z0-9]{54}"),
    tok("duffel-token", "duffel_", r"duffel_(?:test|live)_[A-Za-z0-9_\-=]{43}"),
    tok("shippo-token", "shippo_", r"shippo_(?:live|test)_[a-fA-F0-9]{40}"),
    # Messaging and e-mail
    tok("twilio-api-key", "sk", r"SK[0-9a-fA-F]{32}"),
    tok("sendgrid-api-key", "sg.", r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,50}"),
    tok("mailgun-api-key", "key-", r"key-[a-f0-9]{32}"),
    line("mailchimp-api-key", "-u", r"(?<![A-Za-z0-9])[a-f0-9]{32}-us\d{1,2}" + _END,
         needs="-us"),
    tok("resend-api-key", "re_", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}"),
    tok("brevo-api-key", "xkeysib- xsmtpsib-", r"x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    line("firebase-cloud-messaging-key", ":a",
         r"(?<![A-Za-z0-9])AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{134}", needs=":apa91b"),
    # Observability
    tok("new-relic-key", "nrak- nrii- nrjs-",
        r"(?:NRAK-[A-Za-z0-9]{27}|NRII-[A-Za-z0-9_\-]{32}|NRJS-[a-f0-9]{19})"),
    line("new-relic-license-key", "nral", r"(?<![A-Za-z0-9])[a-f0-9]{36}NRAL" + _END),
    tok("sentry-token", "sntryu_", r"sntryu_[a-f0-9]{64}"),
    tok("sentry-token", "sntrys_", r"sntrys_eyJ[A-Za-z0-9+/=]{60,}_[A-Za-z0-9+/]{43}",
        examples=("SENTRY_AUTH_TOKEN=sntrys_eyJpYXQiOjE3MzI5MDAwMDAuMCwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8i"
                  "fQ==_q8Zx3Lm9Vb2Nc7Tr4Ws1Yd6Kp0Hf5Gj8Ue1Ia8Ob3P9",),
        not_examples=("sntrys_eyJpYXQiOjE3MzI5MDAwMDAuMCwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8i"
                      "fQ==_q8Zx3Lm9Vb2N",)),  # the signature part cut short
    tok("grafana-token", "glsa_ eyjrijoi",
        r"(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{70,400}={0,3})"),
    tok("grafana-cloud-token", "glc_", r"glc_[A-Za-z0-9+/]{32,400}={0,3}"),
    tok("dynatrace-token", "dt0c01.", r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}",  # any case
        examples=("DT_API_TOKEN=dt0c01.st7zfucvvatvaqnpylcwiidj."
                  "idl93b1z5tld47fipwn5clu63lf2lez2m7jmpe1h9zkf9felvnq1tvsg0kpchmim",),
        not_examples=("dt0c01." + "A" * 24 + "." + "B" * 64,)),
    line("sidekiq-sensitive-url", "contribsys",
         r"\b(?P<value>[a-f0-9]{8}:[a-f0-9]{8})@(?:gems|enterprise)\.contribsys\.com\b", 2.0,
         examples=("source \"https://3f9a1c2e:7b4d8e6f@gems.contribsys.com/\"",),
         not_examples=("source \"https://gems.contribsys.com/\"",)),
    Rule("jenkins-credential", ("aqaaabaaa",),  # a credentials.xml <secret>{AQAAABAAA …}</secret>
         r"\{(?:[\w.\-]{1,40}[ \t]+)?AQAAABAAA[ \t]+(?P<value>[^\s{}<>]{6,400})[ \t]*\}", LINE,
         check=checks.credential,
         examples=("<secret>{AQAAABAAA q8Zx3Lm9Vb2Nc7Tr4Ws1Yd6K}</secret>",
                   "<secret>{mailjet AQAAABAAA Zx9Vb4Nc1Tr6Ws3Yd8Kq2Lm7 }</secret>"),
                   not_examples=("<secret>{AQAAABAAAAAQq8Zx3Lm9Vb2Nc7Tr4Ws1Yd6K=}</secret>",
                                 "<secret>{AQAAABAAA ${JENKINS_SECRET}}</secret>")),
    # Generic structured tokens
    Rule("jwt", ("eyj",), r"eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}(?:\.[A-Za-z0-9_\-]{10,})?"
         + _END, TOKEN, entropy=3.5, check=checks.jwt, priority=3,
         examples=("eyJ0eXAiOiJKV1QiLCJhbGciOiJub25lIn0.eyJzdWIiOiJjaS1ib3QiLCJyb2xlIjoiYWRtaW4ifQ",),
         not_examples=("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6"
                       "IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ",)),  # jwt.io's example, unsigned
    Rule("jwt-base64", ("zxlk",), r"ZXlK[A-Za-z0-9+/]{60,8000}={0,2}" + _END, TOKEN, entropy=4.0,
         check=checks.base64_jwt, priority=3,
         examples=("AUTH_HEADER_B64=ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUpqYVMxaWIzUWlMQ0pwWVhRaU"
                   "9qRTNNekk1TURBd01EQjkucThaeDNMbTlWYjJOYzdUcjRXczFZZDZLcDBIZjVHajhVZTFJYThPYjNQ",),
         not_examples=("ZXlKaGJHY2lPaUpJVXpJMU5pSjkgaXMgbm90IGEgand0IGF0IGFsbCwganVzdCB0ZXh0IHRo"
                       "YXQgYmVnaW5zIHNv",)),
)
