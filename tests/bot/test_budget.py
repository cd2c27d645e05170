"""The bot's share of Discord's global limit, which every request toward it waits for."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest

from bot.budget import RESERVED_FOR, RequestBudget, counts_toward_global_limit


async def sent_at_once(budget: RequestBudget, count: int) -> None:
    with budget.at_once():
        for _ in range(count):
            await budget.admit()


async def held_back(
    admitted: Coroutine[Any, Any, None], clock: Clock, seconds: float, why: str = ""
) -> None:
    """``admitted`` (run as a task of its own) waits until ``seconds`` more have passed
    on ``clock``, and not longer."""
    task = asyncio.create_task(admitted)
    await asyncio.sleep(0.01)
    assert not task.done(), why
    clock.now += seconds
    await asyncio.wait_for(task, 2)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_full_bucket_gives_a_burst_then_one_slot_per_interval() -> None:
    clock = Clock()
    budget = RequestBudget(4, clock=clock)
    for _ in range(4):
        await budget.admit()
    assert budget.waited == 0
    clock.now += 0.25
    await budget.admit()
    assert budget.waited == 0, "a quarter second refills one slot at 4 a second"
    assert budget.taken == 5


async def test_an_empty_bucket_makes_the_taker_wait_for_the_next_slot() -> None:
    budget = RequestBudget(100)
    for _ in range(100):
        await budget.admit()
    loop = asyncio.get_running_loop()
    start = loop.time()
    await budget.admit()
    await budget.admit()
    assert loop.time() - start >= 0.015
    assert budget.waited > 0


async def test_waiters_are_served_in_arrival_order() -> None:
    budget = RequestBudget(50)
    for _ in range(50):
        await budget.admit()
    order: list[int] = []

    async def taker(n: int) -> None:
        await budget.admit()
        order.append(n)

    await asyncio.gather(*(taker(n) for n in range(5)))
    assert order == [0, 1, 2, 3, 4]


async def test_requests_sent_at_once_push_the_waiting_ones_back() -> None:
    clock = Clock()
    budget = RequestBudget(10, clock=clock)
    await sent_at_once(budget, 15)
    assert budget.spent == 15
    # Five requests' worth of debt and one slot: a waiter needs 0.6 s of refill.
    await held_back(budget.admit(), clock, 0.6)
    assert budget.waited >= 0.6


async def test_debt_is_capped_at_one_second() -> None:
    """However many requests went out at once, two seconds later the bucket is full."""
    clock = Clock()
    budget = RequestBudget(10, clock=clock)
    await sent_at_once(budget, 100)
    clock.now += 2.0
    for _ in range(10):
        await budget.admit()
    assert budget.waited == 0


async def test_a_small_burst_spreads_requests_over_the_second() -> None:
    """At 40 a second in bursts of 4, no second sees more than 44 (Discord allows 50)."""
    clock = Clock()
    budget = RequestBudget(40, burst=4, clock=clock)
    for _ in range(4):
        await budget.admit()
    assert budget.waited == 0
    clock.now += 10.0
    await sent_at_once(budget, 5)
    await held_back(budget.admit(), clock, 2 / 40, "a long quiet spell still leaves only the burst")


def test_a_budget_needs_a_rate_and_a_burst() -> None:
    with pytest.raises(ValueError):
        RequestBudget(0)
    with pytest.raises(ValueError):
        RequestBudget(10, burst=0.5)


async def test_requests_sent_at_once_are_counted_in_their_block_only() -> None:
    clock = Clock()
    budget = RequestBudget(1, clock=clock)
    with budget.at_once():
        for _ in range(3):
            await asyncio.wait_for(budget.admit(), 1)
    assert (budget.spent, budget.taken) == (3, 0)
    await held_back(
        budget.admit(), clock, 3.0, "after the block, requests wait again (and pay the debt)"
    )
    assert budget.taken == 1


async def test_sending_at_once_belongs_to_the_task_that_asked_for_it() -> None:
    """Another table's request, made while a lobby's go out at once, still waits."""
    clock = Clock()
    budget = RequestBudget(1, burst=1, clock=clock)
    await budget.admit()
    go = asyncio.Event()

    async def other_table() -> None:
        await go.wait()
        await budget.admit()

    other = asyncio.create_task(other_table())
    with budget.at_once():
        go.set()
        await asyncio.sleep(0.01)
        await budget.admit()
    assert not other.done()
    clock.now += 3.0
    await asyncio.wait_for(other, 2)


async def test_a_request_goes_out_on_the_slot_reserved_for_it_moments_ago() -> None:
    clock = Clock()
    budget = RequestBudget(1, burst=1, clock=clock)
    await budget.reserve()
    clock.now += RESERVED_FOR / 2
    # In the task that reserved (as discord.py's retries run in the request's task).
    await budget.admit()
    assert budget.taken == 1
    await held_back(budget.admit(), clock, 1.0, "a reserved slot serves one request, not its retry")


async def test_a_request_leaving_long_after_its_reservation_waits_for_a_new_slot() -> None:
    """The slot was counted in a second the request never reached."""
    clock = Clock()
    budget = RequestBudget(1, burst=1, clock=clock)
    await budget.reserve()
    clock.now += RESERVED_FOR * 2
    await held_back(budget.admit(), clock, 1.0)
    assert budget.reservations_lapsed == 1


def test_interaction_answers_and_follow_ups_are_outside_the_global_limit() -> None:
    assert counts_toward_global_limit("/api/v10/channels/1/messages")
    assert counts_toward_global_limit("/api/v10/users/@me/channels")
    assert not counts_toward_global_limit("/api/v10/interactions/1/tok/callback")
    assert not counts_toward_global_limit("/api/v10/webhooks/1/tok/messages/@original")
    assert not counts_toward_global_limit("/")
    assert not counts_toward_global_limit("/attachments/1/2/table.png")


async def test_a_request_first_does_not_wait_behind_the_line() -> None:
    clock = Clock()
    budget = RequestBudget(10, 1, clock=clock)
    await budget.admit()
    # Five table pictures wait in line, one slot (0.1 s) apart.
    line = [asyncio.create_task(budget.admit()) for _ in range(5)]
    await asyncio.sleep(0.01)

    async def looked_up() -> None:
        with budget.first():
            await budget.admit()

    lookup = asyncio.create_task(looked_up())
    await asyncio.sleep(0.01)
    steps = 0
    while not lookup.done():
        assert steps < 2, "the lookup a click waits for takes one of the next two slots"
        clock.now += 0.1
        steps += 1
        await asyncio.sleep(0.15)
    assert sum(task.done() for task in line) <= 2, "the line still waits"
    for _ in range(20):
        if all(task.done() for task in line):
            break
        clock.now += 0.1
        await asyncio.sleep(0.15)
    await asyncio.wait_for(asyncio.gather(*line), 2)
    # Never past the budget: one slot each.
    assert budget.taken == 7 and budget.spent == 0
