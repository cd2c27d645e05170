import pytest

from bot.ids import MAX_LENGTH, CustomId, CustomIdError


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
