"""Buttons and select menus: built from the engine's legal actions, understood from
their custom_id alone."""
