"""Bots for both games. They see views, never states."""
