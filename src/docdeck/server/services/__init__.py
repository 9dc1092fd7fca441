"""Domain services: the rules of the API, separate from HTTP routing."""
