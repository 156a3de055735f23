"""The deal form's radio "chips" (preneur, contrat, bouts, poignées, misères, sides) and its
plain inputs (points, card points, buraco counts), drawn in Python.

Looping over a choice field in a template and calling ``choice.tag`` renders Django's option
template once per chip; the deal form has about forty chips, and that was most of the time it
took to draw. ``{% chips field %}`` writes the same markup directly, and ``{% field_input field %}``
does the same for ``{{ field }}`` of a text, number, hidden or checkbox input. What to draw
still comes from Django (``BoundField.subwidgets``, ``Widget.get_context``), so names, values,
ids, ``checked``, ``required``, ``aria-invalid`` and ``aria-describedby`` are Django's own; only
the ``<input>`` is written here, attribute for attribute as ``django/forms/widgets/input.html``
and ``attrs.html`` write it. Anything else falls back to Django's templates.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django import template
from django.forms import BoundField
from django.utils.formats import localize
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

register = template.Library()

# Django's templates that only include ``input.html``: the markup ``_input`` reproduces. A
# widget or option with a template of its own is drawn by that template.
_INPUT_OPTION_TEMPLATES = frozenset(
    {"django/forms/widgets/radio_option.html", "django/forms/widgets/checkbox_option.html"}
)
_INPUT_TEMPLATES = frozenset(
    f"django/forms/widgets/{name}.html"
    for name in ("text", "number", "hidden", "checkbox", "email", "url", "password")
)


def _html(value: Any) -> str:
    """``conditional_escape(value)``: a safe string as it is, anything else escaped. Written out
    because ``django.utils.html.escape`` checks every call for lazy arguments, and that check
    cost more than the escaping of a few hundred short strings."""
    if value.__class__ is str:  # most of them: names, values, ids
        return escape(value)
    if isinstance(value, Promise):
        value = str(value)
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return escape(str(value))


def _attr_value(value: Any) -> str:
    """An attribute value as ``{{ value|stringformat:'s' }}`` prints it."""
    return _html(value if hasattr(value, "__html__") else str(value))


def _attrs(attrs: dict[str, Any]) -> str:
    """As ``attrs.html``: False leaves the attribute out, True writes its bare name, and the
    order is kept (``flatatt`` would move the bare ones last and drop None)."""
    return "".join(
        f" {_html(name)}" if value is True else f' {_html(name)}="{_attr_value(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def _input(option: dict[str, Any]) -> str:
    """One widget's or option's ``<input>``, as ``input.html`` writes it."""
    value = option["value"]
    shown = f' value="{_attr_value(value)}"' if value is not None else ""
    return (
        f'<input type="{_html(option["type"])}" name="{_html(option["name"])}"'
        f"{shown}{_attrs(option['attrs'])}>"
    )


@register.simple_tag
def chips(field: BoundField, small: bool = False) -> SafeString:
    """``<label class="chip" for="…"><input …><span>label</span></label>`` for each choice of
    a RadioSelect or CheckboxSelectMultiple field; ``small=True`` adds ``chip-small``. Every
    chip reads in sentence case, but players' names (a widget with ``names``) stay as typed."""
    css = "chip chip-small" if small else "chip"
    as_typed = getattr(field.field.widget, "names", False)
    out = []
    for choice in field.subwidgets:
        option = choice.data
        tag = (
            _input(option)
            if option.get("template_name") in _INPUT_OPTION_TEMPLATES
            else choice.tag()
        )
        # ``for`` and the label as ``{{ choice.id_for_label }}`` and ``{{ choice.choice_label }}``
        # (``|capfirst``) print them.
        label = localize(choice.choice_label)
        if not as_typed:
            label = capfirst(label)
        out.append(
            f'<label class="{css}" for="{_html(localize(choice.id_for_label))}">{tag}'
            f"<span>{_html(label)}</span></label>"
        )
    # Every piece above went through _html, or is Django's own rendering of an option.
    return mark_safe("".join(out))


@register.simple_tag
def field_input(field: BoundField) -> SafeString:
    """``{{ field }}`` of a text, number, hidden or checkbox input, as ``BoundField.as_widget``
    builds it."""
    widget = field.field.widget
    if field.field.show_hidden_initial or widget.template_name not in _INPUT_TEMPLATES:
        return mark_safe(str(field))
    if field.field.localize:
        widget.is_localized = True
    attrs = field.build_widget_attrs({}, widget)
    if field.auto_id and "id" not in widget.attrs:
        attrs.setdefault("id", field.auto_id)
    context = widget.get_context(field.html_name, field.value(), attrs)
    return mark_safe(_input(context["widget"]))
