import games.rules
from games.rules import RuleViolation


def violation_classes() -> list[type[RuleViolation]]:
    exported = (getattr(games.rules, name) for name in games.rules.__all__)
    return [
        item
        for item in exported
        if isinstance(item, type) and issubclass(item, RuleViolation) and item is not RuleViolation
    ]


def test_every_violation_is_exported_with_its_own_stable_code() -> None:
    codes = [violation.code for violation in violation_classes()]

    assert len(codes) == len(set(codes)) == 22
    assert all(code.islower() and " " not in code for code in codes)


def test_a_violation_reports_its_code_and_detail() -> None:
    for violation in violation_classes():
        assert violation("why").to_dict() == {"code": violation.code, "detail": "why"}
