"""What two or more of the TUI's jobs use, written once."""
