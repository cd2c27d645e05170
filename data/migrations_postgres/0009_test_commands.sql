-- PostgreSQL's version of data/migrations/0009_test_commands.sql.
-- When the bot last registered its slash commands in this server alone (DEV_GUILD_ID):
-- once the setting is gone, the bot removes those copies, which Discord would otherwise
-- keep beside the global commands, listing each twice there.

ALTER TABLE guilds ADD COLUMN test_commands_at BIGINT;
