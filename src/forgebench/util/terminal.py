"""The terminal as the one place outside text is printed: :class:`SafeConsole`.

Whatever a command prints (a server's error text, a dataset's question, a model's name, an
answer) passes through the console's rendering, where every control character of the text is
written as a visible escape (:func:`forgebench.util.text.printable`: ``ESC`` as ``\\x1b``): a
hostile 401 body cannot retitle the window, clear the screen or write the clipboard (OSC 52).
rich's own styles and cursor controls (progress bars) are not text and pass unchanged.

Rich markup and emoji codes are off by default: a model named ``openai/[/]x`` or
``openai/[link=file:///etc/passwd]x[/link]`` prints as written. A call that wants markup passes
``markup=True`` and escapes what it did not write with
:func:`forgebench.util.text.markup_safe`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.segment import Segment

from forgebench.util.text import printable


class SafeConsole(Console):
    """A rich console that never writes a control character of the text it prints."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("markup", False)
        kwargs.setdefault("emoji", False)
        super().__init__(**kwargs)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        safe = (
            seg if seg.control else Segment(printable(seg.text), seg.style, seg.control)
            for seg in buffer
        )
        return super()._render_buffer(safe)
