"""Plays one stored hand with AI seats, storing each action before applying it, until killed.

Run by test_data_crash_resume.py as: python -m tests.data.crash_player DATABASE ROUND_ID SEED,
DATABASE being a SQLite file or a PostgreSQL URL.
Each line printed is the sequence number of an action that was stored and then applied.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator, Sequence

from data import open_store
from engine.actions import Action
from engine.ai import Player, make_player
from engine.round import Round


def players() -> list[Player]:
    return [make_player("normal", seat) for seat in range(4)]


def next_actions(hand: Round, seats: Sequence[Player]) -> Iterator[Action]:
    """The actions the AI seats take, one at a time, as live play chooses them."""
    while not hand.ended:
        seat = hand.to_act()[0]
        legal = hand.legal_actions(seat)
        if hand.prompt is None and len(legal) == 1:
            yield legal[0]
        else:
            yield seats[seat].choose(hand.view(seat), legal, hand.default_action(seat))


async def play(database: str, round_id: int, seed: str) -> None:
    store = await open_store(database)
    (live,) = await store.live_tables()
    assert live.current_round is not None and live.current_round.info.id == round_id
    hand = Round.from_script({**live.current_round.setup, "actions": []}, seed=seed)
    for seq, action in enumerate(next_actions(hand, players())):
        await store.append_action(round_id, seq, action.to_json())
        hand.apply(action)
        print(seq, flush=True)
    await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(play(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
