"""One module per API area."""
