"""A folder a build wrote is kept only while it is exactly what that build wrote, from the same
inputs, with the same forgebench and libraries."""

from __future__ import annotations

import os
from importlib import metadata
from pathlib import Path

import pytest

from forgebench.util import built


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "dataset"
    (root / "images").mkdir(parents=True)
    (root / "items.jsonl").write_text('{"id": "a"}\n')
    (root / "images" / "a.png").write_bytes(b"\x89PNG pixels")
    return root


def test_a_remembered_folder_is_unchanged_until_forgotten(folder: Path) -> None:
    assert not built.unchanged(folder)  # never recorded
    built.remember(folder, "inputs-1")
    assert built.unchanged(folder, "inputs-1")
    assert not built.unchanged(folder, "inputs-2")  # built from something else
    assert (folder.parent / ".dataset.built.json").is_file()  # beside it, not inside
    assert sorted(p.name for p in folder.rglob("*")) == ["a.png", "images", "items.jsonl"]
    built.forget(folder)
    assert not built.unchanged(folder, "inputs-1")
    built.forget(folder)  # nothing to forget: no error


@pytest.mark.parametrize("change", ["edit", "add", "remove", "link", "same-size-edit", "empty"])
def test_any_change_to_its_files_means_building_again(folder: Path, change: str) -> None:
    built.remember(folder)
    image = folder / "images" / "a.png"
    if change == "edit":
        image.write_bytes(b"\x89PNG other pixels")
    elif change == "same-size-edit":
        image.write_bytes(b"\x89PNG pixelz")
        os.utime(image, ns=(0, 0))
    elif change == "add":
        (folder / "images" / "b.png").write_bytes(b"new")
    elif change == "remove":
        image.unlink()
    elif change == "link":
        target = folder.parent / "elsewhere.png"
        target.write_bytes(image.read_bytes())
        image.unlink()
        image.symlink_to(target)
    elif change == "empty":
        for p in sorted(folder.rglob("*"), reverse=True):
            p.rmdir() if p.is_dir() else p.unlink()
    assert not built.unchanged(folder)


def test_a_damaged_or_foreign_record_means_building_again(folder: Path) -> None:
    record = folder.parent / ".dataset.built.json"
    built.remember(folder)
    for text in ("", "{not json", "[]", '{"files": {}}', "\udcff"):
        record.write_text(text, errors="surrogateescape")
        assert not built.unchanged(folder)
    record.write_bytes(b"\xff\xfe\x00")
    assert not built.unchanged(folder)


def test_another_library_version_means_building_again(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built.remember(folder)
    assert built.unchanged(folder)
    installed = list(metadata.distributions(path=built._package_folders()))
    pillow = next(d for d in installed if d.metadata["Name"].lower() == "pillow")

    info = tmp_path / "pillow-upgraded.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {pillow.metadata['Name']}\n"
        f"Version: {pillow.version}.post1\n\nPython Imaging Library\n"
    )
    upgraded = metadata.PathDistribution(info)
    others = [d for d in installed if d is not pillow]
    monkeypatch.setattr(built.metadata, "distributions", lambda **_: [*others, upgraded])
    built.recipe.cache_clear()
    try:
        assert not built.unchanged(folder)
    finally:
        monkeypatch.undo()
        built.recipe.cache_clear()
    assert built.unchanged(folder)


def test_a_library_extending_sys_path_leaves_the_recipe_alone(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray, once imported, puts its bundled colorama and psutil first on ``sys.path``: a worker
    that had imported it called the demo's build changed (a full test run rebuilt it)."""
    built.remember(folder)
    bundled = tmp_path / "thirdparty_files"
    info = bundled / "colorama-0.4.6.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: colorama\nVersion: 0.4.6\n")
    assert any(
        d.metadata["Name"] == "colorama" for d in metadata.distributions(path=[str(bundled)])
    )
    monkeypatch.syspath_prepend(str(bundled))
    built.recipe.cache_clear()
    try:
        assert built.unchanged(folder)
    finally:
        monkeypatch.undo()
        built.recipe.cache_clear()


def test_the_recipe_covers_forgebench_files(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import forgebench

    package = tmp_path / "forgebench"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "module.py").write_text("A = 1\n")
    monkeypatch.setattr(forgebench, "__file__", str(package / "__init__.py"))
    built.recipe.cache_clear()
    try:
        first = built.recipe()
        (package / "module.py").write_text("A = 2\n")
        built.recipe.cache_clear()
        assert built.recipe() != first
        (package / "module.py").write_text("A = 1\n")
        (package / "__pycache__").mkdir()
        (package / "__pycache__" / "module.cpython.pyc").write_bytes(b"compiled")
        built.recipe.cache_clear()
        assert built.recipe() == first  # byte code is not part of it
    finally:
        monkeypatch.undo()
        built.recipe.cache_clear()


def test_digest_of_names_the_files_and_their_bytes(folder: Path, tmp_path: Path) -> None:
    first = built.digest_of(folder)
    assert first is not None and first == built.digest_of(folder)
    (folder / "items.jsonl").write_text('{"id": "b"}\n')
    assert built.digest_of(folder) != first
    assert built.digest_of(tmp_path / "missing") is None


@pytest.mark.parametrize(
    "files",
    [
        {"METADATA": "Metadata-Version: 2.1\nName: plain\nVersion: 1.0\n\nName: not-this\n"},
        {"METADATA": "Name: spaced  \nVersion:\t2.0 \nSummary: x\n\nVersion: 9\n"},
        {"METADATA": "Name: folded\nVersion: 3.0\n  .post1\n\nbody\n"},
        {"METADATA": "name: lower\nversion: 4.0\n\n"},
        {"METADATA": "Name: twice\nName: again\nVersion: 5.0\n"},
        {"METADATA": "Name: nobody\nVersion: 6.0"},
        {"METADATA": "", "PKG-INFO": "Name: egg\nVersion: 7.0\n\nlong text\n"},
        {"PKG-INFO": "Metadata-Version: 1.0\r\nName: crlf\r\nVersion: 8.0\r\n\r\n"},
        {"METADATA": "Name: cut\nnot a header\nVersion: 9.0\n\n"},
        {"METADATA": "Name: from\nFrom nowhere\nVersion: 10.0\n"},
    ],
)
def test_a_distributions_name_and_version_are_what_its_parsed_metadata_says(
    tmp_path: Path, files: dict[str, str]
) -> None:
    """The recipe reads each distribution's name and version from its header lines; they are
    exactly ``dist.metadata['Name']`` and ``dist.version`` (the full parse), odd headers too."""
    from importlib import metadata

    folder = tmp_path / "pkg-1.0.dist-info"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_bytes(text.encode())
    dist = metadata.PathDistribution(folder)
    assert built._name_version(dist) == f"{dist.metadata['Name']}=={dist.version}"


def test_every_installed_distribution_reads_as_its_parsed_metadata() -> None:
    from importlib import metadata

    dists = list(metadata.distributions(path=built._package_folders()))
    assert len(dists) > 10
    for dist in dists:
        assert built._name_version(dist) == f"{dist.metadata['Name']}=={dist.version}"
