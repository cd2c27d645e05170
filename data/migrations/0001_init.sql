-- Players, servers, room cards, tables, rounds and their results.
-- Timestamps are UTC milliseconds since the epoch; JSON lives in TEXT columns.
-- Defaults of settings are not repeated here: data/models.py holds them and every insert names them.

CREATE TABLE guilds (
    guild_id          INTEGER PRIMARY KEY,
    table_category_id INTEGER,
    turn_timer        INTEGER NOT NULL CHECK (turn_timer >= 0),
    claim_timer       INTEGER NOT NULL CHECK (claim_timer >= 0),
    starter_cards     INTEGER NOT NULL CHECK (starter_cards >= 0),
    daily_cards       INTEGER NOT NULL CHECK (daily_cards >= 0),
    room_card_prices  TEXT    NOT NULL CHECK (json_valid(room_card_prices)),
    card_payer        TEXT    NOT NULL CHECK (card_payer IN ('creator', 'split')),
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
) STRICT;

CREATE TABLE players (
    user_id              INTEGER PRIMARY KEY,
    display_name         TEXT,
    locale               TEXT,
    spectators_see_hand  INTEGER NOT NULL CHECK (spectators_see_hand IN (0, 1)),
    show_system_messages INTEGER NOT NULL CHECK (show_system_messages IN (0, 1)),
    auto_play_on_timeout INTEGER NOT NULL CHECK (auto_play_on_timeout IN (0, 1)),
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL
) STRICT;

-- card_balance caches the sum of the member's card_movements; the triggers below keep it so.
CREATE TABLE guild_members (
    guild_id     INTEGER NOT NULL REFERENCES guilds (guild_id),
    user_id      INTEGER NOT NULL REFERENCES players (user_id),
    display_name TEXT,
    card_balance INTEGER NOT NULL DEFAULT 0 CHECK (card_balance >= 0),
    joined_at    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id       INTEGER,
    lobby_message_id INTEGER,
    creator_id       INTEGER NOT NULL REFERENCES players (user_id),
    variant          TEXT    NOT NULL CHECK (variant IN ('mcr', 'guangdong', 'sichuan')),
    options          TEXT    NOT NULL CHECK (json_valid(options)),
    rounds           INTEGER NOT NULL CHECK (rounds >= 1),
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'disbanded')),
    -- Fixed when the table starts, so a later price change never touches a running table.
    price            INTEGER CHECK (price >= 0),
    card_payer       TEXT    CHECK (card_payer IN ('creator', 'split')),
    start_key        TEXT    UNIQUE,
    created_at       INTEGER NOT NULL,
    started_at       INTEGER,
    finished_at      INTEGER
) STRICT;

CREATE INDEX tables_open ON tables (status) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_channel ON tables (channel_id) WHERE channel_id IS NOT NULL;

CREATE TABLE seats (
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    chair        INTEGER NOT NULL CHECK (chair BETWEEN 0 AND 3),
    user_id      INTEGER REFERENCES players (user_id),
    ai_level     INTEGER CHECK (ai_level >= 0),
    display_name TEXT    NOT NULL,
    PRIMARY KEY (table_id, chair),
    UNIQUE (table_id, user_id),
    CHECK ((user_id IS NULL) <> (ai_level IS NULL))
) STRICT, WITHOUT ROWID;

-- The ledger is append-only; balance_after is the member's balance once the line is applied.
CREATE TABLE card_movements (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    kind          TEXT    NOT NULL
                  CHECK (kind IN ('grant', 'take', 'starter', 'daily', 'spend', 'refund')),
    delta         INTEGER NOT NULL CHECK (delta <> 0),
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    key           TEXT    NOT NULL UNIQUE,
    table_id      INTEGER REFERENCES tables (id),
    refund_of     INTEGER UNIQUE REFERENCES card_movements (id),
    actor_id      INTEGER,
    note          TEXT,
    created_at    INTEGER NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES guild_members (guild_id, user_id),
    CHECK ((kind IN ('grant', 'starter', 'daily', 'refund')) = (delta > 0)),
    CHECK ((kind = 'refund') = (refund_of IS NOT NULL)),
    CHECK ((kind IN ('spend', 'refund')) = (table_id IS NOT NULL))
) STRICT;

CREATE INDEX card_movements_member ON card_movements (guild_id, user_id, id);

CREATE TRIGGER card_movements_balance_check
BEFORE INSERT ON card_movements
WHEN NEW.balance_after IS NOT (
    SELECT card_balance + NEW.delta FROM guild_members
    WHERE guild_id = NEW.guild_id AND user_id = NEW.user_id
)
BEGIN
    SELECT RAISE(ABORT, 'card movement balance_after does not follow the member balance');
END;

CREATE TRIGGER card_movements_apply
AFTER INSERT ON card_movements
BEGIN
    UPDATE guild_members SET card_balance = NEW.balance_after
    WHERE guild_id = NEW.guild_id AND user_id = NEW.user_id;
END;

CREATE TRIGGER card_movements_no_update
BEFORE UPDATE ON card_movements
BEGIN
    SELECT RAISE(ABORT, 'card movements are append-only');
END;

CREATE TRIGGER card_movements_no_delete
BEFORE DELETE ON card_movements
BEGIN
    SELECT RAISE(ABORT, 'card movements are append-only');
END;

-- One row per hand (局). setup is the round script without its actions (Contract 2).
CREATE TABLE rounds (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    hand_number INTEGER NOT NULL CHECK (hand_number >= 1),
    dealer      INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
    dice        TEXT    NOT NULL CHECK (json_valid(dice)),
    seed        TEXT    NOT NULL,
    setup       TEXT    NOT NULL CHECK (json_valid(setup)),
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    next_dealer INTEGER CHECK (next_dealer BETWEEN 0 AND 3),
    UNIQUE (table_id, hand_number)
) STRICT;

CREATE UNIQUE INDEX rounds_open ON rounds (table_id) WHERE finished_at IS NULL;
CREATE INDEX rounds_finished ON rounds (finished_at) WHERE finished_at IS NOT NULL;

-- Every accepted action, stored before it is announced; (round_id, seq) refuses a second copy.
CREATE TABLE round_actions (
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    action   TEXT    NOT NULL CHECK (json_valid(action)),
    at       INTEGER NOT NULL,
    PRIMARY KEY (round_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER round_actions_no_update
BEFORE UPDATE ON round_actions
BEGIN
    SELECT RAISE(ABORT, 'round actions are append-only');
END;

CREATE TRIGGER round_actions_no_delete
BEFORE DELETE ON round_actions
BEGIN
    SELECT RAISE(ABORT, 'round actions are append-only');
END;

-- Results, in seats of the hand as the engine reports them.
CREATE TABLE round_wins (
    round_id  INTEGER NOT NULL REFERENCES rounds (id),
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    how       TEXT    NOT NULL,
    total     INTEGER NOT NULL CHECK (total >= 0),
    fans      TEXT    NOT NULL CHECK (json_valid(fans)),
    from_seat INTEGER CHECK (from_seat BETWEEN 0 AND 3),
    PRIMARY KEY (round_id, seat)
) STRICT, WITHOUT ROWID;

CREATE TABLE round_payments (
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    line     INTEGER NOT NULL CHECK (line >= 0),
    payer    INTEGER NOT NULL CHECK (payer BETWEEN 0 AND 3),
    payee    INTEGER NOT NULL CHECK (payee BETWEEN 0 AND 3),
    amount   INTEGER NOT NULL CHECK (amount > 0),
    reason   TEXT    NOT NULL,
    extra    TEXT    CHECK (extra IS NULL OR json_valid(extra)),
    PRIMARY KEY (round_id, line)
) STRICT, WITHOUT ROWID;

-- Each chair's result of a finished hand: history, statistics and leaderboards read this.
-- guild_id, variant and finished_at repeat the round's so a player's rows need no join.
CREATE TABLE round_players (
    round_id    INTEGER NOT NULL REFERENCES rounds (id),
    chair       INTEGER NOT NULL CHECK (chair BETWEEN 0 AND 3),
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id     INTEGER REFERENCES players (user_id),
    guild_id    INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    finished_at INTEGER NOT NULL,
    net         INTEGER NOT NULL,
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    how         TEXT,
    hand_total  INTEGER,
    self_draw   INTEGER NOT NULL CHECK (self_draw IN (0, 1)),
    dealt_in    INTEGER NOT NULL CHECK (dealt_in >= 0),
    PRIMARY KEY (round_id, chair)
) STRICT, WITHOUT ROWID;

CREATE INDEX round_players_user ON round_players (user_id, finished_at) WHERE user_id IS NOT NULL;
