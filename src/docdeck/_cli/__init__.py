"""The `docdeck` subcommands, one module each, imported only when that command runs."""
