"""Tables in play with no Discord in them: the runtime decides, presenters show.

:class:`~bot.runtime.table.TableRuntime` owns a table's lock, its engine session, the
prompt numbers, the timers and the AI seats, and tells a listener what changed in frozen
snapshots (:mod:`bot.runtime.snapshots`). Nothing here imports discord.py.
"""
