"""The contract's cross-field rules (DESIGN.md conventions), used by :mod:`.validate`.

Each rule names the field it blames; which rules are errors and which are warnings is listed in
the docstring of :mod:`forgebench.suites.mandela.validate`.
"""

from __future__ import annotations

from typing import Protocol

from forgebench.suites.mandela.contract import Item


class _Sink(Protocol):
    def err(self, line: int, fld: str, msg: str) -> None: ...

    def warn(self, line: int, fld: str, msg: str) -> None: ...


def _contains(outer: tuple[int, ...], inner: tuple[int, ...]) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and outer[2] >= inner[2]
        and outer[3] >= inner[3]
    )


def check_item(v: _Sink, line: int, it: Item) -> None:
    """Rules that need one item only."""
    if it.label == "forged":
        if it.family is None:
            v.err(line, "family", "forged item has no family (expected one of K0..K6)")
    else:
        for name in ("family", "control_for", "k1_type", "variant", "edit"):
            value = getattr(it, name)
            if value is not None:
                shown = repr(value) if isinstance(value, str) else "an edit"
                v.err(line, name, f"authentic item must not have a {name} (got {shown})")
    if it.control_for is not None and it.family not in (None, "K0"):
        v.err(
            line,
            "control_for",
            f"only K0 controls name the family they control; this item is {it.family}",
        )
    if it.k1_type is not None and it.family not in (None, "K1"):
        v.err(line, "k1_type", f"k1_type is the K1 (people) subtype; this item is {it.family}")
    if it.label == "forged":
        _triple_member(v, line, it)
        _crop(v, line, it)


def _triple_member(v: _Sink, line: int, it: Item) -> None:
    if it.variant == "erase":
        if it.family not in (None, "K1"):
            v.err(line, "family", f"an erase member is K1, not {it.family}")
        if it.k1_type != "absent_celebrity":
            v.err(line, "k1_type", f"an erase member is absent_celebrity, got {it.k1_type!r}")
        if it.erased is None:
            v.err(line, "erased", "an erase member names the erased person (erased.name)")
    elif it.variant == "swap":
        if it.family not in (None, "K1"):
            v.err(line, "family", f"a swap member is K1, not {it.family}")
        if it.k1_type == "absent_celebrity":
            v.err(
                line,
                "k1_type",
                "a swap member is a named insertion (date_impossible or cross_domain), "
                "not absent_celebrity",
            )
    elif it.variant == "k0" and it.family not in (None, "K0"):
        v.err(line, "family", f"a k0 member is K0, not {it.family}")
    if it.k1_type == "absent_celebrity" and it.variant != "erase":
        v.err(
            line,
            "variant",
            f"absent_celebrity items are the erase member of their triple; got {it.variant!r}",
        )
    if it.variant != "erase":
        if it.erased is not None:
            v.warn(line, "erased", "only erase members use erased; it is ignored here")
        if it.faces is not None:
            v.warn(line, "faces", "only erase members run the FACE probe; faces is ignored here")


def _crop(v: _Sink, line: int, it: Item) -> None:
    if it.is_peripheral:
        if it.edit is None:
            v.err(line, "edit", f"peripheral item (saliency {it.saliency}) needs an edit region")
        if it.crop is None:
            v.err(
                line,
                "crop",
                f"peripheral item (saliency {it.saliency}) needs a crop that contains its edit",
            )
    elif it.edit is None:
        v.warn(line, "edit", "forged item without an edit: the judge has no region to check")
    if it.crop is not None and it.edit is not None and not _contains(it.crop, it.edit.region):
        v.err(
            line,
            "crop",
            f"crop {list(it.crop)} does not contain the edit region {list(it.edit.region)}",
        )


def check_seeds(
    v: _Sink, items: list[tuple[int, Item]], broken_erase_seeds: frozenset[str] = frozenset()
) -> None:
    """Rules across the items of one seed: triples and the crops of authentic originals.

    ``broken_erase_seeds``: seeds with an erase line that failed the item model; it still counts
    as the erase sibling (its own errors are reported on its line), so no error cascades.
    """
    seeds: dict[str, list[tuple[int, Item]]] = {}
    for line, it in items:
        seeds.setdefault(it.seed_id, []).append((line, it))
    for seed, members in seeds.items():
        variants: dict[str, list[int]] = {}
        for line, it in members:
            if it.variant is not None and it.label == "forged":
                variants.setdefault(it.variant, []).append(line)
        for variant, lines in variants.items():
            for line in lines[1:]:
                v.warn(
                    line,
                    "variant",
                    f"seed {seed!r} has another {variant} member (line {lines[0]}); "
                    "triples pair one erase, one swap and one k0",
                )
        erase = variants.get("erase")
        for variant in ("swap", "k0"):
            for line in variants.get(variant, []):
                if not erase and seed not in broken_erase_seeds:
                    v.err(
                        line,
                        "variant",
                        f"{variant} member of seed {seed!r} has no erase sibling "
                        "(an item with variant 'erase' and the same seed_id)",
                    )
        if erase:
            for variant in ("swap", "k0"):
                if variant not in variants:
                    v.warn(
                        erase[0],
                        "variant",
                        f"erase member of seed {seed!r} has no {variant} sibling",
                    )
        if any(it.is_peripheral for _, it in members):
            for line, it in members:
                if it.label == "authentic" and it.crop is None:
                    v.warn(
                        line,
                        "crop",
                        f"authentic original of seed {seed!r}, which has peripheral forgeries, "
                        "has no crop: it drops out of the crop conditions",
                    )
