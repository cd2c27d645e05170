"""Live tables: the lobby, the hands in play, timers, and what each player is shown."""
