"""docdeck: a terminal explorer for a documentation platform's v1 management API."""

__version__ = "0.1.0"
