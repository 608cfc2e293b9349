"""Messages as JSON text: one object's text made of two objects' texts serialised apart."""

from __future__ import annotations

import json

from chuko.server.shared.messages import dumps, merge_objects


def test_merging_two_objects_gives_one_object_with_the_members_of_both_in_order():
    shared, own = {"type": "state", "seats": [{"seat": 0}], "note": "a,}"}, {"view": {"x": 1}}
    merged = merge_objects(dumps(shared), dumps(own))
    assert json.loads(merged) == {**shared, **own}
    assert merged == dumps({**shared, **own})


def test_merging_with_an_empty_object_gives_the_other_unchanged():
    text = dumps({"a": 1})
    assert merge_objects(text, "{}") == text
    assert merge_objects("{}", text) == text
    assert merge_objects("{}", "{}") == "{}"

