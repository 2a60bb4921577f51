"""The web pages of the table server: sign-up and sign-in, the lobby, a table per game, the
player's balance and history, the recall of a past round, and the operator's page.

``croupier.web.install(app, runs_table=...)`` serves them from the server's FastAPI app, which
stands above them: the pages import nothing of the server, and their data comes over its API.
"""

from croupier.web.routes import install, router

__all__ = ["install", "router"]
