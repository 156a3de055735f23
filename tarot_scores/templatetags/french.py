"""``{{ text|french }}``: a translated sentence filled with names set right in French (elision,
the space before ; : ! ?), by ``core.french``. Used on ``{% blocktranslate asvar %}`` results,
whose names are already escaped: the filter only turns "de " into "d'" and a space into a
non-breaking one, so a safe text stays safe."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from tarot_scores.core import french as typography

register = template.Library()


@register.filter(is_safe=True)
def french(text: str) -> str:
    written = typography.french(str(text))
    return mark_safe(written) if isinstance(text, SafeString) else written  # noqa: S308
