"""Shards: which ones a process runs, and how a cluster splits them.

Discord sends every event about a server to shard ``(guild_id >> 22) % shard_count``, and
every event without a server (DMs, DM clicks, DM reactions) to shard 0 only. A process
runs a set of shards (``--shards 0-3 --shard-count 8``); a cluster of K processes splits
the shards into K even, contiguous ranges (``python -m bot.cluster``, docs/scaling.md).

>>> parse_shards("0-3")
(0, 1, 2, 3)
>>> parse_shards("0,2,5-6")
(0, 2, 5, 6)
>>> split_shards(8, 3)
[(0, 1, 2), (3, 4, 5), (6, 7)]
>>> format_shards((0, 1, 2, 3, 6))
'0-3,6'
"""

from __future__ import annotations

from collections.abc import Sequence


class ShardRangeError(ValueError):
    """A shard list that is malformed or does not fit the shard count."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a server's events to."""
    return (guild_id >> 22) % shard_count


def parse_shards(text: str, shard_count: int | None = None) -> tuple[int, ...]:
    """Shard ids written as ranges and single ids separated by commas (``0-3``, ``4``,
    ``0,2,5-6``), sorted; each below ``shard_count`` when it is given."""
    chosen: set[int] = set()
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ShardRangeError(
                f"shards must be ids or ranges such as 0-3 or 0,2,5-6, not {text!r}"
            )
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ShardRangeError(f"the shard range {part!r} ends before it starts")
        chosen.update(range(low, high + 1))
    ids = tuple(sorted(chosen))
    if shard_count is not None:
        check_shards(ids, shard_count)
    return ids


def check_shards(ids: Sequence[int], shard_count: int) -> None:
    if shard_count < 1:
        raise ShardRangeError(f"the shard count must be 1 or more, not {shard_count}")
    outside = [shard for shard in ids if not 0 <= shard < shard_count]
    if outside:
        raise ShardRangeError(
            f"shard {outside[0]} does not exist with {shard_count} shard(s):"
            f" ids run from 0 to {shard_count - 1}"
        )
    if not ids:
        raise ShardRangeError("a process must run at least one shard")


def split_shards(shard_count: int, processes: int) -> list[tuple[int, ...]]:
    """``shard_count`` shards in ``processes`` contiguous ranges whose sizes differ by at
    most one, the larger first."""
    if processes < 1:
        raise ShardRangeError(f"a cluster needs 1 process or more, not {processes}")
    if processes > shard_count:
        raise ShardRangeError(
            f"{processes} processes cannot share {shard_count} shard(s):"
            " each process needs a shard of its own (raise the shard count)"
        )
    size, larger = divmod(shard_count, processes)
    ranges = []
    start = 0
    for index in range(processes):
        end = start + size + (1 if index < larger else 0)
        ranges.append(tuple(range(start, end)))
        start = end
    return ranges


def format_shards(ids: Sequence[int]) -> str:
    """Shard ids as :func:`parse_shards` reads them, consecutive ids as one range."""
    parts: list[str] = []
    ordered = sorted(ids)
    index = 0
    while index < len(ordered):
        end = index
        while end + 1 < len(ordered) and ordered[end + 1] == ordered[end] + 1:
            end += 1
        low, high = ordered[index], ordered[end]
        parts.append(str(low) if low == high else f"{low}-{high}")
        index = end + 1
    return ",".join(parts)
