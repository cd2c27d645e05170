"""The table message's line of what happened keeps the newest moves when they do not all
fit: with the table message edited every few seconds, a burst of moves lands in one edit."""

from hypothesis import given
from hypothesis import strategies as st

from bot.tables.presenter import LINE_LIMIT, newest


def test_lines_that_fit_are_all_shown() -> None:
    assert newest(["A discards 5m", "B pongs 5m"], "; ", 40) == "A discards 5m; B pongs 5m"


def test_the_oldest_lines_give_way_to_the_newest() -> None:
    lines = [f"seat {n} discards 9p" for n in range(30)]
    shown = newest(lines, "; ", LINE_LIMIT)
    assert len(shown) <= LINE_LIMIT
    assert shown.startswith("…seat ")
    assert shown.endswith("seat 29 discards 9p")
    # Whole lines only: the first one shown is not cut.
    assert shown[1:].split("; ")[0] in lines


def test_one_line_longer_than_the_limit_shows_its_start() -> None:
    assert newest(["x" * 50], "; ", 10) == "x" * 9 + "…"


@given(
    st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=30),
    st.integers(min_value=2, max_value=120),
)
def test_never_longer_than_the_limit_and_the_newest_line_when_it_fits(
    lines: list[str], limit: int
) -> None:
    shown = newest(lines, "；", limit)
    assert len(shown) <= limit
    if len(lines[-1]) < limit:
        assert shown.endswith(lines[-1])


def test_a_cut_line_never_ends_in_half_an_escape() -> None:
    line = "x" * 8 + "\\_" + "y" * 10
    assert newest([line], "; ", 10) == "x" * 8 + "…"
