"""The worked examples of mcr.md §6.2 and §6.3 as round scripts: test_mcr_party_examples
plays them as they are, the option tests vary them."""

from __future__ import annotations

from tests.engine.rules.mcr.mcr_scripts import bets, script

# Seat 1 chows the dealer's 1m and self-draws 1s: 清龙 16, 平和 2, 喜相逢 1, 自摸 1 = 20.
P1 = script(
    [
        "1m5m9p2468p579sESWC",
        "23456789m11p23sN",
        "13579m1357p135sF",
        "2468m2468p2468sP",
    ],
    bets((4, 2, 1, 2))
    + ", 0 discard 1m, 1 chow 123m, 1 discard N, 2 discard E, 3 discard S, 0 discard W, 1 win",
    draws="ESW1s",
    options={"horses": False, "wildcard": False},
)


# Seat 2 wins 12 (三色三同顺 8, 门前清 2, 平和 2) on seat 1's 2p; horses 3p and 6s bought
# by seat 0, 白 by seat 3.
P2 = script(
    [
        "1m5m9p68p579sESWNCP",
        "13579m579p1357sE",
        "123m123p123s34p99s",
        "2468m468p2468sSW",
    ],
    bets(horses={0: "1.2", 3: "3"}) + ", 0 discard N, 1 discard 2p, 2 win",
    draws="2p",
    horses="3p6s7z8m8p8s",
    indicator="F",
)


# The dealer self-draws 9p: 清一色 24, 不求人 4, 连六 1, 幺九刻 1 = 30.
P3 = script(
    [
        "1112334567899pN",
        "13579m1357s5pESW",
        "2468m2468s168pFP",
        "13579m2468s7pSWE",
    ],
    bets((2, 1, 1, 2), {1: "1", 2: "2.3", 0: "4"})
    + ", 0 discard N, 1 discard E, 2 discard F, 3 discard W, 0 win",
    draws="EFW9p",
    horses="5m2s4z1z8m9m",
    indicator="C",
)


# Dice 5-5 with 天降财神 28; seat 1 wins the W2 hand (19, 9s standing for 3m) on the
# dealer's second discard (not his first: no 地和).
P4 = script(
    [
        "1m3p9p68p579s1sESWNC",
        "12456789m9sEE55p",
        "13579m1357p135sF",
        "2468m2468p2468sP",
    ],
    bets() + ", 0 discard N, 1 discard S, 2 discard W, 3 discard C, 0 discard 5p, 1 win",
    draws="SWC5p",
    indicator="9s",
    dice=(5, 5),
    wealth_fan=28,
)


# W1: seat 3 holds a 2p (wild) and wins naturally on seat 2's 8s: 22 with 无宝 8.
W1 = script(
    [
        "1m3p9p68p579s1sESWNC",
        "13579m1357p135sF",
        "13579m1357p9sNFP",
        "234m234p234s67s55m",
    ],
    bets() + ", 0 discard N, 1 discard F, 2 discard 8s, 3 win",
    draws="F8s",
    indicator="2p",
)


# W3: the dealer self-draws a wildcard 9s, which stands for 5s; his held 9s stays itself.
W3 = script(
    [
        "123m456p789s5sEEEN",
        "13579m1357p135sF",
        "2468m2468p2468sP",
        "13579m2468p246sS",
    ],
    bets() + ", 0 discard N, 1 discard F, 2 discard P, 3 discard S, 0 win",
    draws="FPS9s",
    indicator="9s",
)
