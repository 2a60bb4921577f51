"""Learning environments over croupier's own round engine (issue 30).

``actions`` holds the stable action catalogue every environment speaks.
"""
