"""Docs sites: structure (sections, site spaces), publishing, redirects, customization."""
