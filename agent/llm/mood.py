"""The mood of a message: does it ask for what it names, or negate, question, suppose, quote, plan or take it back?

"don't mark task 52 as done" names the same change as "mark task 52 as done" and asks for the
opposite. The offline rules read *what* a message names; this module reads *whether it is asked*,
by fixed cues in English and Chinese, so that both the offline provider and the intent check
(agent/routing/intent_check.py) treat a negation, a refusal, a question, a hypothetical, someone else's
words, a plan ("I'll mark it done tomorrow", "Bob will …") or a retraction as "no write asked".
Polite requests ("could you mark task 5 done?", "能帮我把任务5标记为完成吗？") are requests.
When in doubt the reading is *not* a request: a wrong "no" costs the user a rephrasing, a wrong
"yes" changes their data.
"""
from __future__ import annotations

import re
from typing import Literal

from pm_assistant.one_line import one_line

Mood = Literal["request", "negated", "question", "hypothetical", "reported", "stated", "retracted", "sarcastic"]

# The verbs of the writes a message can name, plain and -ing.
_VERBS = ("mark|set|change|delete|create|add|touch|update|break|remove|move|close|complete|finish|make|put|bump|"
          "raise|lower|reschedule|push|split|do|handle|take care of")
_VERBS_ING = ("marking|setting|changing|deleting|creating|adding|touching|updating|breaking|removing|moving|closing|"
              "completing|finishing|making|putting|bumping|raising|lowering|rescheduling|pushing|splitting")
# Latin cues match as whole words (the helper below adds the boundaries); Chinese cues match anywhere.
_RETRACTED_EN = (r"just kidding", r"kidding", r"jk", r"j/k", r"never ?mind", r"scratch that", r"forget (?:it|that)",
                 r"ignore (?:that|this|my last|what i (?:just )?said)", r"leave it", r"let it be",
                 r"don'?t do (?:it|that|this)", r"do not do (?:it|that|this)", r"no,? wait", r"wait,? no",
                 r"actually,? (?:no|don'?t|do not|leave)", r"cancel that", r"on second thought",
                 r"disregard (?:that|this|it|my (?:last|previous))",
                 r"belay that", r"not really", r"i take (?:it|that) back", r"i changed my mind")
_RETRACTED_ZH = ("开玩笑", "逗你", "算了", "当我没说", "不用了", "别了", "还是不要", "还是别", "取消吧",
                 "不要了", "撤回", "我改主意了", "我反悔了", "说着玩")
_SARCASTIC_EN = (r"/s", r"yeah,? right", r"as if", r"not!", r"sure,? because", r"because that always works",
                 r"what could (?:possibly )?go wrong")
_SARCASTIC_ZH = ("才怪", "呵呵，", "想得美")
# Affirmative idioms that carry a negation word: removed before the negation cues are read.
_AFFIRMATIVE_EN = (r"don'?t forget to", r"do not forget to", r"never forget to", r"don'?t hesitate to",
                   r"do not hesitate to", r"make sure not to forget to")
_AFFIRMATIVE_ZH = ("别忘了", "别忘记", "不要忘了", "不要忘记", "千万别忘")
_NEGATED_EN = (r"don'?t", r"do not", r"does not", r"doesn'?t", r"never", r"no need to", r"not to", r"not going to",
               r"shouldn'?t", r"should not", r"must not", r"mustn'?t", r"won'?t", r"will not", r"shall not",
               r"please not", r"not yet", r"stop", r"refrain from", r"let'?s not", r"hold off", r"no one should",
               r"nobody should", r"i don'?t want", r"i do not want", r"can'?t", r"cannot", r"need not", r"needn'?t",
               rf"(?:without|avoid) (?:{_VERBS_ING})",
               # "not mark task 5 done", "… done—NOT", "please, no: …", "… or not"
               rf"not (?:{_VERBS})", r"not[.!]*$", r"^no[,:;.!]", r"please,? no", r"or not",
               # Refusals and verdicts against it: "I refuse to …", "… is a bad idea", "no way I'd …"
               r"refuses?(?: to)?", r"the last thing (?:i|we) (?:want|need)", r"rather not", r"no way",
               r"(?:a )?(?:bad|terrible|horrible|awful|dumb|stupid) idea", r"(?:be|is) a mistake")
# 别 as "don't", not inside 区别, 特别, 别人, 别的 and the like.
# Each cue also occurs inside an A-not-A question (要不要, 能不能, 可不可以 …), which is no negation.
_NEGATED_ZH = (r"(?<!要)不要", r"(?<![区类级特分个识告辨差性鉴派离道])别(?![人的处名致])", r"(?<!用)不用", "无需",
               "无须", r"(?<!必)不必", "不想", r"(?<!需)不需要", "勿", r"(?<!能)不能", r"(?<!该)不该",
               r"(?<!应)不应该", "不准", "禁止", "没必要", "先不", "暂时不", "暂不", "不许", r"(?<!可)不可以", "甭",
               "没让你", "不是让你", "拒绝", "绝不", "决不", "才不", "不打算", "没打算", "坏主意", "馊主意",
               "不是好主意", "最不想")
_REPORTED_EN = (r"(?:he|she|they|someone|somebody|my (?:boss|manager|lead|colleague|client|team)|the (?:client|boss|"
                r"manager|customer|email|ticket|message)|[a-z]+) (?:said|says|told me|wrote|writes|suggested|"
                r"suggests|mentioned|wants|reads|asked me|is asking|was asking)(?![a-z])", r"according to",
                r"quote", r"quoting", r"the email says", r"someone wrote")
_REPORTED_ZH = ("他说", "她说", "他们说", "有人说", "老板说", "经理说", "客户说", "同事说", "领导说", "邮件里说",
                "邮件说", "据说", "听说")
# Someone's plan, the user's own included: "I'll mark task 5 done myself", "Bob will delete it tomorrow".
_STATED_EN = (rf"[a-z]+ (?:will|shall|would|am going to|is going to|are going to|plans? to|intends? to|gonna)"
              rf"(?! you)(?: [a-z]+)? (?:{_VERBS})",  # "ok will you mark …" is a request
              rf"[a-z]+'(?:ll|m going to|re going to|s going to)(?: [a-z]+)? (?:{_VERBS})")
# The plan and the change in one clause: "我明天再把任务5标记为完成", not "把任务5标记为完成，我会通知团队".
_STATED_ZH = (r"(?:我|我们|他|她|他们)(?:会|待会|等会|回头|明天|打算|准备|计划|自己来)[^，。,.;；!！]*?"
              r"(?:把|标记|删除|删掉|设为|改为|拆)", "我自己来")
_HYPOTHETICAL_EN = (r"what if", r"what would happen", r"what happens (?:if|when)", r"what would", r"suppose",
                    r"supposing", r"hypothetically", r"imagine", r"in theory", r"if", r"in case", r"assuming",
                    r"would it (?:be|hurt|matter|break)", r"were i to", r"had i")
# Hypotheticals a polite form does not turn into a request ("would you set it to P0 if you were me?").
_SUPPOSING_EN = (r"if (?:you|i|we) (?:were|was)", r"if i were you", r"were i to", r"had i", r"hypothetically",
                 r"in theory", r"what if")
_HYPOTHETICAL_ZH = ("如果", "假如", "假设", "要是", "万一", "会怎样", "会怎么样", "会发生什么", "会有什么影响",
                    "的话", "倘若", "假若")
_QUESTION_OPENERS_EN = (r"should", r"shall", r"would", r"will", r"is", r"are", r"was", r"were", r"does",
                        r"do (?:you|i|we|they)", r"did", r"can i", r"could i", r"may i", r"might", r"why", r"how",
                        r"when", r"where", r"who", r"whether", r"what", r"is it", r"i wonder", r"wondering",
                        r"do you think", r"ought", r"am i", r"have you", r"has")
_QUESTION_ZH = ("吗", "呢", "是否", "要不要", "该不该", "应不应该", "需不需要", "用不用", "怎么", "如何", "为什么",
                "为何", "能不能", "可不可以", "可以吗", "好吗", "行吗", "是不是", "对吗", "有没有必要")
# A request put as a question: "could you …", "can you please …", "would you mind …", "能帮我…吗".
_POLITE_EN = re.compile(r"^(?:hey,?\s+|hi,?\s+|ok,?\s+|okay,?\s+)?(?:please\s+)?(?:(?:could|can|would|will)\s+you"
                        r"(?:\s+please|\s+kindly|\s+just)?\s*(?!think|tell me (?:if|whether)|imagine|explain|"
                        r"say|check whether|check if)[^\s?？]|would you mind\s|can we\s|could we\s|would it be possible"
                        r" (?:for you )?to\s|if you (?:could|can|would|don't mind)\s|do you mind\s|please\s)"
                        r"|,?\s*please[?？.!]*$")
_POLITE_ZH = re.compile(r"(?:帮我|帮忙|麻烦|请你|请您|你能|您能|你可以|您可以|你帮|能否|能不能帮|可不可以帮|可否|"
                        r"^(?:请)?(?:能不能|可不可以|可以|能)把)")
_POLITE_ZH_NOT = re.compile(r"(?:我可以|我能|我应该|我该|我要不要|要不要|该不该|应不应该|是否|会怎样|会怎么样)")
# Where a quoted or pasted part starts: cues inside it are someone else's words, not the user's mood.
_QUOTES = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"|‘[^’]*’")


def _any(text: str, patterns: tuple[str, ...]) -> bool:
    """Tell whether a cue occurs: Latin cues as whole words, others (Chinese has no spaces) anywhere."""
    bounded = (rf"(?<![a-z0-9_']){p}(?![a-z0-9_'])" if re.search(r"[a-z]", p) else p for p in patterns)
    return any(re.search(pattern, text) for pattern in bounded)


def normalise(message: str) -> str:
    """The message as the cues read it: lower case, plain apostrophes, no invisible controls, no quoted parts."""
    # Zero-width and bidi controls would otherwise split a cue ("do\u200bn't") and hide it from the rules.
    text = one_line(message).lower().replace("’", "'").replace("‘", "'")
    text = _QUOTES.sub(" ", text)
    return re.sub(r"\s+", " ", text).strip()


def _question(text: str) -> bool:
    if "?" in text or "？" in text:
        return True
    return bool(re.match(rf"^(?:{'|'.join(_QUESTION_OPENERS_EN)})(?![a-z0-9_'])", text)) or _any(text, _QUESTION_ZH)


def _polite(text: str) -> bool:
    if _POLITE_EN.search(text):
        return True
    return bool(_POLITE_ZH.search(text)) and not _POLITE_ZH_NOT.search(text)


def mood_of(message: str) -> Mood:
    """Read whether the message asks for what it names; anything but "request" means no write was asked."""
    text = normalise(message)
    if _any(text, _RETRACTED_EN) or _any(text, _RETRACTED_ZH):
        return "retracted"
    if _any(text, _SARCASTIC_EN) or _any(text, _SARCASTIC_ZH):
        return "sarcastic"
    plain = text
    for idiom in _AFFIRMATIVE_EN:
        plain = re.sub(rf"(?<![a-z0-9_']){idiom}(?![a-z0-9_'])", " ", plain)
    for idiom in _AFFIRMATIVE_ZH:
        plain = plain.replace(idiom, " ")
    if _any(plain, _NEGATED_EN) or _any(plain, _NEGATED_ZH):
        return "negated"
    if _any(text, _REPORTED_EN) or _any(text, _REPORTED_ZH):
        return "reported"
    if _any(text, _STATED_EN) or _any(text, _STATED_ZH):
        return "stated"
    if _any(text, _SUPPOSING_EN):
        return "hypothetical"
    polite = _polite(text)
    if not polite and (_any(text, _HYPOTHETICAL_EN) or _any(text, _HYPOTHETICAL_ZH)):
        return "hypothetical"
    if not polite and _question(text):
        return "question"
    return "request"
