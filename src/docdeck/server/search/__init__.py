"""Search across an organization's spaces, and the full-text index it reads."""
