"""The web table (issue 22): a seat at a board99 table from any browser on the LAN (docs/web.md)."""
