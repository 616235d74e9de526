"""Names on pages, isolated from the text around them (decision record 0041): a name written
right to left, or holding invisible direction marks, cannot reorder the rest of its line.

`bdi` wraps a name in `<bdi>` (escaped, as any value); `isolated` puts it between the Unicode
isolates FSI and PDI, for text where no element may go (a page's title).
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

FIRST_STRONG_ISOLATE = "\N{FIRST STRONG ISOLATE}"
POP_DIRECTIONAL_ISOLATE = "\N{POP DIRECTIONAL ISOLATE}"


@register.filter
def bdi(name: object) -> SafeString:
    return format_html("<bdi>{}</bdi>", name)


@register.filter
def isolated(name: object) -> str:
    return f"{FIRST_STRONG_ISOLATE}{name}{POP_DIRECTIONAL_ISOLATE}"
