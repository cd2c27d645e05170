"""The budget that table edits and reactions share, all tables together."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.budget import RequestBudget


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_full_bucket_gives_a_burst_then_one_slot_per_interval() -> None:
    clock = Clock()
    budget = RequestBudget(4, clock=clock)
    for _ in range(4):
        await budget.take()
    assert budget.waited == 0
    clock.now += 0.25
    await budget.take()
    assert budget.waited == 0, "a quarter second refills one slot at 4 a second"
    assert budget.taken == 5


async def test_an_empty_bucket_makes_the_taker_wait_for_the_next_slot() -> None:
    budget = RequestBudget(100)
    for _ in range(100):
        await budget.take()
    loop = asyncio.get_running_loop()
    start = loop.time()
    await budget.take()
    await budget.take()
    assert loop.time() - start >= 0.015
    assert budget.waited > 0


async def test_waiters_are_served_in_arrival_order() -> None:
    budget = RequestBudget(50)
    for _ in range(50):
        await budget.take()
    order: list[int] = []

    async def taker(n: int) -> None:
        await budget.take()
        order.append(n)

    await asyncio.gather(*(taker(n) for n in range(5)))
    assert order == [0, 1, 2, 3, 4]


async def test_requests_sent_at_once_push_the_waiting_ones_back() -> None:
    clock = Clock()
    budget = RequestBudget(10, clock=clock)
    for _ in range(15):
        budget.spend()
    assert budget.spent == 15
    # Five requests' worth of debt and one slot: a waiter needs 0.6 s of refill.
    waiting = asyncio.create_task(budget.take())
    await asyncio.sleep(0.01)
    assert not waiting.done()
    clock.now += 0.6
    await asyncio.wait_for(waiting, 2)
    assert budget.waited >= 0.6


async def test_debt_is_capped_at_one_second() -> None:
    """However many requests went out at once, two seconds later the bucket is full."""
    clock = Clock()
    budget = RequestBudget(10, clock=clock)
    for _ in range(100):
        budget.spend()
    clock.now += 2.0
    for _ in range(10):
        await budget.take()
    assert budget.waited == 0


async def test_a_small_burst_spreads_requests_over_the_second() -> None:
    """At 40 a second in bursts of 4, no second sees more than 44 (Discord allows 50)."""
    clock = Clock()
    budget = RequestBudget(40, burst=4, clock=clock)
    for _ in range(4):
        await budget.take()
    assert budget.waited == 0
    clock.now += 10.0
    for _ in range(4):
        budget.spend()
    budget.spend()
    waiting = asyncio.create_task(budget.take())
    await asyncio.sleep(0.01)
    assert not waiting.done(), "a long quiet spell still leaves only the burst"
    clock.now += 2 / 40
    await asyncio.wait_for(waiting, 2)


def test_a_budget_needs_a_rate_and_a_burst() -> None:
    with pytest.raises(ValueError):
        RequestBudget(0)
    with pytest.raises(ValueError):
        RequestBudget(10, burst=0.5)
