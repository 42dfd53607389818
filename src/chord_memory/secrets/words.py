"""Word lists the value filters use: placeholders, programming words, documentation examples."""
from __future__ import annotations

# Values people write where a secret would go.
PLACEHOLDERS = frozenset(str.split("""
password passwd pass pwd secret secrets token key apikey api_key api-key changeme changeit
change_me test testing tester admin administrator root user username guest demo default none
null nil undefined empty true false yes no on off required optional string str text value
values hidden masked redacted sensitive secure private public foo bar baz qux foobar abc abc123
123 1234 12345 123456 1234567 12345678 123456789 1234567890 qwerty letmein welcome postgres
mysql redis mongo mongodb rabbitmq guest sa example sample dummy placeholder tbd todo n/a na
env vault secretsmanager ssm keychain keyring 1password bitwarden lastpass prompt ask input
stdin file bearer basic oauth oauth2 jwt hs256 rs256 sha256 md5 auto random generated rotate
rotated set unset missing stored same blank notset disabled enabled omitted elided removed
"""))

# Words identifiers are made of: a value built only from these (and acronyms) is code.
CODE_WORDS = frozenset(str.split("""
access account action active add address admin agent alias all allow api app apply arg args
array assert assertion async attr attribute auth author auto backend base basic batch bearer
begin bind block body bool boolean buffer build builder builtin bundle byte bytes cache call
callback cert certificate chain change channel char check child class clean clear client
close code collection column command commit common compare config connect connection console
const container content context control copy count create credential credentials current
cursor data database date debug decode default define delete deploy descriptor detail dict
digest dir directory disable display doc document domain done dump edit element empty enable
encode encoding encrypt encryption end entity entry env environment error eval event exception
exec exit expire export extension factory false fetch field file filter find first flag float
format frame from func function get global grant group handle handler hash header headers
helper hint hook host http https identity image impl import index info init input insert
instance int integer interface internal invalid item items iter job json key keys kind label
last layer length level lib line link list load loader local lock log logger login logout
main manager map mapping mask match max member memory message meta method min mock mode model
module name new next node none null number object offset old open option options order output
owner package page param params parent parse parser pass password path pattern peer period
pipe plugin policy pool port post prefix prev private process profile prompt property
protected provider proxy public pull push query queue random range raw read reader record ref
refresh register registry release remote remove render replace request required reset resolve
resource response rest result return role root route router row rule run runner safe save
scan schema scope script search secret section secure select send serial serialization server
service session set setting settings setup shared sign signature signing single size sort
source spec start state static status store str stream string struct sub sum super support
sync system table tag target task temp template test text thread time timeout timer token
tokens tool trace transport true type types update upload uri url usage use user util utils
valid validate value values var variable version view wait with worker wrapper write writer
""".strip()))


DOC_EXAMPLES = frozenset({
    "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AKIAI44QH8DHBEXAMPLE",
    "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
    "sk_test_BQokikJOvBiI2HlWgH4olfQ2", "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9l"
    "IiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
})
