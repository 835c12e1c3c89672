"""Delimited text (.csv, .tsv, .txt): reading, writing, and keeping formulas from running in Excel."""
