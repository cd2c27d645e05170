-- When an admin first saved the server's settings. A server no admin has configured uses
-- the bot's default timers (DEFAULT_TURN_TIMER / DEFAULT_CLAIM_TIMER); telling the two
-- apart by the settings themselves failed for an admin who chose the built-in values.
-- A row saved after it was made was saved by an admin.

ALTER TABLE guilds ADD COLUMN configured_at INTEGER;

UPDATE guilds SET configured_at = updated_at WHERE updated_at > created_at;
