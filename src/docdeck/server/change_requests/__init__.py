"""Change requests: life cycle, content authoring, reviews, merges, PDF."""
