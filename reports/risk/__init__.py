"""Delay risk: facts read from the database, scored by fixed weights, explained in words."""
