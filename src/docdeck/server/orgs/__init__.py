"""Organizations."""
