"""The server's defaults that ``croupier serve --help`` prints, in a module that imports
nothing: ``server.rate_limits`` loads the limits library and Starlette."""

DEFAULT_RATE_LIMIT = "10/minute"
"""Sign-ins, and apart from them sign-ups, per client address."""

DEFAULT_TOKEN_RATE_LIMIT = "30/minute"
"""Requests with a token that is not a live session, per client address."""
