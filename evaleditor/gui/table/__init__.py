"""The cases table: its Qt model, view, headers, painting, editors and clipboard."""
