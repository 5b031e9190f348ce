"""``frozen_builder`` builds the very values the dataclass constructor gives, and refuses
classes it would build wrongly."""

from __future__ import annotations

import dataclasses

import pytest

from rallye.core.values import frozen_builder


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: tuple[int, ...]


def test_built_values_equal_constructed_ones_and_stay_frozen():
    build = frozen_builder(Point)
    p = build(1, (2, 3))
    assert type(p) is Point and p == Point(1, (2, 3)) and hash(p) == hash(Point(1, (2, 3)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 5  # type: ignore[misc]
    assert dataclasses.replace(p, x=4) == Point(4, (2, 3))


def test_classes_it_cannot_build_are_refused():
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            if self.x < 0:
                raise ValueError("negative")

    with pytest.raises(TypeError, match="slotted"):
        frozen_builder(NoSlots)
    with pytest.raises(TypeError, match="__post_init__"):
        frozen_builder(Checked)
