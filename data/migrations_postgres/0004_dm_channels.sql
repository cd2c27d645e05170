-- PostgreSQL's version of data/migrations/0004_dm_channels.sql.
-- Each player's DM channel with the bot, so a restarted bot reaches every seated player
-- without opening their DM channel again (Discord allows five openings a second).

ALTER TABLE players ADD COLUMN dm_channel_id BIGINT;
