-- Caps on the lobbies open at once in a server, set with /admin config: per member who
-- opened them and for the whole server; 0 means no cap.

ALTER TABLE guilds ADD COLUMN lobbies_per_member INTEGER NOT NULL DEFAULT 3
    CHECK (lobbies_per_member >= 0);
ALTER TABLE guilds ADD COLUMN lobbies_per_server INTEGER NOT NULL DEFAULT 20
    CHECK (lobbies_per_server >= 0);

CREATE INDEX tables_lobbies ON tables (guild_id, creator_id) WHERE status = 'lobby';
