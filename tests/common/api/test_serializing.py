"""A query read with the thread's bound serializer (`validated_data_of`) reads as a new
serializer would, every time: nothing of one read is left for the next."""

import pytest
from rest_framework import serializers

from common.api.serializing import Serializer, validated_data_of


class PageQuery(Serializer):
    limit = serializers.IntegerField(min_value=1, default=100)
    status = serializers.ChoiceField(choices=["ready", "finished"], required=False)


def test_each_read_validates_its_own_data_with_the_same_rules_as_a_new_serializer() -> None:
    first = validated_data_of(PageQuery, {"limit": "5", "status": "ready"})
    with pytest.raises(serializers.ValidationError) as refused:
        validated_data_of(PageQuery, {"limit": "0"})
    second = validated_data_of(PageQuery, {})

    assert first == {"limit": 5, "status": "ready"}
    assert "limit" in refused.value.detail
    assert second == {"limit": 100}
    assert second == dict(_new(PageQuery, {}))


def _new(serializer_class: type[Serializer], data: dict[str, str]) -> dict[str, object]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
