"""Errors a table can trigger beyond the rules of a single round."""

from games.rules.errors import RuleViolation


class MatchAlreadyCreated(RuleViolation):
    code = "match_exists"


class RoundNotFound(RuleViolation):
    code = "round_not_found"


class PlayNotFound(RuleViolation):
    code = "play_not_found"


class RoundAlreadyVoided(RuleViolation):
    code = "round_voided"


class CardsAlreadyEntered(RuleViolation):
    code = "cards_already_entered"


class PointsAlreadyEntered(RuleViolation):
    code = "points_already_entered"


class RoundNotLatest(RuleViolation):
    code = "round_not_latest"


class DealtRoundTakesCardsOnly(RuleViolation):
    code = "round_is_dealt"


class BriscolaDealtByServer(RuleViolation):
    code = "briscola_dealt_by_server"


class MatchNotFinished(RuleViolation):
    code = "match_not_finished"


class ResultAlreadyConfirmed(RuleViolation):
    code = "result_already_confirmed"


class ResultAlreadyDisputed(RuleViolation):
    code = "result_already_disputed"


class RoundNotFinished(RuleViolation):
    code = "round_not_finished"


class RoundRuled(RuleViolation):
    code = "round_ruled"


class CardUnchanged(RuleViolation):
    code = "card_unchanged"


class ReasonRequired(RuleViolation):
    code = "reason_required"


class InvalidSide(RuleViolation):
    code = "invalid_side"
