"""Space content at its scopes (the current revision, any revision, a change request):
snapshots, the page tree, documents, links, imports."""
