"""forgebench audit: metadata leakage and pixel-detector audits, checked against independent maths."""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import numpy as np
import pytest
import skimage.data
from PIL import Image
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.construct.audit_meta import jpeg_quality, metadata_audit
from forgebench.suites.mandela.construct.audit import auc_tpr, pixel_audit
from forgebench.suites.mandela.contract import Item

# find_spec, not importorskip: scikit-learn is imported by the audits that use it, when they run
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("sklearn") is None, reason="needs the construct extra (scikit-learn)"
)
runner = CliRunner()


@pytest.mark.parametrize("q", [30, 50, 75, 92, 95])
def test_jpeg_quality_is_recovered_from_the_quantisation_table(q: int) -> None:
    buf = io.BytesIO()
    Image.fromarray(skimage.data.astronaut()).save(buf, "JPEG", quality=q)
    buf.seek(0)
    with Image.open(buf) as im:
        assert jpeg_quality(im.quantization[0]) == q  # type: ignore[attr-defined]


def test_auc_and_tpr_at_5_percent_fpr_match_independent_computations() -> None:
    from scipy.stats import mannwhitneyu  # here, not in every worker's collection (0.8 s)

    rng = np.random.default_rng(3)
    y = np.r_[np.ones(60, int), np.zeros(40, int)]
    s = np.r_[rng.normal(0.7, 1, 60), rng.normal(0, 1, 40)]
    auc, tpr = auc_tpr(y.tolist(), s.tolist())
    u = mannwhitneyu(s[y == 1], s[y == 0]).statistic
    assert auc == pytest.approx(u / (60 * 40))
    # brute force: every threshold, the best TPR whose FPR is at most 5%
    best = max(
        ((s[y == 1] >= t).mean() for t in np.r_[s, np.inf] if (s[y == 0] >= t).mean() <= 0.05),
        default=0.0,
    )
    assert tpr == pytest.approx(best)


def _dataset(root: Path, n_seeds: int = 12, leak: bool = True) -> list[Item]:
    """Seeds with an authentic JPEG and a forged image (PNG when ``leak``, else JPEG too)."""
    base = skimage.data.chelsea()
    rows = []
    (root / "images").mkdir(parents=True)
    for i in range(n_seeds):
        crop = np.ascontiguousarray(base[i * 8 : i * 8 + 200, i * 10 : i * 10 + 240])
        forged = crop.copy()
        forged[40:80, 40:100] = 255 - forged[40:80, 40:100]
        Image.fromarray(crop).save(root / "images" / f"s{i}.jpg", quality=92)
        ext = "png" if leak else "jpg"
        Image.fromarray(forged).save(
            root / "images" / f"s{i}f.{ext}", **({} if leak else {"quality": 92})
        )
        common = {"seed_id": f"s{i}", "domain": "A1", "noun": "photograph",
                  "event": {"label": f"event {i}", "date": "1990"}}  # fmt: skip
        rows.append({"id": f"s{i}-a", "image": f"images/s{i}.jpg", "label": "authentic", **common})
        rows.append({
            "id": f"s{i}-f", "image": f"images/s{i}f.{ext}", "label": "forged", "saliency": "C1",
            "family": "K2" if i % 2 else "K0", "edit": {"operation": "insert", "region": [40, 40, 100, 80]},
            **common,
        })  # fmt: skip
    (root / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return [Item.model_validate(r) for r in rows]


def test_metadata_audit_finds_a_format_leak(tmp_path: Path) -> None:
    items = _dataset(tmp_path / "d")
    res = metadata_audit(
        [tmp_path / "d" / it.image for it in items],
        [int(it.is_forged) for it in items],
        [it.seed_id for it in items],
    )
    assert res["auc"] > 0.95
    assert res["per_feature"]["format=PNG"] == pytest.approx(1.0)
    assert res["per_feature"]["width"] == 0.5  # constant: no signal
    with pytest.raises(ValueError, match="both forged and authentic"):
        metadata_audit([tmp_path / "d" / items[0].image], [0], ["s0"])


def test_pixel_audit_per_family(tmp_path: Path) -> None:
    items = _dataset(tmp_path / "d")
    scores = {it.id: (1.0 if it.is_forged and it.family == "K2" else 0.0) for it in items}
    res = pixel_audit(items, scores)
    assert res["K2"]["auc"] == 1.0 and res["K2"]["tpr_at_5fpr"] == 1.0
    assert res["K0"]["auc"] == 0.5 and res["K0"]["tpr_at_5fpr"] == 0.0
    assert res["all"]["n_forged"] == 12 and res["all"]["n_authentic"] == 12


def test_audit_command_prints_both_audits_and_writes_fields(tmp_path: Path) -> None:
    _dataset(tmp_path / "d", leak=False)
    r = runner.invoke(
        app, ["audit", str(tmp_path / "d"), "--write", "--json", str(tmp_path / "a.json")]
    )
    assert r.exit_code == 0, r.output
    assert "metadata-leakage audit (24 images, 12 forged): cross-validated AUC" in r.output
    assert "pixel-detector audit (builtin/artefact):" in r.output and "TPR@5%FPR" in r.output
    rows = [json.loads(x) for x in (tmp_path / "d" / "items.jsonl").read_text().splitlines()]
    forged = [x for x in rows if x["label"] == "forged"]
    assert all("artefact_score" in x and "footprint_measured" in x for x in forged)
    assert all(x["npr_score"] is None and x["ufd_score"] is None for x in rows)  # not run
    full = json.loads((tmp_path / "a.json").read_text())
    assert set(full) == {"metadata", "pixel", "scores", "footprint_measured"}
    bad = runner.invoke(app, ["audit", str(tmp_path / "d"), "--detector", "npr"])
    assert bad.exit_code == 2 and "unknown detector 'npr'" in bad.output
    none = runner.invoke(app, ["audit", str(tmp_path / "nothing")])
    assert none.exit_code == 2 and "nothing: no such dataset" in none.output


def _tiny_ufd(tmp_path: Path, dim: int = 16) -> tuple[Path, Path]:
    """A randomly initialised CLIP vision encoder with projection (reduced: 2 layers, 32 wide,
    patch 32 at 224 px; the released one is ViT-L/14) and a random linear head."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    cfg = transformers.CLIPVisionConfig(
        hidden_size=32, intermediate_size=37, num_hidden_layers=2, num_attention_heads=4,
        image_size=224, patch_size=32, projection_dim=dim,
    )  # fmt: skip
    model = transformers.CLIPVisionModelWithProjection(cfg)
    model.save_pretrained(tmp_path / "clip")
    torch.save({"weight": torch.randn(1, dim), "bias": torch.randn(1)}, tmp_path / "fc.pth")
    return tmp_path / "clip", tmp_path / "fc.pth"


def test_ufd_detector_matches_an_independent_forward_pass(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from scipy.special import expit
    from transformers import CLIPVisionModelWithProjection

    from forgebench.construct.detectors_ufd import CLIP_MEAN, CLIP_STD, load_ufd

    clip_dir, fc = _tiny_ufd(tmp_path)
    score = load_ufd(f"{clip_dir}@{fc}")
    img = skimage.data.chelsea()  # 300 x 451: cropped at top 38, left 114 (torchvision's rounding)
    crop = np.asarray(Image.fromarray(img).crop((114, 38, 114 + 224, 38 + 224)), np.float32) / 255.0
    x = (crop - np.array(CLIP_MEAN, np.float32)) / np.array(CLIP_STD, np.float32)
    model = CLIPVisionModelWithProjection.from_pretrained(clip_dir).eval()
    with torch.no_grad():
        feats = model(
            pixel_values=torch.from_numpy(x.transpose(2, 0, 1)).unsqueeze(0)
        ).image_embeds.numpy()
    head = torch.load(fc, weights_only=True)
    expected = float(expit(feats @ head["weight"].numpy().T + head["bias"].numpy())[0, 0])
    assert score(img) == pytest.approx(expected, abs=1e-6)
    small = score(img[:100, :120])  # zero-padded to 224, still a probability
    assert 0.0 < small < 1.0
    with pytest.raises(ValueError, match="not a saved CLIP vision model"):
        load_ufd(f"{tmp_path}@{fc}")
    torch.save({"weight": torch.randn(1, 8), "bias": torch.randn(1)}, tmp_path / "bad.pth")
    with pytest.raises(ValueError, match=r"head weight is \(1, 8\), the encoder gives 16-d"):
        load_ufd(f"{clip_dir}@{tmp_path / 'bad.pth'}")


def test_audit_writes_ufd_score_when_that_detector_ran(tmp_path: Path) -> None:
    clip_dir, fc = _tiny_ufd(tmp_path)
    _dataset(tmp_path / "d", n_seeds=6, leak=False)
    r = runner.invoke(
        app, ["audit", str(tmp_path / "d"), "--detector", f"ufd/{clip_dir}@{fc}", "--write"]
    )
    assert r.exit_code == 0, r.output
    assert f"pixel-detector audit (ufd/{clip_dir}@{fc}):" in r.output
    rows = [json.loads(x) for x in (tmp_path / "d" / "items.jsonl").read_text().splitlines()]
    assert all(0.0 < x["ufd_score"] < 1.0 for x in rows) and all(
        x["npr_score"] is None for x in rows
    )
    bad = runner.invoke(
        app, ["audit", str(tmp_path / "d"), "--detector", f"ufd/{tmp_path}/none@{fc}"]
    )
    assert bad.exit_code == 2 and "not a saved CLIP vision model" in bad.output


def test_npr_detector_loads_a_released_style_state_dict(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from scipy.special import expit

    from forgebench.construct.detectors_npr import IMAGENET_MEAN, IMAGENET_STD, build_npr, load_npr

    torch.manual_seed(1)
    net = build_npr()  # the full released configuration (3 + 4 bottlenecks), random weights
    sd = {f"module.{k}": v for k, v in net.state_dict().items()}  # a DataParallel-style save
    torch.save(sd, tmp_path / "NPR.pth")
    score = load_npr(str(tmp_path / "NPR.pth"))
    img = skimage.data.astronaut()[:101, :150]  # odd height: the last row is dropped
    # independent residual: nearest down/up-sampling by 2 is "repeat every other pixel"
    x = (
        img[:100, :150].astype(np.float32) / 255.0 - np.array(IMAGENET_MEAN, np.float32)
    ) / np.array(IMAGENET_STD, np.float32)
    x = x.transpose(2, 0, 1)[None]
    up = np.repeat(np.repeat(x[:, :, ::2, ::2], 2, axis=2), 2, axis=3)
    assert np.allclose(net.residual(torch.from_numpy(x)).numpy(), x - up, atol=1e-6)
    net.eval()
    with torch.no_grad():
        logit = float(net(torch.from_numpy(np.ascontiguousarray(x)))[0, 0])
    assert score(img) == pytest.approx(float(expit(logit)), abs=1e-6)
    torch.save({"conv1.weight": torch.zeros(1)}, tmp_path / "bad.pth")
    with pytest.raises(ValueError, match="does not fit the NPR network"):
        load_npr(str(tmp_path / "bad.pth"))
    _dataset(tmp_path / "d", n_seeds=6, leak=False)
    r = runner.invoke(
        app, ["audit", str(tmp_path / "d"), "--detector", f"npr/{tmp_path / 'NPR.pth'}", "--write"]
    )
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in (tmp_path / "d" / "items.jsonl").read_text().splitlines()]
    assert all(0.0 < x["npr_score"] < 1.0 for x in rows) and all(
        x["ufd_score"] is None for x in rows
    )
