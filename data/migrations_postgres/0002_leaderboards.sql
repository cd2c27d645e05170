-- PostgreSQL's version of data/migrations/0002_leaderboards.sql.
-- Maintained per-player totals, so leaderboards read a few index entries instead of
-- aggregating round_players. One row per (scope, variant, period, user):
--   scope   a guild id, or 0 for every server together;
--   variant a rule set, or 'all';
--   period  'all', '30d' or '7d' (whole UTC days, today included).
-- data/stats.py keeps them equal to the aggregate of round_players over each window.

CREATE TABLE player_totals (
    scope      BIGINT  NOT NULL,
    variant    TEXT    NOT NULL CHECK (variant IN ('mcr', 'guangdong', 'sichuan', 'all')),
    period     TEXT    NOT NULL CHECK (period IN ('all', '30d', '7d')),
    user_id    BIGINT  NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 0),
    wins       INTEGER NOT NULL CHECK (wins >= 0),
    self_draws INTEGER NOT NULL CHECK (self_draws >= 0),
    deal_ins   INTEGER NOT NULL CHECK (deal_ins >= 0),
    net        BIGINT  NOT NULL,
    best_hand  INTEGER,
    -- STORED, as PostgreSQL indexes no virtual column. NULLIF, as PostgreSQL refuses the
    -- division by zero that SQLite reads as NULL: a row a day's expiry empties has games = 0
    -- until it is deleted.
    win_rate   DOUBLE PRECISION
               GENERATED ALWAYS AS (CAST(wins AS DOUBLE PRECISION) / NULLIF(games, 0)) STORED,
    PRIMARY KEY (scope, variant, period, user_id)
);

-- games is in each index so the minimum-games filter is checked without reading the row.
CREATE INDEX player_totals_net
    ON player_totals (scope, variant, period, net DESC, user_id, games);
CREATE INDEX player_totals_win_rate
    ON player_totals (scope, variant, period, win_rate DESC, games DESC, user_id);
CREATE INDEX player_totals_best_hand
    ON player_totals (scope, variant, period, best_hand DESC, user_id, games)
    WHERE best_hand IS NOT NULL;
-- Rows a day's expiry brought to zero games, found without scanning the period.
CREATE INDEX player_totals_emptied ON player_totals (period) WHERE games = 0;

-- The last UTC day each period's totals were brought up to; NULL until first built, which
-- then happens from round_players (this also fills the totals of rounds stored before now).
CREATE TABLE stat_windows (
    period     TEXT PRIMARY KEY CHECK (period IN ('all', '30d', '7d')),
    as_of_day  INTEGER
);

INSERT INTO stat_windows (period, as_of_day) VALUES ('all', NULL), ('30d', NULL), ('7d', NULL);
