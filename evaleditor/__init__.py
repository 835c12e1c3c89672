"""evaleditor: an offline editor and checker for AI-agent evaluation datasets."""

__version__ = "0.1.0"
