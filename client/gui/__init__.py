"""The arcade client: lobby and table windows (import ``board99.client.gui.app`` to open one).

This package's ``__init__`` imports no arcade, so tools and tests can read the
palette and the asset paths without opening a display.
"""
