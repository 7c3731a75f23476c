"""Persistence: SQLAlchemy models, the async session factory and the repository."""
