"""Comments and replies on a space or a change request."""
