"""One router per area of the API."""

from docdeck.models._base import build_request_bodies_at_once

build_request_bodies_at_once()  # before any route reads a body model
