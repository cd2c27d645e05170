"""Ratings, seasons and replay codes in the store, on both backends."""

from __future__ import annotations

import dataclasses

import pytest
from openskill.models import PlackettLuce

from bot.runtime.seats import STORED_LEVELS
from data import NotFoundError, Ranking, SeasonError, Variant
from data.ratings import AI_RATINGS
from data.replay_codes import ALPHABET, LENGTH
from data.sql_store import SqlStore
from tests.data.store_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    ERIN,
    GUILD,
    OTHER_GUILD,
    FakeClock,
    MakeTable,
    PlayRound,
    discard_win,
    no_win,
    self_draw_win,
    setup_for,
)

MODEL = PlackettLuce()


def expected(before: list[tuple[float, float]], ranks: list[float]) -> list[tuple[float, float]]:
    """What the library itself computes for these placements."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=ranks)]


NEW = (MODEL.rating().mu, MODEL.rating().sigma)


async def test_a_session_rates_its_players_as_the_library_does(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    table = await make_table(rounds=1)
    # Alice wins 8 off Carol: Alice first, Bob and Dave tied second, Carol last.
    await play_round(table, discard_win(0, 2, 8, 3))
    after = expected([NEW] * 4, [1, 2, 4, 2])
    for user, (mu, sigma) in zip((ALICE, BOB, CAROL, DAVE), after, strict=True):
        for guild_id in (GUILD, None):
            for variant in (Variant.SICHUAN, None):
                rating = await store.rating(user, guild_id=guild_id, variant=variant)
                assert rating is not None
                assert rating.mu == pytest.approx(mu, abs=1e-12)
                assert rating.sigma == pytest.approx(sigma, abs=1e-12)
                assert rating.sessions == 1
                assert rating.provisional
    # Another rule set has no rating yet.
    assert await store.rating(ALICE, guild_id=GUILD, variant=Variant.MCR) is None

    # The next session starts from these ratings.
    second = await make_table(rounds=1)
    await play_round(second, self_draw_win(3, 2, 1))
    again = expected(after, [2, 2, 2, 1])
    for user, (mu, sigma) in zip((ALICE, BOB, CAROL, DAVE), again, strict=True):
        rating = await store.rating(user, guild_id=GUILD)
        assert rating is not None
        assert (rating.mu, rating.sigma) == pytest.approx((mu, sigma), abs=1e-12)
        assert rating.sessions == 2


async def test_a_session_tells_each_rating_before_and_after(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound, clock: FakeClock
) -> None:
    first = await make_table((ALICE, BOB, None, DAVE), rounds=1)
    assert await store.session_ratings(first.id) == {}
    await play_round(first, discard_win(0, 1, 8, 3))
    changes = await store.session_ratings(first.id)
    assert set(changes) == {ALICE, BOB, DAVE}
    before, after = changes[ALICE]
    assert before is None and after == await store.rating(
        ALICE, guild_id=GUILD, variant=Variant.SICHUAN
    )
    clock.advance(minutes=5)
    second = await make_table(rounds=1)
    await play_round(second, no_win())
    before, after = (await store.session_ratings(second.id))[ALICE]
    assert before is not None and before.sessions == 1 and after.sessions == 2
    assert (before.mu, before.sigma) == pytest.approx(
        (changes[ALICE][1].mu, changes[ALICE][1].sigma)
    )
    # The first session's change stays as it was.
    assert (await store.session_ratings(first.id))[ALICE] == changes[ALICE]


async def test_only_a_whole_session_is_rated(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    table = await make_table(rounds=4)
    await play_round(table, discard_win(0, 2, 8, 3))
    assert await store.rating(ALICE, guild_id=GUILD) is None
    await store.disband_table(table.id)
    assert await store.rating(ALICE, guild_id=GUILD) is None


async def test_ai_seats_keep_their_fixed_rating(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    table = await make_table((ALICE, None, BOB, None), rounds=1)
    await play_round(table, discard_win(1, 0, 8, 3))
    level = AI_RATINGS[1]  # make_table seats AIs of level 1
    after = expected([NEW, level, NEW, level], [4, 1, 2, 2])
    alice = await store.rating(ALICE, guild_id=GUILD)
    bob = await store.rating(BOB, guild_id=GUILD)
    assert alice is not None and bob is not None
    assert (alice.mu, alice.sigma) == pytest.approx(after[0], abs=1e-12)
    assert (bob.mu, bob.sigma) == pytest.approx(after[2], abs=1e-12)
    board = await store.leaderboard(guild_id=GUILD, ranking=Ranking.RATING)
    assert [entry.stats.user_id for entry in board] == [BOB, ALICE]


async def test_the_rating_board_orders_by_mu_minus_three_sigma(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    for _ in range(3):
        table = await make_table(rounds=1)
        await play_round(table, discard_win(1, 3, 8, 3))
    board = await store.leaderboard(guild_id=GUILD, ranking=Ranking.RATING)
    ordinals = [entry.rating.ordinal for entry in board if entry.rating is not None]
    assert ordinals == sorted(ordinals, reverse=True)
    assert board[0].stats.user_id == BOB and board[-1].stats.user_id == DAVE
    assert board[0].stats.games == 3 and board[0].stats.wins == 3
    everywhere = await store.leaderboard(ranking=Ranking.RATING, variant=Variant.SICHUAN)
    assert [e.stats.user_id for e in everywhere] == [e.stats.user_id for e in board]
    assert await store.leaderboard(ranking=Ranking.RATING, variant=Variant.MCR) == []
    assert await store.leaderboard(ranking=Ranking.RATING, min_games=4) == []


async def test_seasons_isolate(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound, clock: FakeClock
) -> None:
    # Before any season: all time only.
    table = await make_table(rounds=1)
    await play_round(table, discard_win(0, 1, 8, 3))
    with pytest.raises(NotFoundError):
        await store.leaderboard(guild_id=GUILD, season=1)
    with pytest.raises(SeasonError):
        await store.end_season(GUILD)

    first = await store.start_season(GUILD, actor_id=ALICE)
    assert first.number == 1 and first.running
    with pytest.raises(SeasonError) as refused:
        await store.start_season(GUILD)
    assert refused.value.running == 1
    assert await store.leaderboard(guild_id=GUILD, season=1) == []
    table = await make_table(rounds=1)
    await play_round(table, discard_win(1, 0, 8, 3))
    # The season rates from scratch: Bob first, Alice last, Carol and Dave between.
    season_one = expected([NEW] * 4, [4, 1, 2, 2])
    bob = await store.rating(BOB, guild_id=GUILD, season=1)
    assert bob is not None and bob.sessions == 1
    assert (bob.mu, bob.sigma) == pytest.approx(season_one[1], abs=1e-12)
    # All time goes on from the first session.
    all_time = await store.rating(BOB, guild_id=GUILD)
    assert all_time is not None and all_time.sessions == 2
    board = await store.leaderboard(guild_id=GUILD, season=1, ranking=Ranking.NET)
    assert (board[0].stats.user_id, board[0].stats.net) == (BOB, 8)
    assert board[-1].stats.net == -8

    clock.advance(days=1)
    ended = await store.end_season(GUILD)
    assert ended.number == 1 and not ended.running
    # A session after the season ended counts only all time.
    table = await make_table(rounds=1)
    await play_round(table, no_win())
    bob = await store.rating(BOB, guild_id=GUILD, season=1)
    assert bob is not None and bob.sessions == 1
    second = await store.start_season(GUILD)
    assert second.number == 2
    assert await store.leaderboard(guild_id=GUILD, season=2) == []
    assert [s.number for s in await store.seasons(GUILD)] == [1, 2]
    assert (await store.running_season(GUILD)) == second
    # Seasons are per server.
    assert await store.running_season(OTHER_GUILD) is None
    with pytest.raises(NotFoundError):
        await store.leaderboard(guild_id=OTHER_GUILD, season=1)
    other = await store.start_season(OTHER_GUILD)
    assert other.number == 1


async def test_every_finished_hand_has_a_code_and_a_hand_in_play_none(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    table = await make_table(rounds=4)
    done = await play_round(table, discard_win(0, 2, 8, 3))
    code = await store.replay_code(done.id)
    assert code is not None and len(code) == LENGTH and set(code) <= set(ALPHABET)
    record = await store.round_by_code(code.lower())
    assert record is not None and record.info.id == done.id and record.guild_id == GUILD
    assert await store.round_by_code(f" {code[:3]}-{code[3:]} ") == record

    info = await store.begin_round(table.id, seed="5eed", setup=setup_for())
    await store.append_action(info.id, 0, {"seat": 0, "action": "discard", "tile": "5m"})
    assert await store.replay_code(info.id) is None
    assert await store.round_by_code("ZZZZZZ") is None


async def test_codes_name_their_own_server(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound
) -> None:
    here = await make_table(rounds=1)
    there = await make_table((ERIN, BOB, CAROL, DAVE), guild_id=OTHER_GUILD, rounds=1)
    mine = await play_round(here, discard_win(0, 2, 8, 3))
    theirs = await play_round(there, discard_win(0, 2, 8, 3))
    codes = {await store.replay_code(mine.id), await store.replay_code(theirs.id)}
    assert None not in codes and len(codes) == 2
    for info, guild_id in ((mine, GUILD), (theirs, OTHER_GUILD)):
        code = await store.replay_code(info.id)
        assert code is not None
        record = await store.round_by_code(code)
        assert record is not None and record.guild_id == guild_id


async def test_a_profile_has_history_placements_fans_and_the_biggest_hand(
    store: SqlStore, make_table: MakeTable, play_round: PlayRound, clock: FakeClock
) -> None:
    fans = [{"id": "all_pungs", "zh": "对对胡", "en": "All Pungs", "fan": 2, "count": 1}]
    for place_first in (True, False, True):
        table = await make_table(rounds=1)
        result = discard_win(0 if place_first else 1, 3, 8, 3 if place_first else 1)
        wins = [dataclasses.replace(result.wins[0], fans=fans)]
        await play_round(table, dataclasses.replace(result, wins=wins))
        clock.advance(hours=1)
    profile = await store.player_profile(ALICE, guild_id=GUILD)
    assert profile.stats.games == 3 and profile.stats.wins == 2
    assert profile.placements == (2, 1, 0, 0)
    assert [point.placement for point in profile.history] == [1, 2, 1]
    assert [point.rating.sessions for point in profile.history] == [1, 2, 3]
    assert profile.rating is not None and profile.rating.sessions == 3
    assert profile.history[-1].rating.mu == pytest.approx(profile.rating.mu)
    assert [(f.fan_id, f.count) for f in profile.fans] == [("all_pungs", 2)]
    assert profile.biggest is not None and profile.biggest.total == 3
    assert profile.biggest.fans[0]["id"] == "all_pungs"
    nobody = await store.player_profile(ERIN, guild_id=GUILD)
    assert nobody.rating is None and nobody.history == () and nobody.biggest is None


def test_every_stored_ai_level_has_a_fixed_rating_in_order_of_strength() -> None:
    mu = {STORED_LEVELS[n]: rating[0] for n, rating in AI_RATINGS.items()}
    assert set(mu) == set(STORED_LEVELS)
    assert mu["random"] < mu["easy"] < mu["basic"] < mu["normal"] < mu["strong"]
