"""SAML single sign-on: identity providers of an organization, its login entry points, and
the organization's `sso` flag that depends on them."""
