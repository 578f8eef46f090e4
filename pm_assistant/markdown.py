"""Render assistant text (model prose or template replies) as sanitised HTML, with known names as links.

Markdown is parsed by markdown-it (raw HTML off) and the output cleaned by nh3, a kept allow-list
sanitiser, so neither a hostile model nor a hostile task title can add a script, an event handler
or a javascript: link. Links to tasks and projects are added before parsing, only for names the
server handed in (keys and names read from the database), never for anything the text merely claims.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

import nh3
from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark", {"html": False}).disable("image")
_TAGS = {"p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "blockquote", "a", "h3", "h4", "hr"}
# Headings a reply might write with # or ##: shown one size down, inside the sidebar's bubble.
_HEADINGS = re.compile(r"<(/?)h[12]>")
# Markdown's link text specials: a linked name keeps its characters and cannot close the link early.
_LINK_TEXT_SPECIALS = re.compile(r"([\\\[\]*_`<>])")


def _link(text: str, href: str) -> str:
    escaped = _LINK_TEXT_SPECIALS.sub(r"\\\1", text)
    return f"[{escaped}]({href})"


def _with_links(text: str, links: Mapping[str, str]) -> str:
    """Turn every whole-word mention of a known name into a Markdown link, longest names first."""
    if not links:
        return text
    names = sorted(links, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(name) for name in names) + r")(?![\w-])")
    return pattern.sub(lambda found: _link(found.group(1), links[found.group(1)]), text)


def markdown_html(text: str, *, links: Mapping[str, str] | None = None) -> str:
    """Return the text as sanitised HTML; names in ``links`` become links to their pages."""
    html = _HEADINGS.sub(r"<\1h4>", _PARSER.render(_with_links(text, links or {})))
    return nh3.clean(html, tags=_TAGS, attributes={"a": {"href", "title"}}, url_schemes={"http", "https"},
                     link_rel="noopener noreferrer nofollow")
