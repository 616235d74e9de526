"""Rule violations: every error a scorer can trigger, each with a stable code and a human detail.

A violation is raised from a message template and its parameters,
`NotYourTurn.because(gettext_noop("seat %(seat)s cannot play now: ..."), seat=1, ...)`: its
`detail` is the English text (the command line and the logs show it) and the API renders
`gettext(template) % params` in the request's language (common/exceptions.py). This package
stays pure: `common.explained.gettext_noop` only marks the templates for Django's
`makemessages` (decision record 0022).
"""

from typing import ClassVar

from common.explained import Explained


class RuleViolation(Explained):
    """A command or an input that the rules of Briscola do not allow.

    `code` is stable (the API and the command line report it); `detail` explains this occurrence
    in English; `template` and `params` let a caller say it again in another language.
    """

    code: ClassVar[str] = "rule_violation"


class InvalidCard(RuleViolation):
    code = "invalid_card"


class CardNotInDeck(RuleViolation):
    code = "card_not_in_deck"


class CardAlreadyPlayed(RuleViolation):
    code = "card_already_played"


class NotYourTurn(RuleViolation):
    code = "not_your_turn"


class CardNotInHand(RuleViolation):
    code = "card_not_in_hand"


class BriscolaNotDrawn(RuleViolation):
    code = "briscola_not_drawn"


class BriscolaMustBePlayed(RuleViolation):
    """The seat that drew the face-up briscola is down to its last card, so that card is it."""

    code = "briscola_must_be_played"


class RoundAlreadyFinished(RuleViolation):
    code = "round_finished"


class RoundInProgress(RuleViolation):
    code = "round_in_progress"


class RoundNotStarted(RuleViolation):
    code = "round_not_started"


class NothingToUndo(RuleViolation):
    code = "nothing_to_undo"


class InvalidSeat(RuleViolation):
    code = "invalid_seat"


class InvalidTableSize(RuleViolation):
    code = "invalid_table_size"


class InvalidVariant(RuleViolation):
    code = "invalid_variant"


class RemovedCardMustBeATwo(InvalidVariant):
    """The card left out at a three-player table is not a two."""

    code = "removed_card_must_be_a_two"


class InvalidDeck(RuleViolation):
    code = "invalid_deck"


class MissingBriscola(RuleViolation):
    code = "missing_briscola"


class PointsMustTotal120(RuleViolation):
    code = "points_must_total_120"


class InvalidPoints(RuleViolation):
    code = "invalid_points"


class InvalidMatchFormat(RuleViolation):
    code = "invalid_match_format"


class MatchAlreadyFinished(RuleViolation):
    code = "match_finished"


class InvalidInput(RuleViolation):
    """A round record (a JSON line) that is not shaped as the documented format."""

    code = "invalid_input"
