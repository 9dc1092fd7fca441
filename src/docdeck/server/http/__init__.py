"""The request path: the ASGI guard, intake, the fast lane and its answer cache, routing by
index, deferred routes, error handlers, the OpenAPI document, tokens and the request context."""
