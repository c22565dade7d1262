"""Tests of blokus.render: the text drawing, colour detection and the SVG."""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET

import pytest

from blokus import Game, render
from blokus.geometry import TriangleBoard, parse_point

SVG_NS = "{http://www.w3.org/2000/svg}"


def glyph_at(drawing: str, game: Game, name: str) -> str:
    """The character drawn for cell ``name`` in a colourless text drawing with
    coordinates: the row line starts with the right-aligned row number and a
    space, then one character per cell (square cells separated by a space)."""
    board = game.board
    x, row = parse_point(name)
    width = len(str(board.height))
    step = 2 if board.kind == "square" else 1
    for line in drawing.splitlines():
        if line.startswith(f"{row:>{width}} "):
            return line[width + 1 + step * x]
    raise AssertionError(f"no line for row {row}")


class Tty(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


# -- text ----------------------------------------------------------------------


def test_square_text_glyphs() -> None:
    game = Game("duo")
    drawing = render.text(game, color=False)
    assert glyph_at(drawing, game, "e10") == "+"
    assert glyph_at(drawing, game, "j5") == "+"
    assert glyph_at(drawing, game, "a1") == "."
    assert glyph_at(drawing, game, "n14") == "."
    game.push("e10,d11,e11,f11,e12")
    drawing = render.text(game, color=False)
    # the last move is drawn in lower case
    for cell in ("e10", "d11", "e11", "f11", "e12"):
        assert glyph_at(drawing, game, cell) == "p"
    assert glyph_at(drawing, game, "d10") == "."
    assert glyph_at(drawing, game, "j5") == "+"
    game.push("j5,j6")
    drawing = render.text(game, color=False)
    for cell in ("e10", "d11", "e11", "f11", "e12"):
        assert glyph_at(drawing, game, cell) == "P"
    assert glyph_at(drawing, game, "j5") == "o"
    assert glyph_at(drawing, game, "j6") == "o"
    without_last = render.text(game, color=False, last_move=False)
    assert glyph_at(without_last, game, "j6") == "O"


def test_square_text_layout_and_legend() -> None:
    game = Game("classic")
    game.push("a20")
    lines = render.text(game, color=False).splitlines()
    letters = " ".join("abcdefghijklmnopqrst")
    assert lines[0] == "   " + letters
    assert lines[1] == "20 b" + " ." * 18 + " + 20"
    assert lines[20] == " 1 +" + " ." * 18 + " + 1"
    assert lines[21] == lines[0]
    legend = lines[22]
    for part in ("B Blue", "Y Yellow", "R Red", "G Green", "Yellow to move"):
        assert part in legend
    assert len(lines) == 23
    bare = render.text(game, color=False, coordinates=False).splitlines()
    assert len(bare) == 21
    assert bare[0] == "b" + " ." * 18 + " +"


def test_triangle_text_glyphs() -> None:
    game = Game("trigon")
    board = game.board
    assert isinstance(board, TriangleBoard)
    drawing = render.text(game, color=False)
    for start in ("r15", "r4", "j12", "j7", "z12", "z7"):
        assert glyph_at(drawing, game, start) == "+"
    for name in ("a10", "b10", "i18", "j18", "ai9", "s1"):
        point = parse_point(name)
        expected = "^" if board.is_up(point) else "v"
        assert glyph_at(drawing, game, name) == expected
    assert {glyph_at(drawing, game, n) for n in ("a10", "b10")} == {"^", "v"}
    # cells off the hexagon are blank
    assert glyph_at(drawing, game, "a1") == " "
    assert glyph_at(drawing, game, "a18") == " "
    assert not board.has_point(parse_point("a1"))
    move = "r15,s15,t15,s16"
    game.push(move)
    drawing = render.text(game, color=False)
    for cell in move.split(","):
        assert glyph_at(drawing, game, cell) == "b"
    assert glyph_at(drawing, game, "q15") in "^v"
    lines = drawing.splitlines()
    # two header lines (columns aa..ai), 18 rows, two footer lines, legend
    assert len(lines) == 2 + 18 + 2 + 1
    assert lines[0].strip() == "a" * 9
    assert lines[1].strip() == "abcdefghijklmnopqrstuvwxyz" + "abcdefghi"
    assert "Yellow to move" in lines[-1]


def test_text_colour_and_str() -> None:
    game = Game("duo")
    game.push("e10")
    plain = render.text(game, color=False)
    coloured = render.text(game, color=True)
    assert "\x1b[" not in plain
    assert "\x1b[" in coloured
    assert str(game) == plain
    # stripping the escapes gives the plain drawing back
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_text_auto_colour_follows_stdout(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game("duo")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr("sys.stdout", Tty(False))
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert "\x1b[" not in render.text(game)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" in render.text(game)


@pytest.mark.parametrize(
    ("env", "tty", "expected"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"NO_COLOR": ""}, True, True),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
        ({"FORCE_COLOR": "1"}, False, True),
        ({"FORCE_COLOR": "0"}, False, False),
        ({"TERM": "dumb"}, True, False),
        ({"TERM": "dumb", "FORCE_COLOR": "1"}, False, True),
        ({"TERM": "xterm-256color"}, True, True),
    ],
)
def test_use_color(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], tty: bool, expected: bool
) -> None:
    for key in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert render.use_color(Tty(tty)) is expected


def test_use_color_without_isatty(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(key, raising=False)

    class Bare:
        pass

    assert render.use_color(Bare()) is False  # type: ignore[arg-type]
    closed = io.StringIO()
    closed.close()
    assert render.use_color(closed) is False


def test_cells_text_draws_a_piece() -> None:
    game = Game("duo")
    board = game.board
    cells = sorted(board.parse(n) for n in ("e10", "d11", "e11", "f11", "e12"))
    lines = render.cells_text(board, cells, first=cells[0])
    assert lines == [". # .", "# # #", ". @ ."]
    tri = Game("trigon").board
    assert isinstance(tri, TriangleBoard)
    cells = sorted(tri.parse(n) for n in ("r15", "s15", "t15", "s16"))
    lines = render.cells_text(tri, cells)
    # row 16: s16 between its empty edge neighbours r16 and t16, which point
    # the other way
    side = "^" if tri.is_up(parse_point("r16")) else "v"
    assert tri.is_up(parse_point("s16")) == (side == "v")
    assert lines == [f"{side}#{side}", "###"]


# -- SVG ---------------------------------------------------------------------


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG_NS}svg"
    return root


def polygons(root: ET.Element) -> dict[str, ET.Element]:
    found = root.findall(f".//{SVG_NS}polygon")
    by_cell = {p.get("data-cell", ""): p for p in found}
    assert len(by_cell) == len(found)
    return by_cell


def area(points: str) -> float:
    pts = [tuple(map(float, p.split(","))) for p in points.split()]
    s = 0.0
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1], strict=True):
        s += x1 * y2 - x2 * y1
    return abs(s) / 2


@pytest.mark.parametrize("variant_id", ["duo", "classic", "trigon", "trigon_3"])
def test_svg_one_polygon_per_cell(variant_id: str) -> None:
    game = Game(variant_id)
    root = parse_svg(render.svg(game, size=400))
    cells = polygons(root)
    board = game.board
    assert len(cells) == board.size
    assert set(cells) == {board.name(c) for c in range(board.size)}
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    assert max(width, height) == pytest.approx(400, abs=0.01)
    # Every polygon is a proper square or triangle, its vertices in order
    # around it (a crossed square would have area 0): all cells have the
    # area of the unit cell at the drawing's scale.
    corners = 4 if board.kind == "square" else 3
    assert all(len(p.get("points", "").split()) == corners for p in cells.values())
    xs = [float(v.split(",")[0]) for p in cells.values() for v in p.get("points", "").split()]
    columns = board.width if board.kind == "square" else (board.width + 1) / 2
    side = (max(xs) - min(xs)) / columns
    unit = side**2 if board.kind == "square" else side**2 * math.sqrt(3) / 4
    for p in cells.values():
        assert area(p.get("points", "")) == pytest.approx(unit, rel=0.03)
    # empty starting cells are ringed
    starts = root.findall(f".//{SVG_NS}circle[@class='start']")
    assert len(starts) == len({c for s in game.variant.starting_cells for c in s})


def test_svg_fills_and_marks() -> None:
    game = Game("duo")
    game.push("e10,d11,e11,f11,e12")
    root = parse_svg(render.svg(game, attach_points=True))
    cells = polygons(root)
    purple = render.PALETTE["Purple"]
    for name in ("e10", "d11", "e11", "f11", "e12"):
        assert cells[name].get("fill") == purple
    assert cells["a1"].get("fill") not in render.PALETTE.values()
    assert cells["j5"].get("fill") == cells["a1"].get("fill")
    last = root.findall(f".//{SVG_NS}circle[@class='last-move']")
    assert len(last) == 5
    # attach points of Orange, the colour to move: its starting cell j5
    attach = root.findall(f".//{SVG_NS}circle[@class='attach']")
    assert len(attach) == game.attach_points(1).bit_count() == 1
    assert attach[0].get("fill") == render.PALETTE["Orange"]
    starts = root.findall(f".//{SVG_NS}circle[@class='start']")
    assert len(starts) == 1  # e10 is covered
    labels = [t.text for t in root.iter(f"{SVG_NS}text")]
    assert "a" in labels and "n" in labels and "14" in labels
    game.push("j5,j6")
    root = parse_svg(render.svg(game, coordinates=False, last_move=False))
    cells = polygons(root)
    assert cells["j6"].get("fill") == render.PALETTE["Orange"]
    assert not root.findall(f".//{SVG_NS}circle[@class='last-move']")
    assert not list(root.iter(f"{SVG_NS}text"))
    assert game._repr_svg_().startswith("<svg")


def test_svg_triangle_fill_and_shape() -> None:
    game = Game("trigon")
    game.push("r15,s15,t15,s16")
    root = parse_svg(render.svg(game))
    cells = polygons(root)
    for name in ("r15", "s15", "t15", "s16"):
        assert cells[name].get("fill") == render.PALETTE["Blue"]
    board = game.board
    assert isinstance(board, TriangleBoard)
    # an up triangle has its apex above its base (smaller SVG y)
    for name in ("r15", "s15"):
        ys = sorted(float(p.split(",")[1]) for p in cells[name].get("points", "").split())
        apex_up = ys[0] < ys[1]
        assert apex_up == board.is_up(parse_point(name))


def test_svg_rejects_bad_size() -> None:
    with pytest.raises(ValueError, match="size"):
        render.svg(Game("duo"), size=0)
