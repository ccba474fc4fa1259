"""Message types and the msgpack codec (the only msgpack importer)."""
