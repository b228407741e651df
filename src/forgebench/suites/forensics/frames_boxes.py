"""Options given as numbers: frame index lists ("[ 0, 1, 5 ]", "frames 3 through 5", "the first
two frames", "the last two frames" where the question gives the count) and boxes ("[x, y, w, h]",
corner pairs, "x=186, y=122, w=333, h=196"), read by :mod:`.option_text`.
"""

from __future__ import annotations

import re

from forgebench.suites.forensics import other_languages as other

NUM = re.compile(r"-?\d+")
LIST = re.compile(r"\[[\s\d,]*\]")
"""A bracketed list of numbers ("[ 0, 1, 5 ]")."""
_BOX = re.compile(r"\[\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\]")
_FORGED_TEXT = re.compile(r"forged[ _]text\W+\[([\s\d,]*)\]")


def boxes_of(text: str) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...] | None]:
    t = text.lower()
    boxes = tuple(sorted(tuple(int(x) for x in m.groups()) for m in _BOX.finditer(t)))
    ft = _FORGED_TEXT.search(t)
    forged = tuple(sorted(int(x) for x in NUM.findall(ft.group(1)))) if ft else None
    return boxes, forged


_FRAME_RUN = re.compile(
    r"\b(?:frames?|ind(?:ex|exes|ices))\s*(?:index(?:es)?|indices|numbers?)?\s*(?:are|is|:|=|#)?\s*"
    r"(\d+(?:\s*(?:,\s*and|,|and|&)\s*\d+)*)(?!\d|\.\d)",
    re.IGNORECASE,
)


_FRAME_RANGE = re.compile(
    r"\bframes?\s*#?\s*(\d+)\s*(?:-|–|to|through|thru|until)\s*#?\s*(\d+)(?!\d|\.\d)", re.I
)
_BARE_NUMBERS = re.compile(r"[^\w\[]*(?:only\s+)?(\d+(?:\s*(?:,\s*and|,|and|&|\s)\s*\d+)*)[\W]*")
_DIGIT_WORDS = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
                "six": "6", "seven": "7", "eight": "8", "nine": "9"}  # fmt: skip
_DIGIT_WORD = re.compile(r"\b(" + "|".join(_DIGIT_WORDS) + r")\b", re.I)


_FIRST_FRAMES = re.compile(
    r"\b(?:the\s+)?(?:first|opening|initial)\s+(?:(\d+)\s+frames|frame)\b", re.I
)


def _first_frames(m: re.Match[str]) -> str:
    """ "the first two frames": frames 0 and 1 (indexes start at 0)."""
    n = int(m.group(1) or 1)
    return "frames " + ", ".join(map(str, range(n))) if 1 <= n <= 64 else m.group(0)


def _expanded(m: re.Match[str]) -> str:
    a, b = int(m.group(1)), int(m.group(2))
    return "frames " + ", ".join(map(str, range(a, b + 1))) if 0 <= b - a <= 64 else m.group(0)


_LAST_FRAMES = re.compile(
    r"\b(?:the\s+)?(?:last|final)\s+(?:(\d+|" + "|".join(_DIGIT_WORDS) + r")\s+frames|frame)\b",
    re.I,
)
FRAME_COUNT = re.compile(r"\bset\s+of\s+(\d+)\s+frames\b", re.I)
"""The number of frames a question gives ("in the given set of 8 frames")."""


def last_frames(text: str, count: int) -> str:
    """ "the last two frames" as the indexes they are, where the question gives the count."""

    def indexes(m: re.Match[str]) -> str:
        n = int(_DIGIT_WORDS.get((m.group(1) or "1").lower(), m.group(1) or "1"))
        return (
            "frames " + ", ".join(map(str, range(count - n, count)))
            if 1 <= n <= count
            else m.group(0)
        )

    def to_end(m: re.Match[str]) -> str:
        a = int(m.group(1))
        return "frames " + ", ".join(map(str, range(a, count))) if 0 <= a < count else m.group(0)

    return _TO_THE_END.sub(to_end, _LAST_FRAMES.sub(indexes, text))


_TO_THE_END = re.compile(
    r"\b(?:from\s+)?frames?\s+(\d+)\s+(?:to|through|until|till|up\s+to)\s+the\s+(?:end|last(?:\s+(?:one|frame))?)\b",
    re.I,
)
"""A run to the end ("from frame 5 to the end"): its indexes, where the question gives the count."""


def frames(text: str) -> list[frozenset[int]]:
    """Index sets the answer names: bracketed lists, runs of numbers (or number words) after
    "frame(s)" or "index/indices", ranges ("frames 3 through 5") and an answer of bare numbers."""
    text = _DIGIT_WORD.sub(lambda m: _DIGIT_WORDS[m.group(1).lower()], other.frame_words(text))
    text = _FIRST_FRAMES.sub(_first_frames, text)
    text = _FRAME_RANGE.sub(_expanded, text)
    out = [frozenset(int(x) for x in NUM.findall(m.group(0))) for m in LIST.finditer(text)]
    bare = _BARE_NUMBERS.fullmatch(text)
    if bare:
        out.append(frozenset(int(x) for x in NUM.findall(bare.group(1))))
    out += [
        frozenset(int(x) for x in NUM.findall(m.group(1)))
        for m in _FRAME_RUN.finditer(text)
        if not _BOUNDARY.search(text, max(0, m.start() - 12), m.start())
    ]
    return out


_BOUNDARY = re.compile(r"\b(?:past|after|before|until|beyond|since)\s+$", re.I)
"""A frame named as a boundary ("once we get past frame 5"), not as forged."""


_CORNERS = re.compile(
    r"\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*(?:to|-|–|—|and|,)\s*(?:corner\s*)?(?:(?:the\s+)?(?:bottom[\s-]*right|lower[\s-]*right)"
    r"(?:\s+corner)?\s*(?:at|is|[:=])?\s*)?"
    r"\(\s*(\d+)\s*,\s*(\d+)\s*\)",
    re.I,
)


def loose_boxes(text: str) -> tuple[tuple[int, ...], ...]:
    """Boxes written without brackets: corner pairs "(x1, y1) to (x2, y2)" (as x, y, w, h), or
    the answer's integers in fours ("x=186, y=122, w=333, h=196", "1, 120, 295, 192")."""
    corners = list(_CORNERS.finditer(text))
    if corners:
        out = []
        for m in corners:
            x1, y1, x2, y2 = (int(g) for g in m.groups())
            out.append((x1, y1, x2 - x1, y2 - y1))
        return tuple(sorted(out))
    nums = [int(n) for n in re.findall(r"(?<![\d.])\d+(?![\d.]\d)", text)]
    if not nums or len(nums) % 4:
        return ()
    return tuple(sorted(tuple(nums[i : i + 4]) for i in range(0, len(nums), 4)))


CLEAN_BOX = re.compile(
    r"[^.;\n]*\[[\d\s,]+\][^.;\n]*?\b(?:looks?|seems?|appears?|is|are)\s+(?:\w+\s+)?(?:normal|clean|"
    r"natural|original|authentic|untouched|fine|unaltered|genuine|consistent)\b[^.;\n]*",
    re.I,
)
"""A sentence that calls the box it gives untouched."""
