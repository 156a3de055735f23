"""The frame every page shares (``base.html``): the site's name, the menu, the stylesheet, the
language switcher's buttons and the footer.

Most of that frame is the same for every reader of a language, yet drawing it (reversing URLs,
looking up hashed static names, translating, looping over the languages) was more than half of
the time ``base.html`` took on every request. The ``once_per_language`` block draws such a
stretch the first time a process needs it in a language and keeps the HTML.

A stretch sees the language (``LANGUAGE_CODE``, ``LANGUAGES``) and nothing else: no request,
user or CSRF token, so nothing personal can be kept and shown to someone else (such a variable
is simply empty there), and no block, which would keep the first page's content for every page.
The HTML lives as long as the parsed template: a changed template is drawn again (the
development server reloads templates), new translations, URLs or static files with the next
process, which is when they take effect in production anyway; a test that changes a setting
gets the frame drawn again.
"""

from __future__ import annotations

import weakref
from typing import Any

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.base import NodeList, Parser, Token
from django.template.context import Context
from django.template.loader_tags import BlockNode
from django.urls import get_script_prefix, get_urlconf
from django.utils.safestring import SafeString
from django.utils.translation import get_language

register = template.Library()

_stretches: weakref.WeakSet[OncePerLanguageNode] = weakref.WeakSet()


@receiver(setting_changed)
def _draw_again(**kwargs: Any) -> None:
    for stretch in list(_stretches):
        stretch.drawn.clear()


class OncePerLanguageNode(template.Node):
    # ``{% extends %}`` looks for blocks in every nodelist on each render; there are none here.
    child_nodelists = ()

    def __init__(self, nodelist: NodeList) -> None:
        self.nodelist = nodelist
        # Keyed by what the stretch may depend on: the language, and where the site is mounted.
        self.drawn: dict[tuple[str | None, str, object], SafeString] = {}
        _stretches.add(self)

    def render(self, context: Context) -> SafeString:
        language = get_language()
        key = (language, get_script_prefix(), get_urlconf())
        html = self.drawn.get(key)
        if html is None:
            # A new context holds these values only (a RequestContext's new one drops what the
            # context processors added: user, request, CSRF token...).
            only_language = context.new(
                {"LANGUAGE_CODE": language, "LANGUAGES": settings.LANGUAGES}
            )
            html = self.drawn[key] = self.nodelist.render(only_language)
        return html


@register.tag
def once_per_language(parser: Parser, token: Token) -> OncePerLanguageNode:
    """``{% once_per_language %}...{% endonce_per_language %}``: markup that depends on the
    language only, drawn once per language and process."""
    if len(token.split_contents()) != 1:
        raise template.TemplateSyntaxError("once_per_language takes no argument")
    nodelist = parser.parse(("endonce_per_language",))
    parser.delete_first_token()
    if nodelist.get_nodes_by_type(BlockNode):
        raise template.TemplateSyntaxError("once_per_language cannot hold a block")
    return OncePerLanguageNode(nodelist)
