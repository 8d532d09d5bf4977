"""The plan engine (:mod:`senet.rl.cells`) and its C twin: the same cells, the same reports.

Random plans over random states changed at random: after every sync, the tensor an
engine keeps up to date equals, bit for bit, the one a fresh engine writes from
nothing, and the C twin's equals the Python reference's. The games' writers built on
the engine are held to their features elsewhere (``tests/rl/test_encodings.py``).
"""

from __future__ import annotations

from array import array
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.rl import cells, native
from senet.rl.features import zeros

WIDTH = 5
SEATS = 3
SIZE = 200

#: The engines to hold against the reference: the Python one, and the C twin if built.
_twin = native.current_twin("senet.rl.cells")
ENGINES: list[Any] = [cells.Cells] + ([] if _twin is None else [_twin.Cells])


def _plan() -> list[cells.Step]:
    """One step of every shape, over the fields :func:`_values` draws."""
    ats = [100 + 10 * seat for seat in range(SEATS)]
    return [
        cells.custom("tag"),
        cells.number("n", 0, 4.0),
        cells.length("items", 1, 2.0),
        cells.counts("items", 2, WIDTH),
        cells.counts("tokens", 8, 3, channels=(-1, 0, 1, 2)),
        cells.vector("numbers", 12, WIDTH, 10.0),
        cells.one_hot("index", 18, WIDTH),
        cells.one_hot("seat", 24, SEATS, channels=(2, 0, 1), empty=-1),
        cells.owners("board", 30, 4 * 6, 4, channels=(0, 1, 2), empty=9),
        cells.row_numbers("scores", [60, 61, 62], 50.0),
        cells.row_lengths("rows", [63, 64, 65], 3.0),
        cells.row_counts("rows", ats, WIDTH),
        cells.row_vectors("flags", [a + WIDTH for a in ats], 3),
        cells.counts("rows", 140, WIDTH, row=1),
        cells.custom("rows"),
        cells.Step(cells.CUSTOM, "rows", row=2),
        cells.row_sums("rows", [150, 151, 152], 4.0),
        cells.table("grid", 160, 4 * 5, 5, 3.0, channels=(0, 2, 2, 1)),
    ]


_entries = st.lists(st.integers(0, WIDTH - 1), max_size=6)
_state = st.fixed_dictionaries(
    {
        "tag": st.sampled_from(["a", "b", ("c", 1)]),
        "n": st.one_of(st.none(), st.integers(-5, 5)),
        "items": _entries,
        "tokens": st.lists(st.integers(1, 3), max_size=4),
        "numbers": st.lists(st.integers(-9, 9), max_size=WIDTH),
        "index": st.one_of(st.none(), st.integers(0, WIDTH - 1)),
        "seat": st.integers(-1, SEATS - 1),
        "board": st.lists(st.sampled_from([0, 1, 2, 9]), min_size=0, max_size=6),
        "scores": st.lists(st.one_of(st.none(), st.integers(0, 99)), min_size=3, max_size=3),
        "rows": st.lists(_entries, min_size=SEATS, max_size=SEATS),
        "flags": st.lists(st.lists(st.booleans(), max_size=3), min_size=3, max_size=3),
        "grid": st.lists(
            st.lists(st.one_of(st.none(), st.integers(-3, 3)), max_size=5), min_size=3, max_size=4
        ),
    }
)


def _read(values: dict[str, Any], position: int) -> Any:
    """What the plan's step at ``position`` reads from ``values``."""
    step = _plan()[position]
    value = values[step.field]
    return value if step.row < 0 else value[step.row]


#: The tensors' types: float32s (what the environments keep) and doubles.
TYPECODES = ("f", "d")


def _fresh(engine: Any, state: Any, typecode: str = "d") -> tuple[array[float], list[int]]:
    out = zeros(SIZE, typecode)
    reported = engine(out, _plan()).sync(state)
    return out, reported


@pytest.mark.parametrize("typecode", TYPECODES)
@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__module__)
@settings(max_examples=150, deadline=None)
@given(states=st.lists(_state, min_size=1, max_size=8))
def test_an_engine_kept_in_step_writes_what_a_fresh_one_writes(
    engine: Any, typecode: str, states: list[dict[str, Any]]
) -> None:
    out = zeros(SIZE, typecode)
    kept = engine(out, _plan())
    before: dict[str, Any] | None = None
    # One object changed in place, as a rules core changes its state.
    state = SimpleNamespace()
    for values in states:
        for name, value in values.items():
            current = getattr(state, name, None)
            if type(current) is list and type(value) is list:
                current[:] = value  # (in place: the engine must have kept a copy)
            else:
                setattr(state, name, value)
        reported = kept.sync(state)
        fresh, _ = _fresh(engine, state, typecode)
        assert out.tobytes() == fresh.tobytes()
        custom = [i for i, s in enumerate(_plan()) if s.kind == cells.CUSTOM]
        expected = [i for i in custom if before is None or _read(before, i) != _read(values, i)]
        assert reported == expected
        before = {name: list(v) if type(v) is list else v for name, v in values.items()}
        before["rows"] = [list(r) for r in values["rows"]]


@pytest.mark.skipif(_twin is None, reason="no compiled twin is built here")
@pytest.mark.parametrize("typecode", TYPECODES)
@settings(max_examples=150, deadline=None)
@given(states=st.lists(_state, min_size=1, max_size=8))
def test_the_c_twin_writes_what_the_reference_writes(
    typecode: str, states: list[dict[str, Any]]
) -> None:
    """Bit for bit, in float32s as in doubles: the C twin rounds each double once
    where it stores it, as the ``array`` does, and adds counts in doubles."""
    assert _twin is not None
    outs = [zeros(SIZE, typecode) for _ in range(2)]
    engines = [cells.Cells(outs[0], _plan()), _twin.Cells(outs[1], _plan())]
    for values in states:
        state = SimpleNamespace(**values)
        reports = [engine.sync(state) for engine in engines]
        assert reports[0] == reports[1]
        assert outs[0].tobytes() == outs[1].tobytes()


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__module__)
def test_forget_writes_every_step_again(engine: Any) -> None:
    out = array("d", bytes(8 * SIZE))
    kept = engine(out, [cells.number("n", 0), cells.custom("tag")])
    state = SimpleNamespace(n=3, tag="x")
    assert kept.sync(state) == [1]
    out[0] = 42.0
    assert kept.sync(state) == []
    assert out[0] == 42.0  # nothing changed: nothing written
    kept.forget()
    assert kept.sync(state) == [1]
    assert out[0] == 3.0


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__module__)
@pytest.mark.parametrize(
    ("step", "value"),
    [
        (cells.counts("v", 0, 3), [3]),
        (cells.counts("v", 0, 3), [-1]),
        (cells.counts("v", 0, 3, channels=(0, 1)), [2]),
        (cells.vector("v", 0, 2), [1, 2, 3]),
        (cells.one_hot("v", 0, 2), 2),
        (cells.owners("v", 0, 4, 2, channels=(0, 1), empty=-1), [0, 1, 0]),
        (cells.table("v", 0, 4, 2, channels=(0, 2)), [[1], [1]]),
        (cells.table("v", 0, 4, 2), [[1, 2, 3]]),
        (cells.table("v", 0, 4, 2), [[1], [2], [3]]),
    ],
)
def test_a_value_outside_its_slice_is_refused(engine: Any, step: cells.Step, value: Any) -> None:
    out = array("d", bytes(8 * 10))
    with pytest.raises(IndexError):
        engine(out, [step]).sync(SimpleNamespace(v=value))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__module__)
def test_a_plan_outside_the_tensor_is_refused(engine: Any) -> None:
    with pytest.raises(ValueError, match="outside"):
        engine(array("d", bytes(8 * 4)), [cells.counts("v", 2, 3)])
    with pytest.raises(ValueError, match="outside"):
        engine(array("d", bytes(8 * 4)), [cells.row_numbers("v", [0, 4])])


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__module__)
def test_rows_must_match_the_seats(engine: Any) -> None:
    kept = engine(array("d", bytes(8 * 4)), [cells.row_numbers("v", [0, 1])])
    with pytest.raises(ValueError, match="rows"):
        kept.sync(SimpleNamespace(v=[1, 2, 3]))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__module__)
def test_tuples_are_read_as_lists_are(engine: Any) -> None:
    """A field may hold a tuple where another state holds a list: the same cells."""
    plan = [
        cells.owners("board", 0, 8, 2, channels=(0, 1), empty=-1),
        cells.counts("items", 8, 3),
        cells.row_vectors("rows", [11, 13], 2),
    ]
    out = array("d", bytes(8 * 15))
    kept = engine(out, plan)
    for board, items, rows in (
        ((0, -1, 1), (2, 2), [(1, 2), (3,)]),
        ([0, 1, 1, -1], [0], [[1, 2], (4, 5)]),
        ((-1, 1, 1, 0), (), [(), [6]]),
    ):
        state = SimpleNamespace(board=board, items=items, rows=rows)
        kept.sync(state)
        fresh = array("d", bytes(8 * 15))
        engine(fresh, plan).sync(state)
        assert out.tobytes() == fresh.tobytes()


class _Counted:
    """A state whose ``n`` is a property over ``_n``, with ``m`` a plain attribute."""

    def __init__(self, n: int, m: int) -> None:
        self._n = n
        self.m = m

    @property
    def n(self) -> int:
        return self._n + 100


class _Slotted:
    __slots__ = ("m", "n")

    def __init__(self, n: int, m: int) -> None:
        self.n = n
        self.m = m


class _Fallback:
    """``n`` only through ``__getattr__``."""

    def __init__(self, m: int) -> None:
        self.m = m

    def __getattr__(self, name: str) -> int:
        if name == "n":
            return 7
        raise AttributeError(name)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__module__)
def test_fields_are_read_as_attributes_are(engine: Any) -> None:
    """The engines read a field as ``getattr`` does, however the state's class
    provides it: an instance attribute, a property (which wins over an entry of the
    instance's dict), a slot, ``__getattr__``; and a property added to the class
    later is read from then on."""
    plan = [cells.number("n", 0), cells.number("m", 1)]

    def written(state: object) -> list[float]:
        out = array("d", bytes(8 * 2))
        engine(out, plan).sync(state)
        return list(out)

    counted = _Counted(1, 2)
    counted.__dict__["n"] = 50  # shadowed by the property, as getattr reads it
    assert written(counted) == [101.0, 2.0]
    assert written(_Slotted(3, 4)) == [3.0, 4.0]
    assert written(_Fallback(5)) == [7.0, 5.0]

    class Late:
        def __init__(self) -> None:
            self.n, self.m = 1, 2

    state = Late()
    out = array("d", bytes(8 * 2))
    kept = engine(out, plan)
    kept.sync(state)
    assert list(out) == [1.0, 2.0]
    setattr(Late, "n", property(lambda self: 9))  # noqa: B010 (a class changed at run time)
    kept.sync(state)
    assert list(out) == [9.0, 2.0]
    with pytest.raises(AttributeError):
        engine(out, [cells.number("absent", 0)]).sync(state)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__module__)
def test_a_tensor_of_another_type_is_refused(engine: Any) -> None:
    """Floats or doubles only: the C twin writes them through the buffer."""
    if engine is cells.Cells:
        pytest.skip("the reference writes any array Python does")
    with pytest.raises(TypeError, match="floats or doubles"):
        engine(array("i", bytes(4 * 4)), [cells.number("n", 0)])


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.__module__)
def test_fields_are_read_wherever_the_dict_keeps_them(engine: Any) -> None:
    """A field deleted and set again moves in the instance's dict; another state
    object keeps its fields elsewhere: each sync reads the value there is now."""
    plan = [cells.number("alpha", 0), cells.number("b", 1), cells.number("c", 2)]
    out = array("d", bytes(8 * 3))
    kept = engine(out, plan)
    state = SimpleNamespace(alpha=1, b=2, c=3)
    kept.sync(state)
    assert list(out) == [1.0, 2.0, 3.0]
    del state.alpha
    state.b = 5
    state.alpha = 7  # now after c
    kept.sync(state)
    assert list(out) == [7.0, 5.0, 3.0]
    other = SimpleNamespace(c=9, x=0, b=8, alpha=6)
    kept.sync(other)
    assert list(out) == [6.0, 8.0, 9.0]
    kept.sync(state)
    assert list(out) == [7.0, 5.0, 3.0]
    del other.alpha
    other.__dict__["".join(["al", "pha"])] = 4  # a key equal to the field, another str
    kept.sync(other)
    assert list(out) == [4.0, 8.0, 9.0]
