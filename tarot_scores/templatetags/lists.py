"""Lists in a sentence, as each language writes them: "1, 2 and 3" in English, "1, 2 et 3" in
French (Django's ``get_text_list``, with our own translated "and")."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def and_list(items: Iterable[object]) -> str:
    """``[1, 2]`` -> "1 and 2" ("1 et 2" in French); one item alone, as it is."""
    return str(get_text_list([str(item) for item in items], _("and")))
