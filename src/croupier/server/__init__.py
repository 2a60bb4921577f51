"""The table server's HTTP and WebSocket edge: thin routes over ``croupier.service``."""
