"""HTTP and WebSocket endpoints: thin, they call the services."""
