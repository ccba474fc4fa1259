"""What operators see and use: the HTTP probes and metrics, the log's format, Agones.
"""
