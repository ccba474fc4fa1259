"""The arcade desktop client: network thread, client state, playback and views."""
