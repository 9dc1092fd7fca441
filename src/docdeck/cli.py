"""The `docdeck` command."""


def main(argv: list[str] | None = None) -> int:
    return 0
