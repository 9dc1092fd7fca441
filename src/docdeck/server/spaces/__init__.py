"""Spaces, and moves and sibling order shared with collections."""
