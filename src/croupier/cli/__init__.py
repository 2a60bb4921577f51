"""The ``croupier`` command: thin commands over the library and the service layer."""
