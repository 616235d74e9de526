"""Errors a person can cause and fix, explained in a sentence that can be said in any language.

An error is raised from a message template and its parameters,
`NotYourTurn.because(gettext_noop("seat %(seat)s cannot play now: ..."), seat=1, ...)`: its
`detail` is the English text (the command line, the logs and the tests read it) and the API says
`gettext(template) % params` in the request's language (common/exceptions.py, decision 0022).
Standard library only, so the pure packages (rules, formats, standings) can raise them.
"""

from collections.abc import Mapping
from typing import ClassVar, Self


def gettext_noop(message: str) -> str:
    """Mark a message template for translation. Django's `makemessages` extracts every call of
    a function of this name; the template is translated later, where a language is known."""
    return message


class Explained(Exception):
    """`code` is stable (clients branch on it); `detail` explains this occurrence in English;
    `template` and `params` let a caller say it again in another language."""

    code: ClassVar[str] = "error"

    def __init__(
        self,
        detail: str,
        *,
        template: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.template = template
        self.params: dict[str, object] = dict(params or {})
        self.extra: dict[str, object] = {}
        """Machine-readable facts the API adds to the error's body (a batch's `play_index`)."""

    @classmethod
    def because(cls, template: str, /, **params: object) -> Self:
        """The error explained by `template % params` (a template marked with gettext_noop)."""
        return cls(template % params, template=template, params=params)

    def at(self, **extra: object) -> Self:
        """The same error, saying where it happened (`play_index=3`): returned for `raise`."""
        self.extra.update(extra)
        return self

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.detail}
