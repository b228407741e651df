"""forgebench: build and run image-forgery benchmarks for multimodal models."""

__version__ = "0.1.0"
