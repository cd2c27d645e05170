import re

import pytest

from bot.ids import (
    BUTTON_KINDS,
    MAX_LENGTH,
    SELECT_KINDS,
    CustomId,
    CustomIdError,
    retired_template,
    template,
)


def test_round_trip() -> None:
    cid = CustomId("chow", 123456789012345678, 16, 999, "345m")
    assert CustomId.decode(cid.encode()) == cid


def test_without_argument() -> None:
    assert CustomId.decode("mj:join:7:0:0") == CustomId("join", 7)


@pytest.mark.parametrize("text", ["mj:x:1:2", "xx:pass:1:2:3", "mj:pass:a:2:3", "mj:Pass:1:2:3"])
def test_malformed_ids_are_refused(text: str) -> None:
    with pytest.raises(CustomIdError):
        CustomId.decode(text)


def test_longest_ids_fit_discord_limit() -> None:
    big = 2**63 - 1
    cid = CustomId("exchange", big, 9999, 99999, "1m2m3m4m5m6m7m8m9m")
    assert len(cid.encode()) <= MAX_LENGTH
    with pytest.raises(CustomIdError):
        CustomId("pass", 1, arg="x" * 100).encode()


def test_templates_of_different_kinds_do_not_overlap() -> None:
    buttons = re.compile(template(("pass", "pong")))
    selects = re.compile(template(("discard",)))
    assert buttons.fullmatch("mj:pass:1:2:3")
    assert not buttons.fullmatch("mj:discard:1:2:3:5m")
    assert selects.fullmatch("mj:discard:1:2:3:5m")
    assert not selects.fullmatch("mj:pass:1:2:3")


def test_retired_kinds_match_only_the_template_of_retired_controls() -> None:
    """A control of a kind the bot no longer sends still reaches the bot (to be told it
    has expired), and no id the bot sends now reaches it twice."""
    retired = re.compile(retired_template(BUTTON_KINDS + SELECT_KINDS))
    current = [re.compile(template(BUTTON_KINDS)), re.compile(template(SELECT_KINDS))]
    assert retired.fullmatch("mj:discard:1:2:3:5m")
    assert retired.fullmatch("mj:pass:1:2:3")
    for kind in BUTTON_KINDS + SELECT_KINDS:
        text = f"mj:{kind}:1:2:3:arg.0"
        assert not retired.fullmatch(text), kind
        assert sum(bool(p.fullmatch(text)) for p in current) == 1, kind
