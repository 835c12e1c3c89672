"""The main window and what runs it: documents and panes, actions and menus, settings, undo, recovery."""
