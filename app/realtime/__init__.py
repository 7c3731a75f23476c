"""Real-time play: the WebSocket protocol, the per-game hub and the pub/sub fan-out."""
