"""Errors that carry a one-line reason for the user (never a traceback)."""

from __future__ import annotations


class EvalEditorError(Exception):
    """Base: str(err) is the one-line reason shown to the user."""


class ReadError(EvalEditorError):
    def __init__(self, path: object, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class WriteError(EvalEditorError):
    def __init__(self, path: object, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class Cancelled(EvalEditorError):
    """A long read or write was cancelled by the user."""
