"""Use cases: what the HTTP and WebSocket layers ask of the game."""
