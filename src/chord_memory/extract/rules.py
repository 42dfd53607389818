"""The offline extractor (`extractor: rules`): deterministic rules over what the user typed.

Only user turns are read: nothing the assistant wrote, and no tool output, can
become a record. Each sentence (extract/sentences.py) is judged on its own: it is
kept when something in it says it holds beyond the task at hand — a standing cue
("going forward", "as a rule", "whenever"), modality about a thing rather than the
current change ("the CLI flags should stay kebab-case"), a preference, a scoped
instruction ("On Android, ..."), a fact stated about the project, a failure with
its condition (a pitfall), steps (a workflow), a convention list, or a correction
that states the real fact — and nothing vetoes it: a question, a one-off
request, thanks, a remark about the assistant's last answer, a rule for the
current task only, temporary git state, a status report, a machine's path or
name as the point, or too little detail. Each judgement is then weighed by a
small trained model (extract/weigh.py, ``decide``): it can veto a kept sentence
that is unlike anything people keep, and keep one no shape fits when it is sure.
docs/extraction.md lists the shapes, with an example of each, and says how the
model is trained and measured.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Literal, NamedTuple, cast

from chord_memory.extract import sentences, similar, weigh
from chord_memory.extract.reply import NewRecord, Reply

Kind = Literal["preference", "fact", "workflow", "pitfall"]


_OWN_FLAGS = re.compile(r"\(\?[aiLmsux-]+[:)]")
_ANSWERS_KEPT = 256  # a pattern's last answers, by text: a sentence is asked the same thing several times


class _Rx:
    """A pattern read without regard to case, with the methods of its ``re.Pattern``, and two
    that answer yes or no: ``finds`` (``search``) and ``opens`` (``match``). For those, ASCII
    text is lowered and asked of a copy compiled without ``re.I``: the same answer, two to three
    times faster (the rules ask a sentence some hundred such questions; bench/extract.py). A
    pattern that names a cased letter other than a lower-case ASCII one, or sets its own flags,
    has no such copy and is asked as it is. The last answers are kept: the rules ask the same
    sentence the same question several times."""

    __slots__ = ("_found", "_lower_match", "_lower_search", "_opened", "findall", "finditer", "match",
                 "pattern", "search", "split", "sub")

    def __init__(self, source: str) -> None:
        compiled = re.compile(source, re.I)
        self.pattern = source
        self.search, self.match, self.sub = compiled.search, compiled.match, compiled.sub
        self.findall, self.finditer, self.split = compiled.findall, compiled.finditer, compiled.split
        bare = re.sub(r"\\.|\(\?P<\w+>|\(\?P=\w+\)", "", source)  # escapes (\b, \W) and group names: no case
        uncased = all(c.islower() or not c.isalpha() if c.isascii() else c.lower() == c.upper()
                      for c in bare)
        lower = re.compile(source) if uncased and not _OWN_FLAGS.search(source) else None
        self._lower_search = lower.search if lower is not None else None
        self._lower_match = lower.match if lower is not None else None
        self._found: dict[str, bool] = {}
        self._opened: dict[str, bool] = {}

    def finds(self, text: str) -> bool:
        return _answer(text, self._found, self.search, self._lower_search)

    def opens(self, text: str) -> bool:
        return _answer(text, self._opened, self.match, self._lower_match)


def _answer(text: str, answers: dict[str, bool], ask: Callable[[str], object],
            ask_lowered: Callable[[str], object] | None) -> bool:
    found = answers.get(text)
    if found is None:
        if ask_lowered is not None and text.isascii():
            found = ask_lowered(text.lower()) is not None
        else:
            found = ask(text) is not None
        if len(answers) >= _ANSWERS_KEPT:
            answers.clear()
        answers[text] = found
    return found


def _rx(pattern: str) -> _Rx:
    return _Rx(pattern)


# -- what leads a sentence without saying anything ----------------------------------------
_LEAD = _rx(r"^(?:(?:ok(?:ay)?|so|also|and|but|plus|btw|fyi|oh+|ah+|wait|hey|hi|well|alright|right|yeah|"
            r"yes|um+|"
            r"never ?mind|nvm|anyway|anyways|ah|oops|sorry|ugh|argh|lol|haha|hm+|"
            r"hmm+|ps|p\.s\.|side note|heads[- ]up|just so you know|for the record|for your info(?:rmation)?|"
            r"quick note|one more thing|another thing|important|note|nb|n\.b\.|also note)\b[,:;!.\s-]+)+")
_ASIDE_LEAD = _rx(r"^(?:btw|fyi|heads[- ]up|side note|just so you know|for the record|for your info|"
                  r"ps|p\.s\.|note|nb|important|also note|one more thing|another thing)\b")
_OPINION = _rx(r"^(?:i think|i believe|i guess|i feel like|i suppose|imo|imho|honestly|tbh|in my opinion)\b"
               r"[,\s]+(?:that\s+)?")
_CUE_LEAD = _rx(r"^(?:remember(?: that)?|keep in mind(?: that)?|bear in mind(?: that)?|note that|"
                r"(?:just )?(?:so )?you know,?|for future reference|going forward|moving forward|from now on|"
                r"from here on(?: out)?|in (?:the )?future|for the future|for later|as a (?:general )?rule|"
                r"in general|"
                r"generally speaking|"
                r"by default|please|pls|kindly)\b[,:;\s]+")
_ASK = _rx(r"^(?:can|could|would|will)\s+(?:you|u|we)\b\s*(?:please\s+)?(?:mind\s+)?|"
           r"^(?:i need|i want|i'?d like|"
           r"i would like)"
           r"\s+(?:you\s+)?to\s+|^(?:let'?s|go ahead and|now|next|then|first off)\b[,\s]+")

# -- what says a statement holds beyond the task at hand ----------------------------------
_STANDING = _rx(
    r"\b(?:always|never(?! ?mind)|every ?time|each time|whenever|wherever|going forward|moving forward|"
    r"from now on|"
    r"from here on|in (?:the )?future|as a (?:general )?rule|in general|generally|by default|by convention|"
    r"rule of thumb|keep in mind|bear in mind|for future reference|^remember\b|\bremember (?:that|this|:)|"
    r"please remember|don'?t ever|do not ever|"
    r"at all times|no matter what|under no circumstances|in (?:this|our|the) (?:repo(?:sitory)?|project|"
    r"codebase|code ?base|team|org|monorepo|app)|(?:across|throughout) the (?:repo|codebase|project|app)|"
    r"(?:our|the) (?:convention|policy|rule|standard|norm)s?\b|convention is|policy is|the rule is|"
    r"(?:we|i) (?:always|never|usually|normally|typically|tend to|generally)|all (?:new |our |the )?\w+s? "
    r"(?:should|must|need|have to|go|live|are)|any (?:new )?\w+ (?:should|must|needs?|has to|that)|"
    r"anything (?:that|touching|in|under|related)|any ?time|every (?:new )?\w+ (?:should|must|needs?|has|"
    r"gets)|"
    r"(?:in|for|on|with|after|before|from) (?:every|each|all|any) (?:new |single )?\w+|make it a habit|"
    r"as a habit|every \w+ (?:you|we|that)|^(?:every|each) [\w-]+|\b[\w-]+ only (?:for|in|on|with|under|"
    r"through|via|from))\b")
_MODAL = _rx(r"\b(?:should(?:n'?t| not| never| always| only)?|must(?:n'?t| not| never| always| only)?|"
             r"needs? to|has to|have to|ought to|(?:is|are)(?: not)? (?:allowed|supposed|meant|expected|"
             r"required) "
             r"to|can(?:'?t|not)|may not|(?:can|may) only|(?:is|are) (?:never|always|only)|(?:is|"
             r"are) not to)\b")
_PREFERENCE = _rx(
    r"^(?:i|we)(?:\s+|(?='))(?:really\s+|strongly\s+|generally\s+|much\s+|definitely\s+|honestly\s+|"
    r"just\s+)?(?:prefer|'d (?:much )?prefer|would prefer|'d (?:much )?rather|would rather|like (?!you to|"
    r"it if you|to see)|love|hate|"
    r"dislike|can'?t stand|don'?t like|do not like|don'?t want|do not want|never want|want (?:all|every|our|"
    r"each|any)\b|care (?:a lot )?about|'m not a fan of|am not a fan of|'re not fans? of|like it when|"
    r"hate it "
    r"when|want you to (?:always|never|keep|stop|avoid))|^please\s+(?:stop|don'?t|do not|never|always|avoid|"
    r"keep|make sure (?:to )?always|remember)\b|^(?:stop|quit)\s+\w+ing\b|^no more\s+\w+|"
    r"^(?:there'?s\s+)?no need to\b|^make it a habit\b|^(?:make sure|be sure) (?:to |you )?(?:always|"
    r"never)\b")
_NEG_IMPERATIVE = _rx(r"^(?:don'?t|do not|never|avoid|no)\s+\w+")
_SCOPED = _rx(r"^(?:on|in|for|with|when(?:ever)?|if|inside|within|under|across|for any(?:thing)?|anything|"
              r"everything|any ?time|each time|every ?time|once|after|before)\b[^,]{2,90},\s*(?P<rest>.+)")
_INSTEAD = _rx(r"\b(?:instead of|rather than|over|not|in place of|never)\b")
_CHOOSE = _rx(r"^(?:use|prefer|stick (?:to|with)|go with|pick|choose|switch to|default to|favou?r)\s+")
_PITFALL = _rx(
    r"\b(?:break|breaks|broke|fails?|time[sd]? ?out|timeouts?|hangs?|crash(?:es)?|flak(?:y|es)|deadlocks?|"
    r"leaks?|corrupts?|explodes?|blows? up|chokes?|won'?t (?:work|build|start|compile|run|boot|load)|"
    r"doesn'?t (?:work|build|start|compile|run|boot|load)|silently|duplicates?|overwrites?|wipes?|"
    r"loses|drops|double[- ]counts?|spams?|poisons?|bricks?|locks? up|freezes?|stalls?|underflows?|"
    r"overflows?|diverges?|goes? to nan|throttles?|truncates?|clobbers?|costs? (?:us )?(?:like )?\$|"
    r"gets? (?:wiped|reset|overwritten|lost|"
    r"deleted|killed|stuck|throttled|rate[- ]limited|banned|locked)|will (?:break|fail|wipe|reset|overwrite|"
    r"delete|kill|hang|crash)|errors? out|throws?|panics?|segfaults?|oom|out of memory|rate[- ]limit\w*)\b")
_CONDITION = _rx(r"\b(?:unless|if (?:you|it|the|a|an|any|we|there|someone|anything|nothing)|when (?:you|it|"
                 r"the|a|"
                 r"an|any|we|there|someone)|whenever|without|until|otherwise|or else|or (?:they|it|you|the|"
                 r"we)|every ?time|each time|"
                 r"before (?:you|the|a|it)|after (?:you|the|a|it)|as soon as|once (?:you|the|a|it))\b")
_STRONG_CONDITION = _rx(r"\b(?:unless|otherwise|or else|or (?:they|it|you|the|we)|without|every ?time|"
                        r"each time|"
                        r"whenever|as soon as)\b")
_INSTRUCTION = _rx(r"\b(?:don'?t|do not|never|always|make sure|be sure|please (?:do )?not|"
                   r"you (?:have|need|must|should) to|"
                   r"you must|you should|so (?:use|run|always|never|don'?t|do|set|pass|keep|add|check|wait|"
                   r"clear|"
                   r"restart|make)|(?:just |then )?(?:use|run|set|pass|add|clear|restart|"
                   r"wait)\b.*\binstead)\b")
_WARNING = _rx(r"\b(?:watch out|careful|beware|gotcha|trap|footgun|caveat|be aware|known issue|quirk|"
               r"the trick is|don'?t forget|make sure (?:to|you)|pitfall)\b")
_CORRECTION = _rx(r"^(?:no|nope|nah|actually|wrong|not quite|not really|incorrect|not exactly|"
                  r"that'?s (?:wrong|not right|incorrect|not it|not how it works|not true)|you'?re wrong|"
                  r"it'?s not (?:that|like that))\b(?:[,.!:;—–-]+|(?<=actually)\s+)\s*(?P<rest>.+)")
_WORKFLOW = _rx(r"^(?:to|before|after|when(?:ever)?|once|each time|every ?time)\s+[^,]{3,90},\s*(?:(?:first|"
                r"always|just|you)\s+)?(?:run|use|call|do|make sure|update|ask|bump|tag|check|wait|build|"
                r"rebuild|restart|clear|delete|regenerate|pull|push|merge|create|open|add|write|set|export|"
                r"source|install|reinstall|rebase|squash|sign|notify|ping|post|re-?run|kill|stop|start|"
                r"reset|flush|migrate|seed|lint|format|test|verify|copy|sync|drop|remove)\b")
_FIRST_THEN = _rx(r"\bfirst\b.+\bthen\b")
_CONVENTION = _rx(r"\b(?:tabs?|spaces?|snake[_ ]case|camel ?case|kebab[- ]case|pascal ?case|single quotes?|"
                  r"double quotes?|\d+[- ]?(?:char|character|col|column)s?|line length|trailing commas?|"
                  r"semicolons?|lf|crlf|utf-?8|\d-space|indent\w*|lowercase|uppercase|plural|singular|"
                  r"prefix\w*|suffix\w*|imperative|present tense|sentence case|title case|no emojis?|"
                  r"conventional commits|semver|iso ?8601|utc|\.\w{1,5} files?)\b")
_FACT_VERB = _rx(
    r"^(?P<subj>(?!(?:i|you|he|she|it|this(?! (?:repo|project|codebase|app|service|team|library|package|"
    r"module|crate|monorepo|site|api)\b)|that|these|those|there|here|what|which|who|why|how|where|when|"
    r"if|so|do|does|did|is|are|can|could|would|will|should|let'?s|maybe|probably|just)\b)"
    r"(?:[\w@./`'+#-]+\s+){0,6}?)(?P<verb>is|are|isn'?t|aren'?t|lives?|runs?|uses?|comes? from|goes?|gets?|"
    r"sits?|belongs?|depends? on|requires?|expects?|takes?|stores?|reads?|writes?|handles?|happens?|"
    r"deploys?|builds?|ships?|hosts?|points? to|talks? to|calls?|owns?|contains?|holds?|keeps?|means?|"
    r"has|have|doesn'?t|don'?t|does not|do not|can'?t|cannot|won'?t|only|relies on|rely on|targets?|"
    r"supports?|pins?|caches|defaults to|maps to|lands?|starts?|ends?|wraps?|owns|lives in|are in|is in|"
    r"releases?|publishes|tests?|generates?|exports?|imports?|loads?|sends?|syncs?|mirrors?|follows?|"
    r"'re|'s)\b")
_WE_FACT = _rx(r"^(?:we(?:'re| are) (?:on|using|stuck on|all on)\b|i(?:'m| am) (?:on|stuck on)\b|"
               r"i (?:(?:only|mostly|still|always|never)\s+)?(?:use|deploy|host|build with|compile with|"
               r"program (?:it|this|them) (?:with|in)|develop (?:on|in|with)|target|support|prefer|avoid|"
               r"don'?t use|do not use|never use|test (?:on|with))\b|"
               r"(?:we|our team|the team)\s+(?:(?:only|all|"
               r"mostly|still|now)\s+)?(?:use|deploy|run|build|host|"
               r"keep|store|release|ship|follow|name|write|test|pin|vendor|target|support|don'?t|do not|"
               r"never|always|have|work|develop|maintain|publish|version|tag|squash|rebase|merge|review|"
               r"require|'re on|are on|'re using|are using|prefer|avoid|log|track|document|monitor|"
               r"switched to|moved to|"
    r"migrated to|'re stuck on|are stuck on|rely on|deploy with|build with|ship with|only|train|"
    r"serve|compile|bundle|cache|sign|encrypt|mock|stub|seed|shard|partition|index|back up|"
    r"generate|format|lint|measure|report|bill|charge|hash|validate|sanitize|round)\b)")

# -- what says it does not -----------------------------------------------------------------
_TASK_VERB = _rx(
    r"^(?:fix|add|implement|create|build|make|refactor|rename|move|remove|delete|update|change|convert|"
    r"replace|bump|upgrade|downgrade|install|uninstall|debug|investigate|look(?: at| into)?|check|try|show|"
    r"explain|tell|give|generate|revert|undo|redo|clean(?: up)?|commit|push|merge|deploy|open|close|finish|"
    r"continue|start|resume|review|rewrite|split|write|draft|summari[sz]e|translate|compare|find|search|"
    r"grep|read|print|list|describe|help|do|go|get|put|set up|setup|configure|enable|disable|wire|hook up|"
    r"port|migrate|extract|inline|optimi[sz]e|speed up|improve|polish|tweak|adjust|fill|include|drop|test|"
    r"run|rerun|re-run|retry|ship|release|publish|paste|copy|send|post|reply|answer|walk me|give me|"
    r"figure out|think about|consider|plan|design|sketch|mock|stub|scaffold|bootstrap|init|add back|"
    r"bring back|restore|reset|fetch|pull|clone|rebase|squash|cherry-pick|tag|bump|format|lint)\b")
_DEICTIC = _rx(r"\b(?:this|that|these|those|it|them|here|the above|above|below|the same|the other|"
               r"this one|that one|the one|again|yet|last|previous|next one)\b")
_QUESTION_START = _rx(r"^(?:what|why|how|where|which|who|whose|is there|are there|do you|does it|did you|"
                      r"have you|is it|are you|can i|should i|shall (?:i|we))\b")
_ABOUT_ANSWER = _rx(
    r"^(?:you (?:forgot|missed|broke|didn'?t|did not|skipped|removed|deleted|changed|misread|"
    r"misunderstood|keep|kept|again|still|just|got|made|added|left|put|introduced|used|wrote|ignored|"
    r"overwrote|renamed)|(?:that|this|it|your (?:\w+ )?(?:answer|change|fix|code|version|diff|patch|"
    r"solution|approach|test|output|summary|plan|reply))(?:'s| is| was| looks| seems| still)? "
    r"(?:wrong|not right|incorrect|not what|broken|worse|too|still|not working|doesn'?t|didn'?t|"
    r"fine|good|great|better|close|almost|off|weird|odd|overkill|unnecessary|confusing|messy|ugly|"
    r"a regression|the opposite|backwards)|not what i (?:asked|meant|wanted)|(?:way )?too (?:verbose|long|"
    r"short|much|many|complicated|complex|slow|wordy)|revert|undo|try again|same (?:error|issue|problem)|"
    r"still (?:failing|broken|not|the same|getting)|nope|wrong|almost|close|not quite|good catch|"
    r"that (?:works|worked|fixed))\b")
# "the previous task", "this new plan", "this experiment": the session's own work, by name
_THIS_TASK_WORDS = (r"(?:the|this|that) (?:previous|current|new|next) (?:task|plan|experiment)|"
                    r"this (?:experiment|research)")
_THIS_TASK = _rx(rf"\b(?:{_THIS_TASK_WORDS})\b")
_TASK_ONLY = _rx(
    r"\b(?:for (?:this|the current|now|the moment|today|this one)(?: (?:pr|task|change|commit|branch|"
    r"ticket|session|fix|feature|issue|one|time|run|release|sprint|demo))?(?! (?:whole |entire )?(?:repo|"
    r"repository|project|codebase|code base|monorepo|app|service|library|lib|package|crate|team|org|"
    r"company|site|product|whole|entire)\b)|for a (?:sec|second|minute|min|"
    r"moment|bit)|just (?:this|for) (?:once|time|"
    r"now|today)|this time|right now|for now|today|tonight|tomorrow|yesterday|this (?:week|sprint|"
    r"morning|afternoon)|at the moment|temporar(?:y|ily)|until (?:we|i|this|that|it|you)(?:'s|'re| are| is|"
    r" get| got| finish| fix| merge| land| decide| ship| hear)\b|until (?:the|next) (?:release|sprint|week|"
    r"rewrite|migration|fix|demo|deadline)\b|\byet\b|"
    r"in this (?:session|chat|conversation|thread)|\bin \d+ (?:minutes?|mins?|hours?|hrs?)\b|\basap\b|"
    r"\bquickly please\b|\bon (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?!s)|"
    r"in this (?:pr|branch|"
    r"commit|change|diff|file|function|test|method|class|component|script|ticket|refactor|module|ns|"
    r"namespace|handler|view|screen|page|route|endpoint|rewrite|port|job|spike)|on this (?:branch|pr)|"
    r"until (?:the|our|my|this|that) [\w' -]{1,30}?(?:'s| is| are)? (?:done|finished|over|shipped|merged|out|"
    r"ready|fixed|back|live|in)\b|for the [\w-]+ (?:deadline|deck|launch|demo|review|presentation|meeting)|"
    r"(?:this|that|the current|my|your) (?:pr|branch|commit|diff|patch|ticket)|wip|for the demo|"
    rf"{_THIS_TASK_WORDS}|"
    r"(?:push|commit|rebase|stash|merge|checkout|cherry-pick|deploy) (?:it|this|that|now|them|everything))\b")
# where the working copy is now ("I'm on branch seats-endpoint", "we're on release/3.2", "on a
# detached HEAD", "in the middle of a rebase"): neither kept by the rules nor rescued
_WORKING_COPY = _rx(
    r"\b(?:i'?m|i am|we'?re|we are) (?:now |currently |still )?on (?:a |the )?(?:branch\b|[\w`.-]+ branch\b|"
    r"detached head\b|`?[\w.-]+/[\w./-]+)|\bdetached head\b|"
    r"\bin the middle of an? (?:\w+ )?(?:rebase|merge|bisect|cherry-pick)\b")
_STATUS = _rx(
    r"^(?:i|we|i'?ve|we'?ve|i'?m|we'?re)\s+(?:just\s+|already\s+|finally\s+|also\s+|now\s+)?"
    r"(?!(?:switched|moved|migrated|standardi[sz]ed|decided|agreed) (?:to|on)\b)(?:\w+ed|ran|"
    r"made|did|wrote|put|got|had|saw|found|left|sent|set|built|took|gave|told|went|came|broke|forgot|"
    r"tried|think|thought|guess|believe|feel|hope|wonder|was|were|see|noticed|getting|seeing|trying|"
    r"working on|going to|gonna|about to|done|back|here|stuck|confused|not sure|unsure)\b"
    r"|\b(?:works now|is working now|fixed now|done now|passing now|is done|looks good|lgtm|"
    r"is fixed(?= now|[.!]?$)|"
    r"is passing|are passing|is green|went through|is up|is down)\b")
_ACKS = (r"(?:thanks?|thank you|thx|ty|cheers|great|perfect|nice|cool|awesome|excellent|good (?:job|work)|"
         r"well done|looks good|lgtm|ok|okay|k|sure|yes|yep|yeah|yup|no|nope|got it|sounds good|makes sense|"
         r"fine|alright|right|exactly|correct|agreed|hmm+|wow|amazing|brilliant|sweet|done|great job|"
         r"so much|eh|meh|"
         r"not great|not bad|not quite|better|worse|close|almost|"
         r"a lot|again|man|mate|dude|that works|works|all good|good|"
         r"no worries|no problem|no probs?|np|no rush|no biggie|fair enough|of course|sure thing|all set)")
_ACK = _rx(rf"^{_ACKS}(?:[\s,.!:)-]+{_ACKS})*[\s,.!:)(-]*$")
_HEDGE = _rx(r"^(?:(?:ok(?:ay)?|so|now|well|and)[,\s]+)*(?:let'?s )?(?:pretend|imagine|suppose|"
              r"hypothetically)\b|"
              r"\b(?:maybe|perhaps|someday|some day|eventually|we'?d|we would|would have to|might|"
              r"probably|in case (?:that|it) matters|if we ever|i wonder|not sure if|no idea|i guess)\b|"
              r",?\s*i (?:think|believe)[.!]?$")
_META = _rx(r"^(?:let me|let'?s see|i'?ll|i will|i'?m going to|i am going to|give me a (?:sec|second|minute)|"
            r"brb|one sec|hold on|wait|hang on|bear with me|i'?ll paste|here(?:'s| is| are)|see (?:below|"
            r"above|"
            r"attached)|attached|pasting|sending)\b")
_JUDGED = _rx(r"^(?:the|this|that|your)?\s*(?:[\w.]+\s+){0,3}(?:is|are|looks?|seems?)\s+(?:still\s+|"
              r"really\s+)?"
              r"(?:(?:way|much|far|a bit|kind of|sort of) )?(?:a mess|a pain|hard to|really hard|painful|"
              r"horrible|"
              r"terrible|off|wrong|"
              r"broken|missing|messy|ugly|weird|odd|confusing|fine|good|great|better|worse|nicer|clean|"
              r"cleaner|too \w+|not (?:right|great|ideal|good|needed|necessary)|unnecessary|overkill|"
              r"redundant|duplicated|unused|dead code)\b")
_DISMISS = _rx(r"^(?:hello|hi|hey)?[,\s]*(?:i|we) (?:need|want|would like|'d like) (?:to|a|an|you|some|"
               r"the)\b|"
               r"\b(?:i know|i hope|i guess|not sure|jk|my english|sorry for)\b|"
               r"\b(?:which one|what'?s the|how (?:do|can|should|would) (?:i|we|you)|should (?:i|we)|"
               r"is there a)\b|"
               r"\b(?:isn'?t|aren'?t|doesn'?t|don'?t|won'?t|wasn'?t)\s+(?:\w+ing|being|showing|working|loading|"
               r"saving|compiling|picked|getting)\b|\b(?:it|this|that|he|she|they) keeps? \w+ing\b|"
               r"\bkeeps \w+ing\b|^my\b|"
               r"^(?:don'?t|do not|no need to) (?:worry|bother|care)\b|^(?:we|you|people) (?:keep|"
               r"always end up|"
               r"keep ending up)\b|^(?:that|this|it|those|these)(?:'s| is| are| was|'re) (?!(?:a |an |"
               r"the )?(?:repo|"
               r"project|monorepo|codebase|app|library|service)\b)|^i (?!(?:'d|would|prefer|like|love|hate|"
               r"dislike|want|never|always|don'?t|do not|can'?t)\b)\w+ (?:that|this|it|them)\b")
_FRAGMENT = _rx(r"^\S+(?: \S+)? (?:does|do|did|is|are)(?: too| as well)?(?:,| and\b|$)")
_PAST = _rx(r"^(?:\w+ed|ran|made|did|built|broke|wrote|got|took|went|came|saw|found|"
            r"had)\b(?!\s+(?:\w+\s+)?(?:has|"
            r"is|are|must|should|needs?|can|will|gets?|goes|stays?|runs?|lives?|only)\b)|^(?:[\w./`'-]+\s+)"
            r"{1,5}(?:was|were|finished|passed|failed|crashed|ran|broke|went|took|timed out|came back)\b")
_MACHINE = _rx(r"\b(?:my|your) (?:\w+ ){0,2}(?:checkout|clone|laptop|machine|computer|box|desktop|setup|"
               r"env(?:ironment)?|editor|terminal|shell|home|username|user ?name|ip|vm|container|workspace|"
               r"mac|"
               r"macbook|pc|side|end|local copy|dev box)\b|\bon my (?:end|side)\b")
# "I'm in Canada so currency is CAD", "i'm new so please explain simply", "im on zig 0.13, dont
# give me 0.11 syntax": what the user says of themselves carries a rule
_SO_A_RULE = _rx(
    r"\bso (?:please |pls |just )?(?:don'?t|dont|do not|never|always|keep|no|only|use|avoid|explain|"
    r"stick|make sure)\b|\bso (?:\w+ ){1,2}(?:should|must|has to|have to|needs? to|is|are)\b|"
    r",\s*(?:please |pls )?(?:don'?t|dont|do not|never|always)\b")
_VAGUE = _rx(r"^(?:make it|do it|keep it|be|do|write it|code it)\s+(?:better|good|nice|nicer|clean|cleaner|"
             r"careful|consistent|simple|simpler|properly|right|correctly|well|faster|smaller|pretty|prettier)"
             r"\b")
# (not "since you're new to this repo", "since you'll be in it a lot": why the user says it, not
# why the rule holds)
_WHY = _rx(r"(?:,\s*|\s+[-—–]\s*|\s+)\(?(?P<word>because|since(?! you(?:'re|'ll| are| will)\b)|"
           r"as otherwise|otherwise|or else|so that|cause|cuz|coz|the reason is|that way)\b[,:]?\s+"
           r"(?P<why>[^()]+?)\)?[.!]?$")
_WHY_SENTENCE = _rx(r"^(?:because|since|otherwise|or else|that way|so that|the reason is|this is because|"
                    r"it'?s because|reason being|cause|cuz)\b[,:]?\s*(?P<why>.+)")
_SYMPTOM = _rx(r"\bwhen (?:i|we) (?!always|never|usually)\w+|\b(?:crashes|hangs|freezes|errors out|"
               r"blows up) (?:when|"
                r"after|on|if) (?:i|we|clicking|you click|opening)\b|"
                r"\b(?:is|are) (?:broken|slow|laggy|buggy|wrong|off|missing|empty|blank|stuck|failing|"
                r"crashing|"
                r"flaky|not recognized|not found|undefined|null|nan|late)\b|\b(?:jitters|flickers|lags|"
                r"stutters|"
                r"glitches|clicks|puts some|shows up as|comes out as)\b|\bfails on\b")
# "the chat gateway is dropping messages", "payslips are not showing in the portal": something going
# wrong as the user speaks (not "we're not updating to 1.21 yet", a decision), or what is or is not
# its cause ("the fallback is the problem")
_MALFUNCTION = _rx(r"(?<!we)(?<!we )(?<!you)(?<!you )\b(?:is|are|'s|'re|keeps?)\s+"
                   r"(?:(?:still|now|just|suddenly|randomly|sometimes)\s+)?(?:dropping|losing|skipping|"
                   r"timing out|double[- ]?\w+ing|duplicating|leaking|spamming|hanging|freezing|"
                   r"not (?:finding|showing|loading|working|saving|sending|syncing|updating|firing|"
                   r"rendering|returning|picking up|triggering|matching|respecting|applying))\b|"
                   r"\b(?:is|are|was|were|isn'?t|aren'?t|wasn'?t)\s+(?:not\s+)?(?:the|our|my)\s+"
                   r"(?:problem|issue|culprit|cause)\b")
# "the page crashes when I click save": what the user saw go wrong now, not a known trap
_BUG_REPORT = _rx(r"\bwhen (?:i|we) (?!always|never|run|deploy|build|use)\w+|\b(?:now|again|still|anymore|"
                  r"suddenly|since (?:yesterday|today|this morning|the last|your))\b|\b(?:i|we) (?:get|got|"
                  r"see|saw|"
                  r"am getting|'m getting|keep getting)\b|\bfor me\b|\bon my\b")
_COPULA = _rx(r"^(?:(?!(?:when|if|because|that|which|so|and|but|while|once|after|"
              r"before)\b)[\w./`'+#-]+\s+){1,5}"
              r"(?:is|are)\s+(?!(?:it|this|that|done|fixed|broken|failing|ready)\b)")
_CODEY = re.compile(r"[{}();=<>|&$\\]")
MIN_WORDS = 3
MAX_SENTENCE = 1000
BARE_FACT_WORDS = 7  # a fact with no cue, contrast or reason needs this many words
# How people spell in chat, to what the rules read ("dont" is "don't", "r" is "are")
_SPELLED = {
    "dont": "don't", "doesnt": "doesn't", "isnt": "isn't", "arent": "aren't", "cant": "can't",
    "wont": "won't",
    "didnt": "didn't", "shouldnt": "shouldn't", "wouldnt": "wouldn't", "thats": "that's", "theres": "there's",
    "im": "I'm", "ive": "I've", "youre": "you're", "u": "you", "ur": "your", "r": "are", "pls": "please",
    "plz": "please", "teh": "the", "b/c": "because", "bc": "because", "w/o": "without", "tho": "though",
    "were on": "we're on", "were using": "we're using",
}
_SPELLINGS = "|".join(re.escape(k) for k in sorted(_SPELLED, key=len, reverse=True))
# not a letter of an abbreviation ("w.r.t.", "U.S."), a path or an option ("-u", "/r/")
_CHAT = re.compile(rf"(?i)(?<![\w'./-])(?:{_SPELLINGS})(?![\w']|\.\w|/\w)")


@lru_cache(maxsize=4096)  # judge, signals, _cued and _rescue each ask it of the same sentence
def _spelled(text: str) -> str:
    """How people spell in chat, to what the rules read ("dont" is "don't", "r" is "are")."""
    return _CHAT.sub(_respell, text)


def _respell(m: re.Match[str]) -> str:
    word = m.group(0)
    if len(word) == 1 and word.isupper():
        return word  # "R" is the language, "U" a letter: only "r" and "u" are chat
    return _SPELLED[word.lower()]


# "my lead told me that ...", "the clinic said ...": a stakeholder's requirement, in the user's words;
# said in the passive only as a label ("What is decided: ..."), not "those weights were agreed with
# the VP" (the statement itself) nor "this was decided in the assembly" (of the sentence before)
_HEARSAY = _rx(r"^(?!(?:like |as )?(?:i|we|you)\b)(?!(?:this|that|it|which)\b)(?:(?:my|our|the|she|he|"
               r"they) )?(?:(?:(?P<passive>is|was|were|are|been|be)|"
               r"(?!(?:is|was|were|are|been|be)\b)\w+) ){0,3}"
               r"(?:(?:confirmed|checked|"
               r"talked|spoke) with (?:\w+ ){0,2}\w+,|told me|told us|said|says|wants|asked for|insists|"
               r"confirmed|"
               r"requires|decided|agreed)(?: (?:yesterday|today|earlier|last week|"
               r"this morning))?(?(passive):\s+|(?: that)?[,:]?\s+)")
# said before: a restatement is a rule
_AGAIN = _rx(r"\b(?:like i said|as i said|as i told|i told you|i said before|as mentioned|like before,|"
             r"again:|as always|like last time)|^again\b")
# "after adding packages, ...", "every time you touch X": a recurring trigger
_RECURRING = _rx(r"\b(?:after|before|whenever|every ?time|each time|when(?:ever)?) (?:you )?(?:add|adding|"
                 r"chang|"
                 r"touch|edit|deploy|merg|releas|commit|push|open|creat|install|updat|upgrad|bump|writ|run|"
                 r"regenerat|rebas|tag|ship|publish)\w*\b")
_CONTRAST = _rx(r"^[^,]{2,80},?\s+not\s+[\w./`'-]+(?:\s+[\w./`'-]+){0,3}[.!]?$|"
                r",\s+not\s+(?:the\s+)?[\w./`'-]+"
                r"(?:\s+[\w./`'-]+){0,2}[.!]?$|\bnot\s+[\w./`'-]+\s*,\s*[\w./`'-]+[.!]?$")


# What the junk looks like in words no other pattern reads (tests/extract/test_rules.py
# has an example of each): a request riding on the sentence ("..., please make a new
# endpoint", "... please help"), the user about what they know ("I don't know where ...", "I
# suspect ..."), an event with its date ("got rejected for the third time", "last week", "since
# 9am"), a conclusion of the dialogue ("no namelist switch then", "..., good"), a plan ("we may
# split orders later"), and a log's line that reads as prose ("Cause: ...", "The following ...")
_REQUEST_TAIL = _rx(r",\s*fix the \w+[.!]?$|\bat this point\b|"
                    r"(?:[,;:]|\s[-—–])\s*(?:(?:and|but|now|just|ok|also)\s+)*(?:please|pls)\s+"
                    r"(?:make|create|write|implement|build|add|give|show|send)\s+(?:me|us|a|an)\b|"
                    r"\b(?:please|pls|can you|could you) (?:help|advise)(?: me)?[.!]*$|\bhelp me[.!]*$")
_SELF = _rx(r"^(?:i|we) (?:don'?t|do not|didn'?t|did not|can'?t|cannot) (?:know|remember|recall|understand|"
            r"get|see|tell|find|give you)\b|^(?:i|we) (?:suspect|doubt|wonder|assume|reckon|bet|figured?)"
            r"\b|\b(?:my bad|obviously|fun fact)\b")
_DATED = _rx(r"\b(?:until (?:\w+day|next (?:week|month|sprint)|\w+'s (?:release|launch|demo|freeze|cut))|"
             r"(?:for|the) (?:second|third|fourth|fifth|\w+th) time|since (?:\d{1,2} ?(?:am|pm)|"
             r"yesterday|this morning|monday|tuesday|wednesday|thursday|friday)|(?:earlier|later) (?:today|"
             r"this (?:week|month|year))|like last time|an hour ago|\w+ (?:hours|minutes) ago)\b")
_CONCLUDES = _rx(r"(?:\bthen|,\s*(?:good|great|fine|nice|perfect|ok|okay|cool))[.!]*$")
_PLANNED = _rx(r"\b(?:we|it|they|this|that|you|i) (?:may|might|could) (?!not\b|only\b)\w+|\b(?:at some point|"
               r"down the (?:road|line)|one day|some ?time)\b")
_LOG_PROSE = _rx(r"^(?:cause|caused by|reason|hint|detail|details|error|warning|exception|traceback)\s*:\s*"
                 r"(?-i:[A-Z])|"
                 r"^the following (?:\w+ )?(?:tasks?|files?|errors?|warnings?|tests?|packages?|modules?|"
                 r"checks?|jobs?|steps?)\b (?:did|were|was|have|had|failed|could|are)\b")

# a question without its mark ("..., right", "or is that overkill", "should the delay be ..."), what a
# document says, quoted (it is in the repo already), today's bug in general words ("celery beat is
# double firing", "the job OOMs on the big partitions"), today's figures ("p99 on the query is
# 900ms"), and a feature someone wants ("client wants the form to send an SMS")
_UNMARKED_QUESTION = _rx(r"\bor is (?:that|it|this)\b|,\s*right[.!]?$|^should (?:the|we|it|this|that)\b")
_QUOTES_DOC = _rx(r"^(?:the |our )?(?:[\w.]+ ){0,2}(?:docs?|readme|contributing(?:\.md)?|wiki|guide|spec|"
                  r"manual|changelog|error|message)\s+(?:says?|reads?)\s*[:,]?\s*[\"“]")
_TODAYS_BUG = _rx(r"\b(?:is |are )?(?:double[- ]firing|hangs? (?:at|on|when|after)|ooms? on|ooming|panics? "
                  r"(?:after|when|on)|crash(?:es)? (?:on|when|after)|reads? garbage|loops? forever|returns? "
                  r"\d{3}|restarts? every|is lagging|overlaps? the|looks? washed|is not updating|gives \d)\b")
# "the 500 comes because the validator throws", "its b/c the fake server never closes", "that's
# the culprit": why today's bug happens, not how the project is
_DIAGNOSIS = _rx(r"^(?:(?:it'?s|its|that'?s|thats|this is)|the (?:[\w.-]+ ){1,4}(?:is|comes|came|happens|"
                 r"happened|was))\s+(?:(?:just|probably|all|only) )?(?:because|b/c|bc|due to|caused by)\b|"
                 r"\bthe culprit\b")
_TODAYS_FIGURE = _rx(r"\b(?:p\d{2}|latency|lag|takes|took|is taking)\b.*\d")
_WANTED = _rx(r"^(?:(?:hi|hello|hola|hey|yo)[,!]?\s+)?(?:so\s+)?(?:i|we) (?:need|want|would like|"
              r"'d like)\b|"
              r"^(?:(?:hi|hello|hola|hey)[,!]?\s+)?i (?:have|got) (?:to|a ticket|a task)\b|"
              r"^(?:hey,? )?(?:the |our )?(?:client|customer|product|pm|boss|manager|stakeholders?|business) "
              r"(?:wants?|needs?|asked)\b(?!.*\b(?:everywhere|every|always|never|all)\b)|"
              r"\bgot a (?:ticket|task|request)\b")
# the same, anywhere in the sentence and said of a person ("product wants a CSV export", "for my
# class I need a bank account program"; not "public API changes need a CHANGELOG entry"): judge
# leaves it out, the rescue does not look for it
_PERSON_WANTS = _rx(
    r"\b(?:i|we|you|he|she|product|pm|client|customers?|users?|boss|manager|lead|teacher|supervisor|"
    r"someone|everyone|people|(?:the|our|my) (?:team|client|customer|boss|manager|lead|pm|teacher|"
    r"supervisor|users))\s+(?:really |just |also |now |still |only )?(?:want|wants|need|needs|asked for|"
    r"requested|would like) (?:a|an|to have)\b")


def _in_passing(body: str, standing: bool) -> bool:
    """A sentence of the task at hand in words no other pattern reads (above)."""
    if _LOG_PROSE.opens(body) or _SELF.finds(body) or _UNMARKED_QUESTION.finds(body) or \
            _QUOTES_DOC.opens(body):
        return True
    if standing:
        return False
    if _REQUEST_TAIL.finds(body) or _DATED.finds(body) or _CONCLUDES.finds(body) or \
            _PLANNED.finds(body) or _WANTED.finds(body) or _DIAGNOSIS.finds(body):
        return True
    guided = _STRONG_CONDITION.finds(body) or _INSTRUCTION.finds(body) or _MODAL.finds(body)
    return not guided and bool(_TODAYS_BUG.finds(body) or _TODAYS_FIGURE.finds(body))


_WRAPS = (("**", "**"), ("__", "__"), ('"', '"'), ("“", "”"), ("'", "'"), ("‘", "’"), ("`", "`"), ("*", "*"),
          ("_", "_"))


@lru_cache(maxsize=4096)
def _unwrapped(raw: str) -> str:
    """The sentence without the quotes, backticks or emphasis wrapped around all of it ("**never
    push to main**"), and without such a mark left alone at either end; a mark that belongs to
    what it holds stays ("`pnpm check` is svelte-check", "... then run `make sqlc`",
    "'Speichern' not 'Speichere'")."""
    text = raw.strip()
    changed = True
    while changed and text:
        changed = False
        for opening, closing in _WRAPS:
            inner = text[len(opening):len(text) - len(closing)]
            if len(text) > len(opening) + len(closing) and text.startswith(opening) and \
                    text.endswith(closing) and not _marks(inner, opening, closing):
                text, changed = inner.strip(), True  # wrapped around all of it
            elif text.startswith(opening) and _marks(text, opening, closing) % 2:
                text, changed = text[len(opening):].strip(), True  # left alone at the start
            elif text.endswith(closing) and _marks(text, opening, closing) % 2:
                text, changed = text[: len(text) - len(closing)].strip(), True  # or at the end
            if changed:
                break
    return text


def _marks(text: str, opening: str, closing: str) -> int:
    """How many quote, backtick or emphasis marks of one kind ``text`` holds (an apostrophe in
    a word is no quote: "don't", "the team's")."""
    if opening in ("'", "‘"):
        return len(re.findall(r"(?<![\w])['‘’]|['‘’](?![\w])", text))
    if opening == closing:
        return text.count(opening)
    return text.count(opening) + text.count(closing)


def _quoted(raw: str) -> bool:
    """A piece of a quotation (an unbalanced quote mark): pasted from a doc or a tool."""
    return (raw.count('"') + raw.count("“") + raw.count("”")) % 2 == 1


class Judged(NamedTuple):
    kind: Kind
    statement: str  # what to keep, cleaned of lead-ins and places
    why: str | None  # the user's own reason


# A sentence that only says what is coming ("Some context before we start, since you'll be in this
# repo a lot.", "A few ground rules from the team."): the content, if any, is in the sentences after
_BEFORE_WE_START = (r"before (?:we|you|i) (?:start|begin|dive in|get going|go on|continue|"
                    r"touch anything(?: in [\w.-]+)?|do anything|write any code)")
_ANNOUNCEMENT = (r"(?:(?:ok|okay|so|alright|right|first|also|and|um+|uh+)[,\s]+)*"
                 rf"(?:{_BEFORE_WE_START},?\s+)?(?:here'?s |here are |there are )?"
                 r"(?:some|a few|a couple(?: of)?|couple of|a bit of|a little|quick|two|three|few)?\s*"
                 r"(?:more\s+|quick\s+|general\s+|important\s+|useful\s+)?"
                 r"(?:context|background|ground rules|house rules|rules|notes|things|pointers|info|details|"
                 r"orientation|overview|stuff|heads[- ]ups?|reminders?|caveats|conventions)"
                 r"(?:[\s,]+(?:first|up ?front|for (?:you|context|the record|reference|later)|so you know|"
                 rf"{_BEFORE_WE_START}|from (?:the team|me|us|the client|the \w+ team|our \w+)|"
                 r"about (?:the|this|our) (?:project|repo|codebase|app|setup|stack|code)|to keep in mind|"
                 r"you should know|since you'?ll [^.:;]{1,60}|as you'?ll [^.:;]{1,60}))*")
_ANNOUNCES = _rx(rf"^{_ANNOUNCEMENT}[\s.!]*$")


# A label that leads a statement and says nothing of it: "Attention: ...", "Lesson learned: ...",
# "One more thing — ...", "Some context, since you'll need it: ...", "A few ground rules from the
# team: ..." (only before a colon, a comma or a dash: "context managers ..." keeps its first word).
# Taken out of the record's text only, so what the models weigh does not change.
_LABEL_LEAD = _rx(rf"^[—–]?\s*(?:(?:attention|lesson learned|answering myself|one more(?: thing)?|one thing|"
                  r"(?:for )?next time|fwiw|for what it'?s worth|pro ?tip|tip|reminder|"
                  r"(?:some |quick |a bit of )?(?:context|background)(?:,? since you'?ll need it)?|"
                  r"writing (?:it|this) down(?: here)?(?: so [^:—–]{0,60})?|"
                  r"born of [^:—–]{0,40}|no wait|wait|by the way|for (?:the )?future|"
                  r"for whoever [^:—–]{0,40}|i forg[eo]t to (?:say|mention)|(?:a )?couple(?: of)? things)"
                  rf"\s*[:,—–]\s*|{_ANNOUNCEMENT}\s*[:—–]\s*)?")


def _strip_lead(text: str) -> tuple[str, bool]:
    """The sentence without what leads it; whether an aside cue ("fyi", "btw") led it."""
    aside = _ASIDE_LEAD.opens(text)
    for _ in range(4):
        new = _LEAD.sub("", text)
        new = _OPINION.sub("", new)
        new = _CUE_LEAD.sub("", new)
        if new == text:
            break
        text = new
    return text.strip(), aside


@lru_cache(maxsize=4096)
def _content(text: str) -> int:
    return len(similar.words(text))


_ASK_STANDING = _rx(r"^(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?(?:(?:always|make it a habit to|"
                    r"start|remember to|keep|stop|never|from now on)\b|.*\b(?:always|every|each|from now on|"
                    r"going forward|whenever|in (?:the )?future|by default|unless i ask|as a habit|"
                    r"in general|generally|throughout)\b)|"
                    r"^would you mind (?:always|not|never)\b|^(?:from now on|going forward),? (?:can|could|"
                    r"would) "
                    r"you\b")
_QUESTION_TAIL = _rx(r"(?P<head>.+?),\s*(?:(?:so\s+)?(?:could|would|is|does|do|can|should|why|how|isn'?t|"
                     r"doesn'?t|right|no)\b.*\?)$")
_LIST_LABEL = _rx(r"^(?P<label>(?:[\w#+./-]+\s+){0,3}(?:conventions?|style(?: stuff| guide)?|naming|rules?|"
                  r"standards?|guidelines?|checklist|stack|setup|linting|formatting|imports?|tests?|testing|"
                  r"commits?|commit messages?|branches|prs?)|python|js|ts|javascript|typescript|rust|go|"
                  r"kotlin|"
                  r"swift|java|c#|c\+\+|css|sql|terraform|yaml|react|vue|shell|bash|dart|ruby|php|elixir|scala|"
                  r"(?:[\w#+./-]+\s+)?infra(?: naming)?)\s*(?:for (?:this|the) (?:repo|project|"
                  r"codebase))?:\s*"
                  r"(?P<items>.+)")
_STEPS_INLINE = re.compile(r"(?:^|\s)(?:\d{1,2}[.)]|\(\d{1,2}\))\s+")
_ARROWS = re.compile(r"\s*(?:→|->|=>|⇒)\s*")
_GENERIC_SCOPE = _rx(r"^(?:when(?:ever)? (?:you(?:'re)? )?(?:\w+ing|add|write|touch|change|create|make|"
                     r"open|run|"
                     r"deploy|release|ship|bump|edit|use|need|want|get|see|hit|start|build)\b|when writing|"
                     r"for (?:a |any |every |new |each |all )|for anything|if you(?:'re)? (?:\w+ing|touch|"
                     r"add|"
                     r"change|need|want|see|get|hit|run|use|ever)|on (?:android|ios|mobile|web|desktop|"
                     r"windows|"
                     r"mac(?:os)?|linux|prod|production|staging|ci|the (?:\w+ )?(?:branch|server|cluster))\b|"
                     r"in (?:the )?[\w./-]+/|in (?:prod|production|staging|ci|tests?|migrations|the \w+ "
                     r"(?:module|package|service|crate|folder|directory|app|layer))\b|for the [\w./-]+ "
                     r"(?:crates?|services?|packages?|modules?|apps?|team|repo|folder|endpoints?|tests?|jobs?)\b|"
                     r"(?:anything|everything|all code) (?:under|in|touching|related)|before (?:you |a |any |"
                     r"every |each )?(?:\w+ing|merge|release|deploy|push|commit|tag|publish)|after (?:you |"
                     r"a |"
                     r"any |every |each )?(?:\w+ing|merge|release|deploy|push|commit|tag|publish))")


# The task's own spec under its label ("Task: add CSV export ...", "AC: managers can approve ...",
# "Done when: ...", "Repro: ...", "New component: ..."): what is asked for now, however it is
# phrased after the label ("New rule: ...", "New code: ...", "New endpoints: ..." (a kind of
# thing, not one thing), "New hires: ..." are no such label)
_TASK_LABEL = _rx(r"^(?:\*\*|#+\s*)?(?:task|todo|to ?do|ac|acceptance criteria|done when|definition of done|"
                  r"dod|goal|need|needs|request|ticket|bug|repro|steps to reproduce|expected(?: behaviou?r)?|"
                  r"actual(?: behaviou?r)?|deliverables?|scope|story|user story|feature request|"
                  r"new (?!(?:code|rules?|polic(?:y|ies)|conventions?|standards?|guidelines?|process|hires?|"
                  r"joiners?|people|members?|contributors?|starters?)\b)[\w-]*[a-rt-z0-9]"
                  r"(?: [\w-]*[a-rt-z0-9])?|pr #?\d*|issue #?\d*|what i want|the ask|ask)"
                  r"(?:\*\*)?\s*(?:\*\*)?\s*:")


# A sentence that stops where its point should come: "The PDP sections are:" (a list follows)
_DANGLING = _rx(r"\b(?:is|are|was|were|be|the|a|an|to|of|with|for|and|or|but|like|as|via|into|see)[.:!,]*$")


def judge(raw: str) -> Judged | None:
    """Whether a sentence holds something a later session needs: its kind and statement."""
    text = _unwrapped(raw)
    if len(text) > MAX_SENTENCE or _quoted(raw):
        return None  # longer than a statement may be (memory.limits.statement_chars), or quoted: pasted
    text = _spelled(text)
    if not text or len(_CODEY.findall(text)) > 6 or _META.opens(text) or _HEDGE.finds(text):
        return None
    if _ACK.opens(text) and len(text.split()) <= 5:
        return None
    if text.endswith("?"):
        if _ASK_STANDING.opens(text):
            text = text.rstrip("?").strip()  # a standing rule asked for: "can you always ...?"
        else:
            tail = _QUESTION_TAIL.match(text)  # "X does Y, could that be why ...?": keep X
            if tail is None:
                return None
            text = tail.group("head")
    corrected = False
    while (m := _CORRECTION.match(text)) is not None:
        text, corrected = m.group("rest"), True
    aside = _ASIDE_LEAD.opens(text)
    text = _OPINION.sub("", _LEAD.sub("", text)).strip()  # "never mind," says nothing of "never"
    text = _HEARSAY.sub("", text) if _HEARSAY.opens(text) and len(text.split()) > 6 else text
    standing_cue = bool(_STANDING.finds(text) or _AGAIN.finds(text) or _RECURRING.finds(text))
    text = re.sub(r"(?i)^(?:again|like i said(?: last time)?|as i said|as i told(?: you)?(?: before)?|"
                  r"as mentioned)[:,.]?\s+", "", text)
    text = _strip_lead(text)[0]
    asked = _ASK.opens(text)
    text = _ASK.sub("", text).strip()
    if sentences.broken(text):
        return None  # it was about the URL, path or secret that must not be kept
    body = sentences.without_places(text).rstrip("?").strip()
    if not body or (_QUESTION_START.opens(body) and not _SCOPED.opens(body)) or _DANGLING.finds(body):
        return None
    if _META.opens(body) or _FRAGMENT.opens(body) or _JUDGED.opens(body) or _DISMISS.finds(body) or \
            _TASK_LABEL.opens(body) or _ANNOUNCES.opens(body):
        return None
    listed = _LIST_LABEL.match(body)
    if listed and _list_items(listed.group("items")) >= 2:
        return Judged("preference", body, None)
    if len(body.split()) < MIN_WORDS and not _CONVENTION.finds(body):
        return None
    if _content(body) < 2 or _VAGUE.opens(body) or _MACHINE.finds(body) or (_ACK.opens(body) and \
            len(body.split()) <= 5):
        return None
    if _ABOUT_ANSWER.opens(body) or _TASK_ONLY.finds(body) or _WORKING_COPY.finds(body) or \
            _STATUS.finds(body) or \
            (_PAST.opens(body) and not standing_cue) or _in_passing(body, standing_cue):
        return None
    standing_body = _STANDING.finds(body)
    if not (standing_body or _AGAIN.finds(text)) and (_SYMPTOM.finds(body) or _MALFUNCTION.finds(body)) and \
            not _INSTRUCTION.finds(body):
        return None  # a symptom of today's bug, even "when changing X"
    if _PERSON_WANTS.finds(body) and not standing_cue:
        return None  # a feature someone wants: the task at hand ("product wants a CSV export")
    if not standing_cue and (
                             (re.match(r"(?i)^(?:i'?m|i am)\b", body) and not _WE_FACT.opens(body) and
                              not _SO_A_RULE.finds(body)) or
                             (re.match(r"(?i)^(?:on|from|in|at|with|for|to|"
                                       r"by)\b", body) and len(body.split()) <= 6) or
                             re.match(r"(?i)^the (?:one|ones|other)\b", body)):
        return None  # a symptom of today's bug, the user about themselves, a fragment
    if len(body.split()) <= 10 and re.search(r"(?i)\b(?:that|this|it|them|those|these|ones)(?: before| "
                                             r"already| again| too| twice| a lot| many times)?[.!]*$", body) \
            and _content(re.split(r"[,;]\s|\s[-—–]\s", body)[0]) < 2:
        return None  # "scripts downstream depend on that": about something said before (not
        # "objstore config is in the secret, dont inline it": what "it" is, it says)
    if re.search(r"(?i),?\s+(?:but|and) (?:check|fix|look at|make sure|try|update|add|remove) the\b", body):
        return None  # a request rides along: it is about the change at hand
    standing = standing_cue or standing_body
    kind = _shape(body, standing, asked, aside, corrected)
    if kind is None:
        return None
    statement, why = _reason(body, kind != "fact")
    if _content(statement) < 2:
        return None
    return Judged(kind, statement, why)


# -- the second opinion (extract/weigh.py) --------------------------------------------------
KEEP = 0.6  # a sentence the rules keep stays when the model gives it at least this
# ... or this, when a URL, path, host or secret is taken out of it: the words left say less, and such
# a statement is kept without what was pasted in it, not dropped ("We use the deploy key <secret>
# for the staging bucket uploads", "The API at <url> is rate-limited to 10 requests per second").
# 0.25 since the eleventh round: retrained on 158 sets, the model gave the first 0.30 to 0.46 (0.54
# on 150), and on the held-out pool and the probes no record moved between 0.5 and 0.25
KEEP_PASTED = 0.25
RESCUE = 0.88  # one the rules leave out is kept when the model is this sure of it
_DIRECTIVE = _rx(r"^(?:we )?(?:always|never|don'?t|do not)\b")
_THEN = _rx(r"(?:,\s*|\s+)(?:and\s+)?then\b")


def _steps_in_one(text: str) -> bool:
    """"hold BOOT, tap RESET, release BOOT, then make flash": two short steps or more, cut by
    commas, before a "then" (a function, not one pattern: a pattern of repeated comma-cut
    groups backtracks without end on a long list)."""
    for then in _THEN.finditer(text):
        before = re.split(r"[,;]", text[: then.start()])
        if len(before) >= 3 and all(3 <= len(step.strip()) <= 60 for step in before[-2:]):
            return True
    return False
TYPE_MARGIN = 2.0  # the type model overrules the rules' type when it is this much surer
_LASTING_CUE = _rx(r"\b(?:from now on|going forward|moving forward|for future reference|as a rule)\b")


# "I'd rather ...", "I prefer ...", "careful with ...", "gotcha: ...": the user says it is their
# taste or a trap in so many words
_STATED_TASTE = _rx(r"^(?:i|we)(?:\s+|(?='))(?:really\s+|much\s+|strongly\s+)?(?:prefer|'d rather|"
                    r"would rather|'d prefer|would prefer|like|love|hate|don'?t like|do not like|"
                    r"can'?t stand)\b|"
                    r"^(?:careful|watch out|beware|gotcha|heads up)\b")


def _cued(raw: str) -> bool:
    """The user marked it as lasting ("remember that ...", "... from now on"), or said
    "always"/"never" of no thing of the task at hand ("always run the e2e suite with one
    worker", not "always use a fresh session for this write"): the model does not overrule that."""
    text = _LEAD.sub("", _spelled(raw.strip()))
    if _CUE_LEAD.opens(text) or _LASTING_CUE.finds(raw) or _ASK_STANDING.opens(text) or \
            _STATED_TASTE.opens(text):
        return True
    body = _strip_lead(text)[0]
    return bool(_DIRECTIVE.opens(body) and len(body.split()) >= 4 and not _DEICTIC.finds(body) and
                not _TASK_ONLY.finds(body))


# A sentence that only marks the one before it as lasting: "Please remember this for all future
# changes.", "keep that in mind for anything stateful", "that goes for every new screen", "keep it
# that way" (not "note it only exists in ...", "keep it simple": they say something of their own)
_BACK_SCOPE_WORDS = (r"(?:this|that|it) (?:goes|applies|holds) (?:for|to)\b|"
                     r"(?:this|that) is (?:the|our) (?:rule|standard|convention|policy)\b")
_BACK_CUE = _rx(r"^(?:(?:ok(?:ay)?|and|so|also|pls|please|oh and|important|very important)[,!:]?\s+)*"
                r"(?:(?:(?:please\s+)?(?:remember|memori[sz]e|note|don'?t forget|do not forget|never forget|"
                r"write down|save)\s+(?:this|that|it|these|those)(?:\s+one)?(?:\s+down)?|(?:keep|bear)\s+"
                r"(?:this|that|it|these|those)\s+in mind|keep (?:it|them) (?:that way|so|like that))"
                r"(?=\s*(?:$|[.!,;:\u2014\u2013-]|(?:for|when|whenever|going forward|from now on|everywhere|"
                rf"please|pls|too|always|in (?:the )?future)\b))|{_BACK_SCOPE_WORDS})")
# "That goes for anything that lists bookings, not just this.", "This is the rule for all screens,
# from the warehouse manager.": the scope of the rule before, never a rule of its own
_BACK_SCOPE = _rx(rf"^(?:(?:ok(?:ay)?|and|so|also)[,!]?\s+)*(?:{_BACK_SCOPE_WORDS})[^:;]*$")
_BACK_CUE_ONLY = _rx(r"^[^,;:\u2014\u2013]*[.!]*$")  # nothing after the cue but its scope: no reason, no rule


def back_cue(raw: str) -> bool:
    """The sentence marks the one before it as lasting (``_BACK_CUE``)."""
    return _BACK_CUE.opens(raw.strip())


def decide(raw: str, context: Iterable[str] = (), hushed: bool = False,
           marked: bool = False) -> Judged | None:
    """The rules' judgement, weighed: what they keep is kept unless the model finds it
    unlike anything people keep; what they leave out is kept when the model is sure. The
    type of what is kept is the type model's (``_typed``). In a turn that holds nothing to
    keep (``hushed``: see ``quiet``) only what the user marked as lasting is kept; ``marked``:
    the next sentence marks this one so ("Please remember this for all future changes.")."""
    cued = marked or _cued(raw)
    if hushed and not cued:
        return None  # asked first: in a turn that is not hushed, most sentences never need it
    judged = judge(raw)
    rescued = _rescue(raw) if judged is None else None
    if judged is None and rescued is None:
        return None  # never kept, whatever the model says: no need to ask it
    feats = weigh.features(raw, [*signals(raw, judged), *context])
    if judged is None or not (hushed or cued):  # hushed and still here: cued, asked above
        p = weigh.probability(weigh.weights(), feats)
        # steps in one sentence ("hold BOOT, tap RESET, then make flash") are a workflow the
        # rules' shapes do not read: the model need not be as sure of them
        keep = KEEP_PASTED if sentences.names_a_place(raw) else KEEP
        if p < (keep if judged is not None or _steps_in_one(raw) else RESCUE):
            return None
    kept = judged or rescued
    assert kept is not None
    return kept._replace(kind=_typed(kept, feats))


def _typed(kept: Judged, feats: Iterable[str]) -> Kind:
    """A warning is a pitfall whatever the words around it, steps in one sentence ("A, B, then
    C") a workflow, a directive ("never ...", "always ...", "don't ...") a rule or a warning,
    and a modal rule ("... should be behind auth") never a fact; otherwise the type model
    (extract/weigh.py) reads the type the labelled sets give such sentences, when it is surer
    than the rules."""
    feats = weigh.own(feats)  # the type is the sentence's own: the turn around it does not say it
    if _WARNING.finds(kept.statement):
        return "pitfall"
    if _steps_in_one(kept.statement):
        return "workflow"  # "hold BOOT, tap RESET, release BOOT, then make flash": steps
    table = weigh.types()
    if _DIRECTIVE.opens(kept.statement):  # "never X before Y" is a rule (or a warning), not steps
        table = {k: w for k, w in table.items() if k in ("preference", "pitfall")}
    elif _MODAL.finds(_main_clause(kept.statement)):  # "new endpoints should be behind auth"
        table = {k: w for k, w in table.items() if k != "fact"}
    found = weigh.kind(table, feats, kept.kind, TYPE_MARGIN)
    assert found in ("preference", "fact", "workflow", "pitfall")
    return cast(Kind, found)


TURN_GATE = 0.3  # a turn the turn model gives less than this holds nothing to keep (``quiet``)
TURN_GATE_ALONE = 0.05  # the same for a turn of one sentence: the model must be surer


def quiet(turn: list[sentences.Sentence], first: bool = False) -> bool:
    """A turn the turn model reads as holding nothing to keep ("we need an endpoint to
    export ... handler goes in src/handlers/orders, table is Orders": a task and its
    details): of its sentences only what the user marked as lasting (``_cued``) is kept;
    steps (``Sentence.steps``) are read as before. Of a turn of one sentence, all the turn
    model reads is that sentence, which the sentence's own model reads too: it must be much
    surer ("the e2e suite times out unless the emulator is warm", alone, gets 0.08 and stays).
    ``first``: the turn opens a session of several (``turn_features``)."""
    gate = TURN_GATE if len(turn) > 1 else TURN_GATE_ALONE
    return weigh.probability(weigh.turns(), turn_features(turn, first)) < gate


def turn_features(turn: list[sentences.Sentence], first: bool = False) -> list[str]:
    """What the turn model weighs: the words of the turn (weigh.turn_features), and whether it
    is the session's first (its briefing, where more of what is said is the task's)."""
    return [*weigh.turn_features(turn_text(turn)), *(["ta:first"] if first else [])]


def turn_text(turn: list[sentences.Sentence]) -> str:
    """What the turn model reads of a turn: its sentences, without what was pasted."""
    return " ".join(s.text for s in turn)


_NEW_THING = re.compile(r"\bnew\s+([\w-]{3,})(?:\s+([\w-]{3,}))?|\ban?\s+(?:[\w-]+\s+)?(endpoint|screen|page|"
                        r"command|flag|option|field|column|table|model|job|task|button|report|export|view|"
                        r"component|module|service|script|migration|query|route|handler|hook|function|class|tool|"
                        r"feature|setting|dashboard|widget|form|subcommand|resource|role|bucket|topic|queue|"
                        r"worker)\b")


def _new_things(text: str) -> set[str]:
    """What a request brings in: "a new export for invoices", "add an endpoint" (export, endpoint)."""
    return {w for m in _NEW_THING.findall(text.lower()) for w in m if w and w not in similar.STOP}


def context(turn: list[sentences.Sentence], first: bool = False) -> list[tuple[str, ...]]:
    """For each sentence of a turn, what the rest of the turn says about it: whether the
    turn asks for something (then a sentence in it is more often about that request), how
    the turn opens ("morning! we need ...", "hey so ...": a task is coming), where in the
    turn the sentence stands and how many sentences the turn has."""
    asks = [s.text.rstrip().endswith("?") or bool(_ASK.opens(s.text) or
                                                 _TASK_VERB.opens(_strip_lead(s.text)[0])) for s in turn]
    opening = weigh.tokens(turn[0].text)[:2] if turn else []
    turn_wide = [f"c:opens:{opening[0]}"] if opening else []
    if len(opening) > 1:
        turn_wide.append(f"c:opens:{opening[0]}_{opening[1]}")
    turn_wide.append(f"c:sentences:{min(len(turn), 4)}")
    if first:
        turn_wide.append("c:first-turn")  # the session's briefing: more of it is the task's
    # what is asked for: a sentence about it is more often a detail of the task than a fact of
    # the project ("we need a new export ... the export has three columns")
    wants = [a or bool(_WANTED.opens(s.text) or _PERSON_WANTS.finds(s.text)) for s, a in
             zip(turn, asks, strict=True)] if len(turn) > 1 else [False]
    said = [similar.words(s.text) - similar.NOT for s in turn] if any(wants) else []
    new = [_new_things(s.text) if w else set() for s, w in zip(turn, wants, strict=True)] if said else []
    out = []
    for i in range(len(turn)):
        here = [*turn_wide, f"c:at:{min(i, 3)}"]
        if any(a for j, a in enumerate(asks) if j != i):
            here.append("c:turn-asks")
        if any(w for j, w in enumerate(wants) if j != i):
            asked = set().union(*(said[j] for j, w in enumerate(wants) if w and j != i))
            here.append(f"c:echo:{min(len(said[i] & asked), 2)}")
            low = turn[i].text.lower()
            if any(re.search(rf"\b{re.escape(w)}", low) for j in range(len(turn)) if j != i for w in new[j]):
                here.append("c:echo-new")
        if i > 0 and asks[i - 1]:
            here.append("c:after-ask")
        out.append(tuple(here))
    return out


def signals(raw: str, judged: Judged | None) -> list[str]:
    """What the rules' patterns see in a sentence, for the model to weigh."""
    text = _unwrapped(raw)
    body = sentences.without_places(_strip_lead(_spelled(text))[0])
    out = [f"judge:{judged.kind if judged else 'none'}"]
    for name, pattern in _SIGNALS.items():
        if pattern.finds(text):
            out.append(name)
        if pattern.opens(body):
            out.append("^" + name)
    for name, test in _SHAPES.items():
        if test(body):
            out.append(name)
    if text.endswith("?"):
        out.append("question")
    return out


def _rescue(raw: str) -> Judged | None:
    """A sentence the model is sure of that no rule's shape fits: kept, cleaned as the
    rules clean theirs, unless it is one of the things that are never kept (a question,
    a hedge, code, a statement about a secret or path taken out, a machine's path)."""
    text = _spelled(_unwrapped(raw))
    if len(text) > MAX_SENTENCE or text.endswith("?") or len(_CODEY.findall(text)) > 6 or \
            _HEDGE.finds(text) or _META.opens(text):
        return None
    while (m := _CORRECTION.match(text)) is not None:
        text = m.group("rest")
    text = _ASK.sub("", _strip_lead(text)[0]).strip()
    if sentences.broken(text):
        return None
    body = sentences.without_places(text).strip()
    if len(body.split()) < MIN_WORDS or _content(body) < 2 or _MACHINE.finds(body) or _VAGUE.opens(body) or \
            _DANGLING.finds(body):
        return None
    standing = _STANDING.finds(body)
    if _MALFUNCTION.finds(body) and not standing and not _INSTRUCTION.finds(body):
        return None  # "the chat gateway is dropping messages": today's bug, however sure the model is
    if _TASK_VERB.opens(body) and len(body.split()) <= 6 and not standing:
        return None  # "Skip the test.": a request, however sure the model is
    if _CHOOSE.opens(body) and _ONE_TARGET.finds(body) and not standing:
        return None  # "use pathlib instead of os.path in the new helper": a choice for one thing
    if _ABOUT_ANSWER.opens(body) or _QUESTION_START.opens(body) or _NO_WORRY.opens(body) or \
            _TASK_LABEL.opens(body) or _ANNOUNCES.opens(body) or \
            _THIS_TASK.finds(body) or _WORKING_COPY.finds(body) or _in_passing(body, standing):
        return None  # what the rules leave out on purpose the model does not bring back
    kind = _kind(body)
    statement, why = _reason(body, kind != "fact")
    return Judged(kind, statement, why)


_NO_WORRY = _rx(r"^(?:don'?t|do not|no need to) (?:worry|bother|care)\b|^not (?:a|an|the|that|so|too|really|"
                r"much|sure|yet)\b")


def _kind(body: str) -> Kind:
    if _WARNING.finds(body) or (_PITFALL.finds(body) and _CONDITION.finds(body)):
        return "pitfall"
    if _WORKFLOW.opens(body) or _FIRST_THEN.finds(body) or len(_ARROWS.split(body)) >= 3:
        return "workflow"
    if _declarative(body) and not _MODAL.finds(_main_clause(body)) and not _NEG_IMPERATIVE.opens(body):
        return "fact"
    return "preference"


def _list_items(text: str) -> int:
    items = [i.strip() for i in re.split(r"\s*(?:,|;)\s*", text) if i.strip()]
    return len(items) if all(len(i.split()) <= 8 for i in items) else 0


def _object_deictic(rest: str) -> bool:
    """The thing acted on is one of the task at hand: "fix it", "use X there", "revert this"."""
    words = rest.split()
    near = " ".join(words[1:4]).lower()
    if re.search(r"\b(?:it|this|that|these|those|them|the same|the other|this one|that one|ones|here|"
                 r"there)\b",
                 near):
        return True
    if re.search(r"(?i)\b(?:do|handle|fix|make|get) (?:it|this|that)\b", " ".join(words[1:])):
        return True
    if re.search(r"(?i)\bhere\b\s*(?:instead|not|rather|,|so|and|because|too)\b", rest) or \
            (len(words) <= 8 and re.search(r"(?i)\bthere\b(?!\s+(?:is|are|was|were|'s))", rest)):
        return True
    first = re.split(r"[,;]", rest, maxsplit=1)[0]
    return bool(re.search(r"(?i)\b(?:again|above|below)[.!,]*$", rest)) or \
        bool(re.search(r"(?i)\b(?:the other|this one|that one|the above|like before|as before)\b", first))


def _main_clause(body: str) -> str:
    """The part before a reason or a result clause: where a modal says what must be."""
    return re.split(r"(?i)[,;]?\s+(?:so|because|since|as|which|otherwise|or else|so that|"
                    r"that way)\b", body)[0]


_ONE_TARGET = _rx(r"\b(?:in|for|on|at|inside|to) (?:that|this|these|those|the new|the same|your|my) "
                  r"(?!(?:repo|repository|project|codebase|app|team|org|company|monorepo|code ?base|module|"
                  r"package|service|library)s?\b)[\w.-]+")


def _shape(body: str, standing: bool, asked: bool, aside: bool, corrected: bool) -> Kind | None:
    """The kind of a statement worth keeping, or None for one that is not."""
    scoped = _SCOPED.match(body)
    generic_scope = bool(scoped and _GENERIC_SCOPE.opens(body))
    rest = scoped.group("rest") if scoped else body
    task = _TASK_VERB.opens(rest) and not _COPULA.opens(rest)
    # after "when you add a new X," an "it" is that X; after "in docs/x.md," a "that" is not
    introduces = bool(scoped and re.search(r"(?i)\b(?:a|an|any|new|every|each|all)\b",
                                           body[: len(body) - len(rest)]))
    deictic = _object_deictic(rest) and not (generic_scope and introduces)
    main = _main_clause(body)
    strong = _STRONG_CONDITION.finds(body)
    conditioned = strong or standing or _INSTRUCTION.finds(body) or \
        (_CONDITION.finds(body) and (aside or corrected))
    pitfall = (_PITFALL.finds(body) and conditioned) or _WARNING.finds(body)
    if pitfall and _BUG_REPORT.finds(body) and not standing:
        return None  # what goes wrong in the task at hand: a bug report, not a standing pitfall
    if pitfall and not (task and not standing and not generic_scope) and not _deictic_subject(body) and \
            not deictic:
        return "pitfall"
    if ((_WORKFLOW.opens(body) or _FIRST_THEN.finds(body)) and not deictic) or len(_ARROWS.split(body)) >= 3:
        return "workflow"
    if _convention_list(body):
        return "preference"
    contrast = _CONTRAST.finds(body) or _contrast(body)
    if contrast and not task and not deictic and not _deictic_subject(body):
        return "fact" if _declarative(body) else "preference"  # "surcharge applies after X, not before"
    if _PREFERENCE.opens(body):
        return None if _object_deictic(body) and not standing else "preference"
    if _CHOOSE.opens(rest) and _INSTEAD.finds(rest) and not deictic and not _ONE_TARGET.finds(rest):
        return "preference"  # "use X instead of Y", not "... in that call" (a one-off change)
    if generic_scope and not deictic:
        return "workflow" if _WORKFLOW.opens(body) else "preference"
    if task and not standing:
        return None  # a request for the change at hand
    if deictic and not standing:
        return None
    if standing:
        directive = re.match(r"(?i)^(?:(?:we )?(?:always|never)|don'?t|do not|please|make sure|remember to|"
                             r"we "
                             r"(?:don'?t|do not))\b", body)
        return "fact" if _declarative(body) and not _MODAL.finds(main) and not directive else "preference"
    if _NEG_IMPERATIVE.opens(rest):
        return "preference"
    if _MODAL.finds(main) and not _deictic_subject(body) and not re.match(r"(?i)^(?:you|we)\b", body):
        return "preference" if not _one_component(body) or _LASTING.finds(body) else None
    if scoped and (_NEG_IMPERATIVE.opens(rest) or _MODAL.finds(rest) or re.search(r"(?i)\b(?:only|no)\b",
                                                                                   rest)):
        return "preference"
    short_ok = aside or corrected or _WE_FACT.opens(body) or re.match(r"(?i)^(?:every|each|no|any)\b", body)
    if _declarative(body) and not asked and (len(body.split()) >= BARE_FACT_WORDS or short_ok):
        return "fact"  # a short "the playbook is site.yml" is the task's context, said in passing
    if corrected and re.match(r"(?i)^(?:it'?s|it is|they'?re|they are)\b", body) and \
            re.search(r"\d|\b[A-Z][\w.-]+", body):
        return "fact"
    if aside and _content(body) >= 3 and not task and not asked:
        return "fact"
    return None


_LASTING = _rx(r"\b(?:only|always|never|every|any|all|each|stay|remain|at least|at most|no more than|"
               r"within|per|"
               r"for \d+|unless|or (?:else|the|it|we)|otherwise|by law|legally|required|compliance|audit)\b")


_VERBAL = frozenset((  # noqa: SIM905 - a word list reads better as text
    "is are was were do does did has have had can could will would should must may might am be been "
    "it's that's i'm you're we're they're isn't it"
).split())


def _contrast(body: str) -> bool:
    """A "not" that sets one thing against another ("to the guild not global"), not a verb's."""
    main = re.split(r"(?i),\s*(?!not\b)", body)
    for clause in main[:2]:
        words = clause.lower().split()
        for i, word in enumerate(words[1:], 1):
            if word == "not" and words[i - 1] not in _VERBAL and i + 1 < len(words) and i >= 2:
                return True
    return bool(re.search(r"(?i)^[^,]{3,80},\s+not\s+[\w./`'-]+(?:\s+[\w./`'-]+){0,3}[.!]?(?:,|$)", body))


def _one_component(body: str) -> bool:
    """"The delete button in the mod panel should ...": one thing of the change at hand."""
    return bool(re.match(r"(?i)^the (?:\w+ ){0,2}(?:button|callback|handler|function|method|endpoint|page|"
                         r"screen|modal|dialog|popup|form|field|column|table|query|route|component|widget|panel|"
                         r"menu|toggle|script|job|command|test|class|view|template|hook)\b", body))


def _deictic_subject(body: str) -> bool:
    return bool(re.match(r"(?i)^(?:it|this|that|these|those|the one|the ones|the other|the (?:test|build|"
                         r"function|"
                         r"file|code|change|fix|button|page|script|query|error|assertion|import|variable|loop|"
                         r"call|condition|regex|return|field|method|class|component|modal|screen|diff|patch|"
                         r"output|result|log|message)s?\b)(?!\s+(?:repo|project|codebase|app|team)\b)", body))


def _declarative(body: str) -> bool:
    m = _FACT_VERB.match(body)
    if re.search(r"(?i)\b(?:returns?|throws?|shows?|displays?|prints?|renders?|outputs?|gives?|spits? out|"
                 r"says|looks like)\b", " ".join(body.split()[:6])) and not _STANDING.finds(body):
        return False  # what the code does now (a bug report, an observation), not a fact to keep
    if m and m.group("subj").strip():
        return not re.search(r"(?i)\b(?:now|currently|still|anymore|yet|just|already|right now)\b", body)
    if _WE_FACT.opens(body):
        return not re.search(r"(?i)\b(?:now|currently|just|already|right now|need to|should|gonna|"
                             r"going to)\b",
                             body)
    if _DET_VERB.opens(body):
        return not re.search(r"(?i)\b(?:now|currently|right now|today|again)\b", body)
    return bool(re.match(r"(?i)^it'?s an? (?:\w+ ){0,3}(?:monorepo|repo|project|app|library|service|cli|"
                         r"backend|frontend|plugin|package|framework|api|site)\b", body))


# "the designer tunes ...", "the school's IT blocks ...", "the temps come in tenths": a determiner, a
# few words, a verb in the present (a closed list cannot know every verb: the shape stands in)
_DET_VERB = _rx(r"^(?:the|our|all|every|each|both|most|some|any|their|its)\s+(?:[\w'./-]+\s+){0,3}?"
                r"(?:(?:[a-z]+-)?[a-z]+(?<!ss)(?<!us)(?<!is)s|come|go|run|live|use|need|take|get|stay|sit|"
                r"mean|expect|"
                r"require|depend|support|belong|contain|hold|keep|start|end|land|ship|build|deploy|release|"
                r"publish|map|point|talk|call|handle|store|read|write|load|send|sync|follow|block|accept|"
                r"reject|arrive|show up|happen|expire|fire)\s+(?:[\w'./-]+)")


def _convention_list(body: str) -> bool:
    items = [i.strip() for i in re.split(r"\s*(?:,|;| and |/)\s*", body) if i.strip()]
    return len(items) >= 2 and all(len(i.split()) <= 6 for i in items) and \
        sum(_CONVENTION.finds(i) for i in items) >= 2


# "never use rand* in templates, argo re-renders all the time": a rule, then after a comma or a
# dash a clause of how things are, with no word to say it is the reason; it is, when the rule is
# a directive and the clause has a subject and a verb of its own and is no rule itself
_DIRECTED = _rx(r"^(?:please\s+)?(?:always|never|don'?t|do not|make sure|avoid|keep|use|stop|no|every|all|"
                r"any|each)\b|\b(?:should(?:n'?t)?|must(?:n'?t)?|has to|have to|needs?|requires?|can'?t|"
                r"cannot|only)\b")
# what is said of the assistant's answer ("i see you used torch.manual_seed"), or a result
# ("that's why ..."), is no reason for a rule
_SEEN_YOU = _rx(r"\b(?:i see|i saw|looks like) you\b|\byou (?:just )?(?:used|put|added|wrote|passed|did|"
                r"made)\b|\byour\b|^(?:that'?s|that is|this is|which is) why\b")
# "don't forget the restart or it keeps running old code": what happens otherwise, a clause with
# a subject and a verb (not "no unwrap or expect outside tests", "a PK or a unique index")
_OR_ELSE = _rx(r",?\s+or (?P<why>(?:it|they|you|we|everything|nothing)\s+[^,;]{3,}|"
               r"(?:(?:the|an?|your|our|this|that|these|those)\s+)?(?:[\w.'-]+\s+){0,3}?(?:will|'ll|would|won'?t|"
               r"can'?t|doesn'?t|don'?t|just|silently|never|is|are|gets|[a-z]+(?<!s)s|[a-z]+ed)\b[^,;]*)$")
# "only X or Y", "no X or Y": the "or" of two things the rule names
_ALTERNATIVES = _rx(r"\b(?:no|only|either|whether|both|between|not)\s+(?:\S+\s+){0,3}\S+$")
# "..., so the heap follows the container limit": what the rule is for
_SO_THAT = _rx(r",?\s+so (?P<why>(?:we|they|it|the|that|you|nothing|no|our|users?|people)\b[^,;]{8,})$")
# "..., finance will yell otherwise"
_OTHERWISE_AFTER = _rx(r"(?:[,;]|\s[-—–])\s*(?P<why>[^,;]{8,}?)\s*,?\s+otherwise[.!]?$")
# a directive anywhere in a rule ("In the Unity project, don't touch ..."): _DIRECTED reads one
# at its start
_RULE_WORD = _rx(r"\b(?:always|never|don'?t|do not|make sure|avoid)\b")
# "store review takes 2-3 days, so we release on monday": the reason first, then "so" and the rule
_SO_RULE = _rx(r"^(?P<why>[^,;]{12,}?),?\s+so\s+(?:please\s+|pls\s+)?(?=(?:don'?t|do not|never|always|use|"
               r"avoid|keep|make sure|we|any|all|every|only|no|nothing|run|put|prefer|stick|wait|check)\b)")
_CLAUSE_AFTER = _rx(r"^(?:[,;]|\s[-—–])\s*(?P<why>(?:(?:the|we|our|their|it|they|that|this|there|those|these|"
                    r"every|some|[a-z][\w.-]*)\s+(?:[\w.'-]+\s+){0,4}?(?:is|are|was|were|has|have|had|gets?|"
                    r"got|only|can|'d rather|'m|am|can'?t|won'?t|doesn'?t|don'?t|isn'?t|aren'?t|"
                    r"(?:[a-z]+-)?[a-z]+(?<!s)s|[a-z]+ed|lost|broke|took|went|ran|hit|bit|cost|spent|"
                    r"found|fell|made)\b|(?:that|it|this|they|there)(?:'s|'re|’s|’re| is| are)\s)"
                    r"[^,;]*)$")


def _unsaid_reason(body: str, rule: bool = False) -> str | None:
    """The reason in a clause after the rule ("..., the checkout tests share a cart fixture"),
    or before it with "so" ("store review takes 2-3 days, so we release on monday"), or what
    happens otherwise ("... or the umlauts explode", "..., finance will yell otherwise") or what the
    rule is for ("put them in tests/Kconfig so they never end up in a product build"). ``rule``:
    the statement is a rule, so a clause after a directive anywhere in it ("In the Unity project,
    don't touch ..., they get overwritten ...") may be its reason too."""
    first = _SO_RULE.match(body)
    if first and not _DIRECTED.opens(first.group("why")) and len(first.group("why").split()) >= 3:
        return f"Because {_lower_first(_LABEL_LEAD.sub('', first.group('why')).strip())}."
    after = _clause_after(body, rule)
    if after is not None:
        return after
    for pattern, lead in ((_OR_ELSE, "Otherwise"), (_OTHERWISE_AFTER, "Otherwise"), (_SO_THAT, "So")):
        m = pattern.search(body)
        if m is None:
            continue
        head, why = body[: m.start()], m.group("why").strip().rstrip(".!")
        if pattern is _OR_ELSE and _ALTERNATIVES.finds(head):
            continue
        directive = rule or _RULE_WORD.finds(head) or _DIRECTED.opens(head) or _TASK_VERB.opens(head) or \
            (pattern is not _SO_THAT and _DIRECTED.finds(head))
        if directive and len(why.split()) >= 3 and not (_SEEN_YOU.finds(why) or _DIRECTED.finds(why) or
                                                        _MODAL.finds(why) or _TASK_VERB.opens(why)):
            return f"{lead} {_lower_first(why)}."
    return None


def _clause_after(body: str, rule: bool) -> str | None:
    """The reason in a clause after a directive ("..., the checkout tests share a cart fixture"),
    or None: no such clause, or the clause after it is a second rule, a contrast or a condition."""
    for cut in re.finditer(r"[,;]|\s(?:-\s|[—–])", body):  # a dash, not an option's ("-D")
        head, m = body[: cut.start()], _CLAUSE_AFTER.match(body[cut.start():])
        if m is None or not (_DIRECTED.finds(head) or (rule and _RULE_WORD.finds(head))) or \
                len(head.split()) < 3:
            continue
        why = m.group("why").strip().rstrip(".!")
        if len(why.split()) < 4 or _DIRECTED.opens(why) or _MODAL.finds(why) or _TASK_VERB.opens(why) or \
                _ABOUT_ANSWER.opens(why) or _SEEN_YOU.finds(why) or \
                re.match(r"(?i)^(?:not|no|but|and|so|then|or|unless|if|when|which|where|use|pull|put|keep|"
                         r"leave|pass|call|ask|prefer|stick|go|let|mark|wrap|bump|tag|see|note|nothing|nobody|"
                         r"no one|none|everything|everyone|anything|even|um+|uh+|er+|also|like|except|"
                         r"separately|including)\b|.*\binstead\b", why):
            return None
        return f"Because {_lower_first(why)}."
    return None


def _reason(body: str, rule: bool = False) -> tuple[str, str | None]:
    """The statement and the user's own reason for it, when they gave one. ``rule``: the
    statement is a rule (not a fact), so a statement of how things are after it is its reason."""
    m = _WHY.search(body)
    if not m or len(m.group("why").split()) < 2:
        return body, _unsaid_reason(body, rule)
    word = m.group("word").lower()
    if word == "that way" and re.search(r"(?i)\b(?:it|them|things|everything|this|these)\s*$",
                                         body[: m.start()]):
        return body, None  # "keep it that way, ...": part of the rule
    why = m.group("why").strip().rstrip(".!")
    lead = {"cause": "because", "cuz": "because", "coz": "because", "as otherwise": "otherwise",
            "the reason is": "because"}.get(word, word)
    return body, f"{lead[:1].upper()}{lead[1:]} {why}."


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".!;:, ")
    return text[:1].upper() + text[1:] + "."


def _summary(statement: str, why: str | None, limit: int) -> str:
    """A complete short sentence: the statement, or its main clause when it is too long."""
    whole = _sentence(statement)
    if len(whole) <= limit:
        return whole
    main = _sentence(_WHY.sub("", statement)) if why else whole
    if len(main) <= limit:
        return main
    best = None
    for cut in re.finditer(r"[,;:]\s|\s[-—–]\s|\s(?:and|but|so|which|where|while)\s", main):
        head = main[: cut.start()]
        if len(head.split()) >= 5 and len(head) + 1 <= limit:
            best = head
    return _sentence(best if best is not None else main[: limit - 1].rsplit(" ", 1)[0])


_HOW = {
    "preference": "Follow it whenever a task touches this; ask the user before doing otherwise.",
    "fact": "Take it as background for this project; confirm it against the code before relying on it.",
    "workflow": "Follow these steps when the situation comes up, in this order.",
    "pitfall": "Check for this before finishing a change in this area; it has bitten before.",
}
_WHY_DEFAULT = {
    "preference": "The user stated it as a standing rule for this project, not a one-off request.",
    "fact": "The user stated it as a fact about this project.",
    "workflow": "The user gave these steps as the way it is done in this project.",
    "pitfall": "The user warned about it; the mistake is likely to recur.",
}


DEFAULT_WHYS = frozenset(_WHY_DEFAULT.values())  # the Why of a record whose user gave no reason


def _record(j: Judged, summary_chars: int) -> NewRecord:
    j = j._replace(statement=_LABEL_LEAD.sub("", j.statement).strip() or j.statement)
    conclusion = _sentence(j.statement)
    return NewRecord(
        type=j.kind, source="user", status="stated",
        summary=_summary(j.statement, j.why, summary_chars), conclusion=conclusion,
        why=j.why or _WHY_DEFAULT[j.kind], how_to_apply=_HOW[j.kind],
    )


def _clauses(text: str) -> Iterator[str]:
    """A sentence that is a request as a whole can carry a standing statement after a comma,
    a dash or a semicolon ("fix the test, the CI box has no GPU so cuda tests are skipped")."""
    parts = re.split(r"\s*(?:;|\s[-—–]\s|,\s+(?=(?:the|our|we|all|every|any|in|on|for|when|note|btw|fyi|"
                     r"remember|also|and|but|since|because|don'?t|do not|never|always|please|"
                     r"no)\b))\s*", text,
                     flags=re.I)
    for part in parts[1:]:
        if not _WHY_SENTENCE.opens(part):  # "..., since you'll be in this repo a lot": a reason only
            yield part


KEEP_LIST = 0.5  # a list (steps, or rules under an intro) is kept when the model gives it this


def listed(sentence: sentences.Sentence) -> tuple[str, bool]:
    """The statement a list makes, its intro and its items ("To release: 1. bump ...; 2. ..."),
    and whether it is a list of rules (bullets) rather than steps."""
    statement, ruled, _, _ = _list(sentence)
    return statement, ruled


def _list(sentence: sentences.Sentence) -> tuple[str, bool, list[str], str]:
    """``listed``, with the list's items and intro as the record keeps them (without places)."""
    steps = [sentences.without_places(s).rstrip(".") for s in sentence.steps]
    intro = sentences.without_places(sentence.text).rstrip(":. ")
    ruled = sentence.bullets and not all(_TASK_VERB.opens(s) for s in steps)
    items = "; ".join(steps) if ruled else "; ".join(f"{n}. {s}" for n, s in enumerate(steps, 1))
    return (intro + ": " if intro else "") + items, ruled, steps, intro


def list_features(statement: str, context: Iterable[str]) -> set[str]:
    """What the model weighs of a list: the words of its statement, that it is a list, and the
    turn around it ("AC: ...; ...", "Done when: ...": the task's own checklist, not a workflow)."""
    return weigh.features(statement, ["list", *signals(statement, None), *context])


def candidates(sentence: sentences.Sentence, summary_chars: int,
               judged: Judged | None, context: tuple[str, ...] = (), hushed: bool = False,
               marked: bool = False) -> Iterator[NewRecord]:
    """The records of one sentence: its steps, what ``decide`` made of it, or else the
    standing statements in its clauses."""
    if sentence.steps:
        statement, ruled, steps, intro = _list(sentence)
        task = _TASK_VERB.opens(intro) or _ASK.opens(intro) or intro.endswith("?") or _META.opens(intro) or \
            _TASK_LABEL.opens(sentence.text.strip())
        # kept when the model says so, or the user marked it as lasting, in its label or in an
        # item ("PR description: - always link the ticket - say how you tested it")
        if sum(_content(s) >= 1 for s in steps) >= 2 and not _TASK_ONLY.finds(statement) and not task and \
                (intro or not all(_TASK_VERB.opens(s) and _DEICTIC.finds(s) for s in steps)) and \
                (marked or _cued(sentence.text) or any(_cued(step) for step in steps) or
                 weigh.probability(weigh.weights(), list_features(statement, context)) >= KEEP_LIST):
            yield _record(Judged("preference" if ruled else "workflow", statement, None), summary_chars)
        return
    if judged is not None:
        yield _record(judged, summary_chars)
        return
    for clause in _clauses(sentence.text):
        part = decide(clause, context, hushed, marked)
        if part is not None:
            yield _record(part, summary_chars)


_POINTS_BACK = _rx(r"\b(?:it|them|that|this|those|these|otherwise|then|there|ones)[.!]*$|^(?:it|they|that|"
                   r"this|"
                   r"those|these)\b|\b(?:that'?s why|which is why|that is why)\b")
_OWN_RULE = _rx(r"^(?:always|never|don'?t|do not|please|make sure|use|avoid|keep|stop)\b")


_CONTINUES = _rx(r"^(?:it|they)(?:'s| is| are|'re| has| have| uses?| runs?| lives?| needs?| only| also)\b")


def _explains(sentence: str, judged: Judged | None) -> bool:
    """A sentence after a kept one that gives its reason rather than a rule of its own."""
    text = sentence.strip()
    if re.match(r"(?i)^(?:everything|nothing|nobody|no one|everyone|all|every|any|only)\b", text):
        return False  # a rule of its own
    if _WHY_SENTENCE.opens(text) or _POINTS_BACK.finds(text.rstrip(".! ")):
        return True
    if judged is None or judged.kind not in ("fact", "pitfall"):
        return False
    return not (_STANDING.finds(text) or _MODAL.finds(_main_clause(text)) or _OWN_RULE.opens(text))


def _asks(sentence: str) -> bool:
    """A request, or a remark on the answer: never the Why of a rule ("..., move it")."""
    text = _strip_lead(sentence.strip())[0]
    return bool(_TASK_VERB.opens(text) or _ASK.opens(text) or _ABOUT_ANSWER.opens(text) or
                re.search(r"(?i)(?:,|\band)\s+(?:just\s+)?(?:move|fix|change|remove|give me|do|put|use|"
                          r"revert)\b[^,]{0,30}$|\b(?:i saw you|you put|you used|you added)\b", text))


def _continues(sentence: str) -> bool:
    """"It has its own tenant, with ...": more of what the sentence before said."""
    text = sentence.strip()
    return _CONTINUES.opens(text) and _content(text) >= 3 and not text.endswith("?") and \
        not sentences.broken(text) and not _HEDGE.finds(text) and not _STATUS.finds(text)


def _gives_reason(sentence: str) -> bool:
    """Whether a sentence after a rule may be its Why: one that says "because ...", or a
    statement of how things are of its own ("the release tooling parses them"), not an
    acknowledgement ("got it"), a sentence that goes on with "and ...", "but ...", "so ..." (more
    of the talk, or a second rule: "and dont enable the watchdog in the bootloader"), a rule or a
    question."""
    text = sentence.strip()
    if _WHY_SENTENCE.opens(text):
        return True
    if _LEAD.opens(text) or _ACK.opens(text) or text.endswith("?"):
        return False
    body = _strip_lead(_spelled(text))[0]
    return not (_OWN_RULE.opens(body) or _NEG_IMPERATIVE.opens(body) or _DIRECTED.opens(body) or
                _TASK_VERB.opens(body)) and _content(body) >= 3


def _why_from(sentence: str) -> str:
    """The Why a sentence after a rule gives it, without the URLs, paths, hosts and secrets in
    it (what a record must never hold)."""
    text = sentences.without_places(sentence.strip()).rstrip(".! ")
    because = _WHY_SENTENCE.match(text)
    if because:
        return f"{_reason_word(text)} {because.group('why').strip().rstrip('.!')}."
    if re.search(r"(?i)\s*,?\s*otherwise$", text):
        return "Otherwise " + _lower_first(re.sub(r"(?i)\s*,?\s*otherwise$", "", text)) + "."
    return "Because " + _lower_first(text) + "."


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() or text[1:2] == " " else text


def extract(user_texts: Iterable[str], session_id: str, summary_chars: int = 160,
            known: str = "") -> Reply:
    """A Reply from what the user said. `known` is text already in AGENTS.md or docs:
    what it says is not written again, nor is a statement said twice in other words. A
    sentence that explains the one kept before it in the same turn is its Why, and a record
    of its own too when it is kept on its own (not when it opens with "because ..."). Said again
    with more words, a statement takes the place of its first record."""
    seen = [similar.words(s.text) for s in sentences.split(known)] if known else []
    out: list[NewRecord] = []
    written: list[frozenset[str]] = []  # the words of each record of ``out``
    texts = list(user_texts)
    for n, text in enumerate(texts):
        last: int | None = None  # the record kept last from this turn
        turn = list(sentences.split(text))
        opens = n == 0 and len(texts) > 1  # the briefing of a session of several turns
        hushed = quiet(turn, opens)
        cues = [back_cue(s.text) and not s.steps for s in turn]
        for i, (sentence, around) in enumerate(zip(turn, context(turn, opens), strict=True)):
            if cues[i] and (_BACK_CUE_ONLY.finds(sentence.text.strip()) or _BACK_SCOPE.opens(sentence.text)):
                continue  # "Please remember this for all future changes.": said of the sentence before
            marked = i + 1 < len(turn) and cues[i + 1]
            judged = decide(sentence.text, around, hushed, marked) if not sentence.steps else None
            if last is not None and judged is None and _continues(sentence.text):
                more = _sentence(sentences.without_places(sentence.text.strip()))
                conclusion = out[last].conclusion + " " + more[:1].upper() + more[1:]
                out[last] = out[last].model_copy(update={"conclusion": conclusion})
                continue
            if last is not None and not sentence.steps and _explains(sentence.text, judged):
                if out[last].why == _WHY_DEFAULT[out[last].type] and not _asks(sentence.text) and \
                        not sentences.broken(sentence.text) and not _MACHINE.finds(sentence.text) and \
                        _gives_reason(sentence.text):
                    out[last] = out[last].model_copy(update={"why": _why_from(sentence.text)})
                if judged is None or _WHY_SENTENCE.opens(sentence.text.strip()):
                    continue  # the reason only; one kept on its own ("we deploy w/ colmena, not
                    # nixos-rebuild" after a fact) is a statement too, and a record of its own
            # the cue is the sentence's: the rules take a leading "again:" off the statement
            said_again = similar.restated(sentence.text)
            for rec in candidates(sentence, summary_chars, judged, around, hushed, marked):
                mine = similar.words(rec.conclusion)
                if any(similar.same(mine, other) for other in seen) or \
                        (said_again and similar.restates(rec.conclusion, seen)):
                    continue  # AGENTS.md or the docs say it already
                again = next((i for i, other in enumerate(written) if similar.same(mine, other)), None)
                if again is None and said_again and similar.restates(rec.conclusion, written):
                    continue  # said again with less, or with the talk around it: the first record stands
                if again is None:
                    out.append(rec)
                    written.append(mine)
                    last = len(out) - 1
                elif len(mine) > len(written[again]):  # said again, with more: the fuller one stays
                    first = out[again]
                    given = first.why != _WHY_DEFAULT[first.type] and rec.why == _WHY_DEFAULT[rec.type]
                    out[again] = rec.model_copy(update={"why": first.why}) if given else rec
                    written[again] = mine
                    last = again
    return Reply(records=out)


def _reason_word(text: str) -> str:
    word = text.strip().split()[0].lower().strip(",:")
    return {"cause": "Because", "cuz": "Because", "this": "Because", "it's": "Because", "its": "Because",
            "reason": "Because", "the": "Because"}.get(word, word[:1].upper() + word[1:])


# The patterns the model weighs (extract/weigh.py); a change here wants new weights
# (bench/train_rules.py), and test_weights_are_current says so.
_SIGNALS = {
    "lead": _LEAD, "aside": _ASIDE_LEAD, "opinion": _OPINION, "cue": _CUE_LEAD, "ask": _ASK,
    "standing": _STANDING, "modal": _MODAL, "preference": _PREFERENCE, "no-do": _NEG_IMPERATIVE,
    "scoped": _SCOPED, "instead": _INSTEAD, "choose": _CHOOSE, "pitfall": _PITFALL, "condition": _CONDITION,
    "strong-condition": _STRONG_CONDITION, "instruction": _INSTRUCTION, "warning": _WARNING,
    "correction": _CORRECTION, "workflow": _WORKFLOW, "first-then": _FIRST_THEN, "convention": _CONVENTION,
    "fact-verb": _FACT_VERB, "we-fact": _WE_FACT, "task-verb": _TASK_VERB, "deictic": _DEICTIC,
    "question-start": _QUESTION_START, "about-answer": _ABOUT_ANSWER, "task-only": _TASK_ONLY,
    "status": _STATUS, "ack": _ACK, "hedge": _HEDGE, "meta": _META, "judged": _JUDGED, "dismiss": _DISMISS,
    "fragment": _FRAGMENT, "past": _PAST, "machine": _MACHINE, "vague": _VAGUE, "why": _WHY,
    "why-sentence": _WHY_SENTENCE, "symptom": _SYMPTOM, "bug-report": _BUG_REPORT, "copula": _COPULA,
    "hearsay": _HEARSAY, "again": _AGAIN, "recurring": _RECURRING, "contrast": _CONTRAST,
    "ask-standing": _ASK_STANDING, "list-label": _LIST_LABEL, "generic-scope": _GENERIC_SCOPE,
    "lasting": _LASTING, "det-verb": _DET_VERB, "points-back": _POINTS_BACK,
}
_SHAPES = {
    "declarative": _declarative, "deictic-subject": _deictic_subject, "object-deictic": _object_deictic,
    "one-component": _one_component, "contrasts": _contrast, "convention-list": _convention_list,
}
