"""The server announced on the LAN (mDNS/DNS-SD).
"""
