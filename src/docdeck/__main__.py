from docdeck.cli import run

run()
