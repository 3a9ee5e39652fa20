"""The web table: a seat at the table from any browser on the LAN (docs/web.md)."""
