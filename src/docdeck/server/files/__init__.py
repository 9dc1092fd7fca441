"""Files: stored bytes and signed download links."""
