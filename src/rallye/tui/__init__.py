"""The terminal: play, rules and records, rendered with rich from players' views."""
