"""When something started waiting, as a page says it: "since 21:04" the same day, with the date
before the hour on a later day (ratings behind since the worker stopped last night, a PDF
asked for yesterday), so that "since 21:04" never reads as this evening's."""

from __future__ import annotations

import datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format

register = template.Library()


@register.filter
def since_when(moment: datetime.datetime | None) -> str:
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    hour = date_format(local, "H:i")
    if local.date() == timezone.localdate():
        return hour
    return f"{date_format(local, 'SHORT_DATE_FORMAT')} {hour}"
