"""Render assistant text (model prose or template replies) as sanitised HTML, with known names as links.

Markdown is parsed by markdown-it (raw HTML off) and the output cleaned by nh3, a kept allow-list
sanitiser, so neither a hostile model nor a hostile task title can add a script, an event handler
or a javascript: link. Links to tasks and projects are added before parsing, only for names the
server handed in (keys and names read from the database), never for anything the text merely claims:
a link the text writes itself (a model's, or one hidden in a task title) is shown as its words.
User text a template reply quotes goes through ``quoted``, so Markdown reads it literally.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Mapping

import nh3
from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark", {"html": False}).disable("image")
_TAGS = {"p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "blockquote", "a", "h3", "h4", "hr"}
# Headings a reply might write with # or ##: shown one size down, inside the sidebar's bubble.
_HEADINGS = re.compile(r"<(/?)h[12]>")
# The characters that make Markdown structure inside a line (emphasis, code, links, autolinks): escaped,
# a linked name keeps its characters and cannot close the link early, a quoted title stays words.
_SPECIALS = re.compile(r"([\\\[\]*_`<>&])")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029]+")
# An anchor whose href the filter below removed: shown as its words.
_BARE_ANCHOR = re.compile(r'<a(?:\s+(?!href=)[a-z-]+="[^"]*")*>(.*?)</a>', re.S)


def literal(text: object) -> str:
    """Text Markdown shows as written, on one line: its structure characters escaped, line breaks as spaces."""
    return _SPECIALS.sub(r"\\\1", _LINE_BREAKS.sub(" ", str(text)))


def quoted(text: object) -> str:
    """User text (a title, a project name) in a template reply: in curly quotes, read literally."""
    return f"“{literal(text)}”"


def _link(text: str, href: str) -> str:
    return f"[{literal(text)}]({href})"


def _with_links(text: str, links: Mapping[str, str]) -> str:
    """Turn every whole-word mention of a known name into a Markdown link, longest names first."""
    if not links:
        return text
    names = sorted(links, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(name) for name in names) + r")(?![\w-])")
    return pattern.sub(lambda found: _link(found.group(1), links[found.group(1)]), text)


def markdown_html(text: str, *, links: Mapping[str, str] | None = None) -> str:
    """Return the text as sanitised HTML; names in ``links`` become links to their pages.

    Kept for the latest texts (a page's transcript renders the same replies on every page it shows).
    """
    return _markdown_html(text, tuple(sorted((links or {}).items())))


@functools.lru_cache(maxsize=1024)
def _markdown_html(text: str, link_items: tuple[tuple[str, str], ...]) -> str:
    links = dict(link_items)
    html = _HEADINGS.sub(r"<\1h4>", _PARSER.render(_with_links(text, links)))
    ours = set(links.values())

    def only_our_links(element: str, attribute: str, value: str) -> str | None:
        return value if element != "a" or attribute != "href" or value in ours else None

    clean = nh3.clean(html, tags=_TAGS, attributes={"a": {"href"}}, url_schemes={"http", "https"},
                      link_rel="noopener noreferrer nofollow", attribute_filter=only_our_links)
    return _BARE_ANCHOR.sub(r"\1", clean)
