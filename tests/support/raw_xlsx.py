"""Hand-made ``.xlsx`` files, part by part (hostile ones included): the zip members a spreadsheet
reader opens, written from strings or streamed from generators, so a test or benchmark can make
a 512 MB shared string in a 527 KB file, millions of rows, a lying size or a DOCTYPE.

Imported as ``from support.raw_xlsx import write_xlsx, sheet_xml, shared_xml``.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="xml" ContentType="application/xml"/></Types>'
)
WORKBOOK = (
    f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{NS}" xmlns:r="{REL}">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)


def _col(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


def sheet_xml(rows: Iterable[Sequence[str | int]]) -> Iterator[str]:
    """A worksheet's XML in pieces: ``int`` cells are shared-string indexes (``t="s"``), ``str``
    cells inline strings."""
    yield f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{NS}"><sheetData>'
    for r, row in enumerate(rows, start=1):
        cells = []
        for c, value in enumerate(row):
            ref = f"{_col(c)}{r}"
            if isinstance(value, int):
                cells.append(f'<c r="{ref}" t="s"><v>{value}</v></c>')
            else:
                cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{escape(value)}</t></is></c>')
        yield f'<row r="{r}">{"".join(cells)}</row>'
    yield "</sheetData></worksheet>"


def shared_xml(strings: Iterable[str | Iterable[str]]) -> Iterator[str]:
    """A shared-string table in pieces (an entry given as an iterable is streamed)."""
    yield f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{NS}">'
    for s in strings:
        yield "<si><t>"
        if isinstance(s, str):
            yield escape(s)
        else:
            yield from s
        yield "</t></si>"
    yield "</sst>"


def write_xlsx(
    path: Path,
    sheet: Iterable[str] | bytes,
    shared: Iterable[str] | bytes | None = None,
    *,
    workbook: str | bytes = WORKBOOK,
) -> Path:
    """An ``.xlsx`` at ``path`` from its parts (strings, pieces, or raw bytes), deflated."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        z.writestr("xl/workbook.xml", workbook)
        z.writestr("xl/_rels/workbook.xml.rels", RELS)
        parts = {"xl/worksheets/sheet1.xml": sheet, "xl/sharedStrings.xml": shared}
        for name, part in parts.items():
            if part is None:
                continue
            if isinstance(part, bytes):
                z.writestr(name, part)
                continue
            with z.open(name, "w", force_zip64=True) as fh:
                buf: list[str] = []
                size = 0
                for piece in part:
                    buf.append(piece)
                    size += len(piece)
                    if size > 1 << 20:
                        fh.write("".join(buf).encode())
                        buf, size = [], 0
                fh.write("".join(buf).encode())
    return path
