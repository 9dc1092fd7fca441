"""Organization members."""
