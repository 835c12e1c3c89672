"""The panels around the table: the banner, the Issues panel, the conversation panel, the filter bar."""
