"""Teams and their members."""
