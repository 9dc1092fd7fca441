"""OpenAPI specifications and their versions: the API, the background processing (fetch,
parse, validate, version), and the raw text served for public specs."""
