"""The refusals of a policy, as typed exceptions carrying the framework's message.

Each also derives from the built-in exception NumPy raises for the same refusal, so code that
catches ``TypeError`` or ``OverflowError`` keeps working.
"""
from __future__ import annotations


class PromoteError(Exception):
    """A call the policy refuses. ``kind`` is the machine interface's error kind."""

    kind: str = "invalid"

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if kind is not None:
            self.kind = kind

    @property
    def token(self) -> str:
        """The answer token of the fixtures: ``!no_promotion``, ``!overflow``, ..."""
        return "!" + self.kind


class NoPromotion(PromoteError, TypeError):
    """The framework refuses to promote these operands implicitly (or to cast into ``out``)."""

    kind = "no_promotion"


class Overflow(PromoteError, OverflowError):
    """A Python scalar's value does not fit the dtype the framework gives it."""

    kind = "overflow"


class Unsupported(PromoteError, TypeError):
    """The op is not defined for the promoted dtype (or the framework lacks the dtype)."""

    kind = "unsupported"


class ValueRefused(PromoteError, ValueError):
    """The framework refuses an operand's value (the spec's ``value`` error kind)."""

    kind = "value"


class InvalidCall(PromoteError, ValueError):
    """The call itself is malformed: an unknown op, dtype or policy, a wrong operand count."""

    kind = "invalid"
