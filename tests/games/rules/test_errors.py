import games.rules.errors
from games.rules.errors import RuleViolation


def violation_classes() -> list[type[RuleViolation]]:
    defined = vars(games.rules.errors).values()
    return [
        item
        for item in defined
        if isinstance(item, type) and issubclass(item, RuleViolation) and item is not RuleViolation
    ]


def test_every_violation_of_the_rules_has_its_own_stable_code() -> None:
    codes = [violation.code for violation in violation_classes()]

    assert len(codes) == len(set(codes)) == 22
    assert all(code.islower() and " " not in code for code in codes)


def test_a_violation_reports_its_code_and_detail() -> None:
    for violation in violation_classes():
        assert violation("why").to_dict() == {"code": violation.code, "detail": "why"}
