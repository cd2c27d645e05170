from bot.deliveries import Deliveries


def test_a_second_delivery_is_refused_while_the_token_lives() -> None:
    now = [0.0]
    seen = Deliveries(keep=900, clock=lambda: now[0])
    assert seen.first(1) and seen.first(2)
    assert not seen.first(1)
    now[0] = 901
    # Past the token's life nobody can answer it any more; its id is forgotten.
    assert seen.first(1)
    assert len(seen._seen) == 1
