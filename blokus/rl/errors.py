"""Errors raised by the environments (both are ``ValueError``)."""

from __future__ import annotations

__all__ = ["EnvConfigError", "IllegalActionError"]


class EnvConfigError(ValueError):
    """An environment option that names nothing known (variant, seating,
    reward rule, scoring rule, render mode, opponent, seat)."""


class IllegalActionError(ValueError):
    """An action that is not a legal placement for the colour to move; the
    environment is left unchanged."""
