"""Pure mahjong rules: standard library only, no I/O; deterministic from options, seed, actions."""
