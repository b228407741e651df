"""A tiny, randomly initialised Stable Diffusion inpainting pipeline, built on disk offline.

A UNet (9 input channels: latents, masked-image latents, mask), a VAE and a CLIP text encoder,
all a few hundred kilobytes, with a byte-level CLIP tokenizer whose vocabulary is written here (the
256 byte symbols, their word-final forms and the two special tokens; no merges), its
``model_max_length`` set to 77. Nothing is downloaded. It renders noise, which is all a test of
the editor plumbing needs.
"""

from __future__ import annotations

import json
from pathlib import Path


def _byte_symbols() -> list[str]:
    """GPT-2 / CLIP byte-to-unicode table (printable stand-ins for the 256 bytes)."""
    bs = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return [chr(c) for c in cs]


def build_tiny_inpaint(root: Path, seed: int = 0) -> Path:
    """Save the pipeline under ``root`` and return it."""
    import torch
    from diffusers import (
        AutoencoderKL,
        DDIMScheduler,
        StableDiffusionInpaintPipeline,
        UNet2DConditionModel,
    )
    from transformers import CLIPTextConfig, CLIPTextModel, CLIPTokenizer

    torch.manual_seed(seed)
    unet = UNet2DConditionModel(
        block_out_channels=(32, 64), layers_per_block=1, sample_size=16, in_channels=9, out_channels=4,
        down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"),
        up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"),
        cross_attention_dim=32, attention_head_dim=4, norm_num_groups=8,
    )  # fmt: skip
    vae = AutoencoderKL(
        block_out_channels=(16, 32), in_channels=3, out_channels=3, latent_channels=4,
        down_block_types=("DownEncoderBlock2D",) * 2, up_block_types=("UpDecoderBlock2D",) * 2,
        norm_num_groups=8, sample_size=32,
    )  # fmt: skip
    text = CLIPTextModel(
        CLIPTextConfig(
            bos_token_id=0, eos_token_id=2, pad_token_id=1, hidden_size=32, intermediate_size=37,
            num_attention_heads=4, num_hidden_layers=2, vocab_size=1000, max_position_embeddings=77,
        )
    )  # fmt: skip
    vocab: dict[str, int] = {"<|startoftext|>": 0, "!": 1, "<|endoftext|>": 2}
    for sym in _byte_symbols():
        vocab.setdefault(sym, len(vocab))
    for sym in _byte_symbols():
        vocab.setdefault(sym + "</w>", len(vocab))
    tok_dir = root / ".tokenizer-src"
    tok_dir.mkdir(parents=True, exist_ok=True)
    (tok_dir / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (tok_dir / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
    tokenizer = CLIPTokenizer(
        str(tok_dir / "vocab.json"), str(tok_dir / "merges.txt"), model_max_length=77
    )
    scheduler = DDIMScheduler(
        beta_start=0.00085,
        beta_end=0.012,
        beta_schedule="scaled_linear",
        clip_sample=False,
        set_alpha_to_one=False,
        steps_offset=1,
    )
    pipe = StableDiffusionInpaintPipeline(
        vae=vae, text_encoder=text, tokenizer=tokenizer, unet=unet, scheduler=scheduler,
        safety_checker=None, feature_extractor=None, requires_safety_checker=False,
    )  # fmt: skip
    out = root / "pipeline"
    pipe.save_pretrained(out)
    return out
