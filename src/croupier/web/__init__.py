"""The web pages of the table server: sign-up and sign-in, the lobby, a table per game, the
player's balance and history, the recall of a past round, and the operator's page.

``croupier.web.install(app)`` serves them from the server's FastAPI app.
"""

from croupier.web.routes import install, router

__all__ = ["install", "router"]
