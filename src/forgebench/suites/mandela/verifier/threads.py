"""The verifier's two tool threads (see :mod:`forgebench.util.one_thread` for why tools run on a
fixed thread): OCR on one, face detection and scene matching on the other, so an image's OCR
overlaps the next image's scene match on a second core while memory stays that of two threads."""

from __future__ import annotations

from forgebench.util.one_thread import OneThread

OCR = OneThread("forgebench-ocr")
"""RapidOCR's onnxruntime sessions."""
VISION = OneThread("forgebench-vision")
"""OpenCV: YuNet + SFace (faces) and SIFT + FLANN (scenes)."""
