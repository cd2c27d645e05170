-- Ratings, seasons and replay codes.
--
-- seasons: a server's numbered seasons, started and ended with /admin season; at most one
-- runs at a time in a server (partial unique index).
--
-- ratings: one row per (scope, season, variant, user), kept by data/ratings.py when a
-- session ends: scope is a guild or 0 for every server together, season a seasons.id or 0
-- for all time (every server together has only all time), variant a rule set or 'all'.
-- mu and sigma are the rating library's; rating = mu - 3 sigma is what boards order by.
-- The counts are of the rated sessions (tables that played all their hands) in that
-- scope and season, so a season's board by net or win rate reads this table too.
CREATE TABLE seasons (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    started_at INTEGER NOT NULL,
    started_by INTEGER,
    ended_at   INTEGER,
    UNIQUE (guild_id, number)
) STRICT;

CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;

CREATE TABLE ratings (
    scope      INTEGER NOT NULL,
    season     INTEGER NOT NULL,
    variant    TEXT    NOT NULL CHECK (variant IN ('mcr', 'guangdong', 'sichuan', 'all')),
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    rating     REAL    NOT NULL,
    sessions   INTEGER NOT NULL CHECK (sessions >= 0),
    hands      INTEGER NOT NULL CHECK (hands >= 0),
    wins       INTEGER NOT NULL CHECK (wins >= 0),
    deal_ins   INTEGER NOT NULL CHECK (deal_ins >= 0),
    net        INTEGER NOT NULL,
    best_hand  INTEGER,
    updated_at INTEGER NOT NULL,
    win_rate   REAL GENERATED ALWAYS AS (CAST(wins AS REAL) / hands) VIRTUAL,
    PRIMARY KEY (scope, season, variant, user_id)
) STRICT, WITHOUT ROWID;

-- One index per board order; sessions (or hands) in each so the minimum is checked in it.
CREATE INDEX ratings_rating ON ratings (scope, season, variant, rating DESC, user_id, sessions);
CREATE INDEX ratings_net ON ratings (scope, season, variant, net DESC, user_id, sessions);
CREATE INDEX ratings_win_rate
    ON ratings (scope, season, variant, win_rate DESC, hands DESC, user_id);
CREATE INDEX ratings_best_hand
    ON ratings (scope, season, variant, best_hand DESC, user_id, sessions)
    WHERE best_hand IS NOT NULL;

-- Every change of a rating: the /stats plot and the placements read a player's rows.
CREATE TABLE rating_history (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    scope     INTEGER NOT NULL,
    season    INTEGER NOT NULL,
    variant   TEXT    NOT NULL CHECK (variant IN ('mcr', 'guangdong', 'sichuan', 'all')),
    user_id   INTEGER NOT NULL,
    placement INTEGER NOT NULL CHECK (placement BETWEEN 1 AND 4),
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    rating    REAL    NOT NULL,
    at        INTEGER NOT NULL,
    PRIMARY KEY (table_id, scope, season, variant, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX rating_history_user ON rating_history (user_id, scope, season, variant, at);

-- A finished hand's short code for /replay; written when the hand finishes, so a hand in
-- play has none. guild_id repeats the round's server: a code resolves only there.
CREATE TABLE replay_codes (
    code     TEXT    PRIMARY KEY CHECK (length(code) = 6),
    round_id INTEGER NOT NULL UNIQUE REFERENCES rounds (id),
    guild_id INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
