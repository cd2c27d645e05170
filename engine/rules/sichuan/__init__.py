"""四川 血战到底: 108 tiles, 换三张, 定缺, play until three have won, 查叫, 根, water money."""
