"""Translations of a space: the API, and the jobs that run through a translator."""
